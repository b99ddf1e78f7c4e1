//! Tools that run as tasks: the extension `io.modelcontextprotocol/tasks` (SEP-2663), on
//! rmcp's task runtime ([`TaskManager`]).
//!
//! [`Tasks`] is set up once per server, like [`Rounds`](super::Rounds): it names the tools
//! that may run as a task and wraps the tool router so that, for a client that declared the
//! extension (for its session, or for this one request in `_meta`), each of those tools answers
//! `tools/call` with a `CreateTaskResult` and runs in the background; `tasks/get`,
//! `tasks/update` and `tasks/cancel` are answered from the same [`TaskManager`].

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::sync::Arc;

use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::{DynCallToolHandler, ToolCallContext};
use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use futures_util::FutureExt;

use super::rounds::{Escalation, InTask};
use futures_util::future::{Either, select};
use tokio_util::sync::CancellationToken;

/// How a tool runs for a client that declared the tasks extension, and for one that did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// A task for a client that declared the extension; a plain call for one that did not.
    Optional,
    /// A task for a client that declared the extension; for one that did not, the call is
    /// refused with -32021 (Missing Required Client Capability), whose
    /// `data.requiredCapabilities.extensions` names the extension.
    Required,
}

/// The tools that run as tasks, and the task runtime they run on; set up once per server.
///
/// Declare each tool's [`TaskSupport`] ([`optional`](Self::optional),
/// [`required`](Self::required)), wrap the tool router with [`tools`](Self::tools) (outside
/// [`Rounds::tools`](super::Rounds::tools) when the server has one), declare the extension in
/// the server's capabilities (`ServerCapabilities::builder().enable_tasks()`), and answer the
/// three task methods with [`get`](Self::get), [`update`](Self::update) and
/// [`cancel`](Self::cancel). rmcp refuses `tasks/*` from a client that did not declare the
/// extension with -32021 before they reach the server.
///
/// For a client that declared the extension, a task tool answers `tools/call` at once with a
/// `CreateTaskResult` and its method runs in the background: its result is the task's
/// `result` (`completed`, also when it is a tool error, `isError: true`), its `Err` the task's
/// `error` (`failed`), and a panic fails the task with an internal error rather than leaving
/// it `working` until its TTL. `tasks/cancel` cancels the method's
/// [`RequestContext::ct`] and drops its future; the task settles `cancelled`. Tools not named
/// here are plain calls for every client.
///
/// A method that takes an [`Ask`](super::Ask) asks inside its task, with the same typed
/// outcomes and errors as in a call: each ask is an input request of the task (`input_required`
/// exactly while one waits, listed by `tasks/get` under its input key) that `tasks/update`
/// answers; see the crate page's "Asking inside a task". A tool declared with
/// [`required_after_asks`](Self::required_after_asks) or
/// [`optional_after_asks`](Self::optional_after_asks) asks in input-required rounds first and
/// becomes a task where its method calls [`Ask::continue_as_task`](super::Ask::continue_as_task).
/// The task's TTL
/// ([`with_options`](Self::with_options)) counts from its creation and includes the user's time to
/// answer.
///
/// ```no_run
/// use elicit_mcp::rmcp::Tasks;
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::model::{
///     CallToolResult, CancelTaskParams, ContentBlock, ErrorData, GetTaskParams, GetTaskResult,
///     ServerCapabilities, ServerConfig, UpdateTaskParams,
/// };
/// use rmcp::service::{RequestContext, RoleServer};
/// use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Report {
///     month: String,
/// }
///
/// #[derive(Clone)]
/// struct Reports {
///     tool_router: ToolRouter<Reports>,
///     tasks: Tasks,
/// }
///
/// #[tool_router]
/// impl Reports {
///     fn new(tasks: Tasks) -> Result<Self, elicit_mcp::rmcp::TaskSetupError> {
///         let tool_router = tasks.tools(Self::tool_router())?;
///         Ok(Reports { tool_router, tasks })
///     }
///
///     #[tool(description = "Builds the monthly report (minutes)")]
///     async fn build_report(&self, Parameters(report): Parameters<Report>) -> CallToolResult {
///         // ... the long work ...
///         CallToolResult::success(vec![ContentBlock::text(format!("report {}", report.month))])
///     }
/// }
///
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Reports {
///     fn get_info(&self) -> ServerConfig {
///         ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
///     }
///
///     async fn get_task(
///         &self,
///         request: GetTaskParams,
///         _: RequestContext<RoleServer>,
///     ) -> Result<GetTaskResult, ErrorData> {
///         self.tasks.get(&request)
///     }
///
///     async fn update_task(
///         &self,
///         request: UpdateTaskParams,
///         _: RequestContext<RoleServer>,
///     ) -> Result<(), ErrorData> {
///         self.tasks.update(request)
///     }
///
///     async fn cancel_task(
///         &self,
///         request: CancelTaskParams,
///         _: RequestContext<RoleServer>,
///     ) -> Result<(), ErrorData> {
///         self.tasks.cancel(&request)
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = Reports::new(Tasks::new().required("build_report"))?;
/// # let _ = server;
/// # Ok(())
/// # }
/// ```
///
/// # Several replicas
///
/// rmcp's [`TaskManager`] keeps its tasks in the memory of the process that created them: a
/// task is known to the replica that answered its `tools/call`, and only there. Every
/// `tasks/get`, `tasks/update` and `tasks/cancel` carries the task id in its `Mcp-Name`
/// header (SEP-2243), so a proxy in front of several replicas routes them by that header to
/// the replica holding the task; any other replica answers -32602 (unknown task). A restart
/// loses the process's tasks.
#[derive(Clone)]
pub struct Tasks {
    manager: TaskManager,
    options: TaskOptions,
    declared: Vec<Declared>,
}

/// One tool declared for tasks.
#[derive(Clone, Debug)]
struct Declared {
    tool: Cow<'static, str>,
    support: TaskSupport,
    start: Start,
}

/// Where a declared tool's task starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// At once: `tools/call` answers `CreateTaskResult`.
    AtOnce,
    /// Where the method calls [`Ask::continue_as_task`](super::Ask::continue_as_task): the
    /// asks before it are input-required rounds of the call.
    AfterAsks,
}

impl fmt::Debug for Tasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tasks")
            .field("options", &self.options)
            .field("declared", &self.declared)
            .finish_non_exhaustive()
    }
}

impl Default for Tasks {
    fn default() -> Self {
        Self::new()
    }
}

impl Tasks {
    /// No task tools yet, on a task runtime of its own, with rmcp's default
    /// [`TaskOptions`] (a TTL of 5 minutes, polls suggested every second).
    pub fn new() -> Self {
        Self::with_manager(TaskManager::new())
    }

    /// Runs the tasks on `manager`, shared with code of the server's own (which may spawn
    /// tasks of its own on it).
    pub fn with_manager(manager: TaskManager) -> Self {
        Tasks {
            manager,
            options: TaskOptions::default(),
            declared: Vec::new(),
        }
    }

    /// The TTL, suggested poll interval and first status message of every task created from
    /// now on.
    pub fn with_options(mut self, options: TaskOptions) -> Self {
        self.options = options;
        self
    }

    /// `tool` runs as a task for a client that declared the extension, and as a plain call
    /// for any other.
    pub fn optional(self, tool: impl Into<Cow<'static, str>>) -> Self {
        self.declare(tool.into(), TaskSupport::Optional, Start::AtOnce)
    }

    /// `tool` runs only as a task: a client that did not declare the extension gets -32021.
    pub fn required(self, tool: impl Into<Cow<'static, str>>) -> Self {
        self.declare(tool.into(), TaskSupport::Required, Start::AtOnce)
    }

    /// `tool` asks in input-required rounds first, and becomes a task where its method calls
    /// [`Ask::continue_as_task`](super::Ask::continue_as_task), for a client that declared the
    /// extension; for any other it is a plain call throughout.
    pub fn optional_after_asks(self, tool: impl Into<Cow<'static, str>>) -> Self {
        self.declare(tool.into(), TaskSupport::Optional, Start::AfterAsks)
    }

    /// As [`optional_after_asks`](Self::optional_after_asks), but a client that did not
    /// declare the extension gets -32021 before the method runs.
    pub fn required_after_asks(self, tool: impl Into<Cow<'static, str>>) -> Self {
        self.declare(tool.into(), TaskSupport::Required, Start::AfterAsks)
    }

    fn declare(mut self, tool: Cow<'static, str>, support: TaskSupport, start: Start) -> Self {
        self.declared.push(Declared {
            tool,
            support,
            start,
        });
        self
    }

    /// How `tool` runs as a task, if it was declared.
    pub fn support(&self, tool: &str) -> Option<TaskSupport> {
        self.declared
            .iter()
            .find(|declared| declared.tool == tool)
            .map(|declared| declared.support)
    }

    /// The task runtime.
    pub fn manager(&self) -> &TaskManager {
        &self.manager
    }

    /// Wraps the routes of the declared tools in `router`: the router to keep in the server
    /// and name in `#[tool_handler(router = ..)]`. Other routes are left as they are; the
    /// tools' list is unchanged.
    ///
    /// A task runs its method on a clone of the server, so the server is `Clone` (rmcp
    /// servers usually are).
    ///
    /// # Errors
    ///
    /// A declared tool that `router` does not have, or a tool declared twice, before any
    /// route is changed.
    pub fn tools<S>(&self, mut router: ToolRouter<S>) -> Result<ToolRouter<S>, TaskSetupError>
    where
        S: Clone + Send + Sync + 'static,
    {
        let support = self.checked_support(&router)?;
        for (name, route) in &mut router.map {
            let Some(&(support, start)) = support.get(name.as_ref()) else {
                continue;
            };
            let tasks = self.clone();
            let inner = route.call.clone();
            route.call = Arc::new(move |context: ToolCallContext<'_, S>| {
                let tasks = tasks.clone();
                let inner = inner.clone();
                Box::pin(async move {
                    match start {
                        Start::AtOnce => tasks.call(context, support, inner).await,
                        Start::AfterAsks => tasks.call_after_asks(context, support, inner).await,
                    }
                })
            });
        }
        Ok(router)
    }

    fn checked_support<S>(
        &self,
        router: &ToolRouter<S>,
    ) -> Result<BTreeMap<&str, (TaskSupport, Start)>, TaskSetupError> {
        let mut support = BTreeMap::new();
        for declared in &self.declared {
            let name = declared.tool.as_ref();
            if !router.map.contains_key(name) {
                return Err(TaskSetupError::UnknownTool {
                    tool: name.to_owned(),
                });
            }
            if let Some((first, _)) = support.insert(name, (declared.support, declared.start)) {
                return Err(TaskSetupError::DeclaredTwice {
                    tool: name.to_owned(),
                    first,
                    second: declared.support,
                });
            }
        }
        Ok(support)
    }

    async fn call<S>(
        &self,
        context: ToolCallContext<'_, S>,
        support: TaskSupport,
        inner: Arc<DynCallToolHandler<S>>,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData>
    where
        S: Clone + Send + Sync + 'static,
    {
        if declares_tasks(&context.request_context) {
            return Ok(self.spawn(context, inner).into());
        }
        match support {
            TaskSupport::Optional => inner(context).await,
            TaskSupport::Required => Err(missing_tasks_extension()),
        }
    }

    /// A tool that asks in rounds first: a plain call (each round an `InputRequiredResult`)
    /// until its method reaches `continue_as_task`, then a task that replays the method with
    /// what the rounds gathered.
    async fn call_after_asks<S>(
        &self,
        mut context: ToolCallContext<'_, S>,
        support: TaskSupport,
        inner: Arc<DynCallToolHandler<S>>,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData>
    where
        S: Clone + Send + Sync + 'static,
    {
        if !declares_tasks(&context.request_context) {
            if support == TaskSupport::Required {
                return Err(missing_tasks_extension());
            }
            context.request_context.extensions.insert(Escalation::Plain);
            return inner(context).await;
        }
        let escalation = Escalation::slot();
        let (service, name) = (context.service, context.name.clone());
        let arguments = context.arguments.clone();
        let mut request_context = context.request_context.clone();
        context
            .request_context
            .extensions
            .insert(escalation.clone());
        let response = inner.clone()(context).await?;
        let Some(gathered) = escalation.take() else {
            // A round that asks, or a method that ended without continuing as a task.
            return Ok(response);
        };
        // The sealed state and the responses are consumed here: the task carries what they
        // held, and nothing of them goes into its envelope.
        request_context.extensions.insert(gathered);
        let mut params = sdk::CallToolRequestParams::new(name);
        params.arguments = arguments;
        let context = ToolCallContext::new(service, params, request_context);
        Ok(self.spawn(context, inner).into())
    }

    /// Creates the task, durably (a `tasks/get` for it resolves before this returns), and
    /// runs the method in it.
    fn spawn<S>(
        &self,
        context: ToolCallContext<'_, S>,
        inner: Arc<DynCallToolHandler<S>>,
    ) -> sdk::CreateTaskResult
    where
        S: Clone + Send + Sync + 'static,
    {
        let server = context.service.clone();
        let ToolCallContext {
            mut request_context,
            name,
            arguments,
            input_responses,
            request_state,
            ..
        } = context;
        // The method's own cancellation, now the task's: the call that created it is over.
        let cancel = CancellationToken::new();
        request_context.ct = cancel.clone();
        let manager = self.manager.clone();
        let task = self.manager.spawn(self.options.clone(), move |task| {
            request_context.extensions.insert(task.clone());
            // What an `Ask` inside the method delivers its asks through.
            request_context.extensions.insert(InTask {
                context: task.clone(),
                manager: manager.clone(),
            });
            Box::pin(async move {
                let mut params = sdk::CallToolRequestParams::new(name.clone());
                params.arguments = arguments;
                params.input_responses = input_responses;
                params.request_state = request_state;
                let call = ToolCallContext::new(&server, params, request_context);
                let work = pin!(AssertUnwindSafe(inner(call)).catch_unwind());
                match select(pin!(cancelled(&task)), work).await {
                    Either::Left(((), _)) => {
                        cancel.cancel();
                        Err(TaskExit::Cancelled)
                    }
                    Either::Right((Ok(outcome), _)) => settle(&name, outcome),
                    Either::Right((Err(panic), _)) => {
                        Err(TaskExit::Error(panicked(&name, &*panic)))
                    }
                }
            })
        });
        sdk::CreateTaskResult::new(task)
    }

    /// Answers `tasks/get`: the task's status and, once it is over, its result or error.
    ///
    /// # Errors
    ///
    /// -32602 for a task this process does not know (never created here, or expired).
    pub fn get(&self, request: &sdk::GetTaskParams) -> Result<sdk::GetTaskResult, sdk::ErrorData> {
        let task = self.manager.get_task(&request.task_id)?;
        Ok(sdk::GetTaskResult::new(task))
    }

    /// Answers `tasks/update`: hands each answer to the request waiting under its key;
    /// answers to keys nothing waits for are ignored, as the extension says.
    ///
    /// # Errors
    ///
    /// -32602 for a task this process does not know.
    pub fn update(&self, request: sdk::UpdateTaskParams) -> Result<(), sdk::ErrorData> {
        self.manager
            .update_task(&request.task_id, request.input_responses)
    }

    /// Answers `tasks/cancel`: the running method is cancelled and the task settles
    /// `cancelled`; a task already over is left as it is (the same empty answer).
    ///
    /// # Errors
    ///
    /// -32602 for a task this process does not know.
    pub fn cancel(&self, request: &sdk::CancelTaskParams) -> Result<(), sdk::ErrorData> {
        self.manager.cancel_task(&request.task_id)
    }
}

/// Whether the client declared the tasks extension, for this request (`_meta`) or, on a
/// session, at `initialize`.
fn declares_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

/// -32021 naming the extension in `data.requiredCapabilities.extensions`.
fn missing_tasks_extension() -> sdk::ErrorData {
    sdk::ErrorData::missing_required_client_capability(
        sdk::ClientCapabilities::builder().enable_tasks().build(),
    )
}

async fn cancelled(task: &TaskContext) {
    task.cancelled().await;
}

/// The task's end, from what the method returned.
fn settle(
    tool: &str,
    outcome: Result<sdk::CallToolResponse, sdk::ErrorData>,
) -> Result<sdk::CallToolResult, TaskExit> {
    match outcome? {
        sdk::CallToolResponse::Complete(result) => Ok(result),
        // An `Ask` asks inside the task; only a method that builds an `InputRequiredResult`
        // itself gets here, and a task has no retry to bring its answers.
        sdk::CallToolResponse::InputRequired(_) => {
            Err(TaskExit::Error(sdk::ErrorData::internal_error(
                format!(
                    "the tool `{tool}` answered with an InputRequiredResult of its own inside a \
                     task, which has no retry to bring the answers; ask through an `Ask` \
                     parameter, which asks inside the task"
                ),
                None,
            )))
        }
        sdk::CallToolResponse::Task(_) => Err(TaskExit::Error(sdk::ErrorData::internal_error(
            format!("the tool `{tool}` answered with a task of its own inside its task"),
            None,
        ))),
        _ => Err(TaskExit::Error(sdk::ErrorData::internal_error(
            format!(
                "the tool `{tool}` answered with a response this version of elicit does not know"
            ),
            None,
        ))),
    }
}

/// rmcp's runtime leaves a task whose operation panicked `working` until its TTL: the panic
/// fails it at once instead, with what the panic said.
fn panicked(tool: &str, panic: &(dyn Any + Send)) -> sdk::ErrorData {
    let said = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str));
    let message = match said {
        Some(said) => format!("the tool `{tool}` panicked: {said}"),
        None => format!("the tool `{tool}` panicked"),
    };
    sdk::ErrorData::internal_error(message, None)
}

/// A [`Tasks`] declaration that does not fit the tool router.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskSetupError {
    /// A tool declared for tasks that the router does not have.
    UnknownTool {
        /// The declared name.
        tool: String,
    },
    /// A tool declared twice.
    DeclaredTwice {
        /// The tool's name.
        tool: String,
        /// The first declaration.
        first: TaskSupport,
        /// The second one.
        second: TaskSupport,
    },
}

impl fmt::Display for TaskSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskSetupError::UnknownTool { tool } => {
                write!(
                    f,
                    "`{tool}` is declared for tasks, but the tool router has no tool of that name"
                )
            }
            TaskSetupError::DeclaredTwice {
                tool,
                first,
                second,
            } => write!(
                f,
                "`{tool}` is declared for tasks twice: {} then {}",
                support_name(*first),
                support_name(*second)
            ),
        }
    }
}

impl std::error::Error for TaskSetupError {}

fn support_name(support: TaskSupport) -> &'static str {
    match support {
        TaskSupport::Optional => "optional",
        TaskSupport::Required => "required",
    }
}
