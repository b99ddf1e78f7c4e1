//! Tools that run as tasks: the extension `io.modelcontextprotocol/tasks` (SEP-2663), on
//! rmcp's task runtime ([`TaskManager`]).
//!
//! [`Tasks`] names the tools that may run as a task; given to
//! [`Elicitation::with_tasks`](super::Elicitation::with_tasks), it makes each of them answer
//! `tools/call` with a `CreateTaskResult` for a client that declared the extension (for its
//! session, or for this one request in `_meta`), runs the method in the background, answers
//! `tasks/get`, `tasks/update` and `tasks/cancel` from the same runtime, and declares the
//! extension in the server's capabilities: the server writes none of this.

#[cfg(feature = "redis")]
mod shared;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
#[cfg(feature = "redis")]
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::task_manager::{TaskManager, TaskOptions};

#[cfg(feature = "redis")]
use self::shared::SharedTasks;
#[cfg(feature = "redis")]
use crate::server::RedisStore;
use crate::server::UserId;
use crate::server::debug_as_message;

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

/// The tools that run as tasks, and the task runtime they run on: given once to the
/// [`Elicitation`](super::Elicitation).
///
/// Declare each tool's [`TaskSupport`] ([`optional`](Self::optional),
/// [`required`](Self::required), [`optional_after_asks`](Self::optional_after_asks),
/// [`required_after_asks`](Self::required_after_asks)). For a client that declared the
/// extension, a task tool answers `tools/call` at once with a `CreateTaskResult` and its method
/// runs in the background: its result is the task's `result` (`completed`, also when it is a
/// tool error, `isError: true`), its `Err` the task's `error` (`failed`), and a panic fails the
/// task with an internal error rather than leaving it `working` until its TTL. `tasks/cancel`
/// cancels the method's `RequestContext::ct` and drops its future; the task settles
/// `cancelled`. Tools not named here are plain calls for every client; a client that did not
/// declare the extension never gets a task, and a `required` tool refuses it with -32021.
///
/// A method that takes an [`Ask`](super::Ask) asks inside its task, with the same typed
/// outcomes and errors as in a call: each ask is an input request of the task (`input_required`
/// exactly while one waits, listed by `tasks/get` under its input key) that `tasks/update`
/// answers. A task belongs to the user whose call created it: with an authenticated user
/// (`Elicitation::with_authentication`, feature `http`), another
/// user's `tasks/get`, `tasks/update` and `tasks/cancel` are answered as for a task that does
/// not exist (-32602), so they learn nothing of it. The task's TTL
/// ([`with_options`](Self::with_options)) counts from its creation and includes the user's time
/// to answer.
///
/// ```
/// use elicit_mcp::rmcp::{Elicitation, RequestStateSeal, Tasks};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let elicitation = Elicitation::new(RequestStateSeal::generated()?)
///     .with_tasks(Tasks::new().required("build_report").optional_after_asks("clean_up"));
/// # let _ = elicitation;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Tasks {
    manager: TaskManager,
    options: TaskOptions,
    declared: Vec<Declared>,
    /// The store and this replica's name, when the replicas share the tasks.
    #[cfg(feature = "redis")]
    shared: Option<(RedisStore, String)>,
    #[cfg(feature = "redis")]
    lease: Duration,
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
pub(crate) enum Start {
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
            #[cfg(feature = "redis")]
            shared: None,
            #[cfg(feature = "redis")]
            lease: Self::DEFAULT_LEASE,
        }
    }

    /// How long a replica's tasks outlive its last heartbeat unless
    /// [`with_lease`](Self::with_lease) says otherwise.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(15);

    /// Shares the tasks with the other replicas of the server through `store`, this process
    /// named `replica` among them (each its own name): the replica that runs a task writes its
    /// state to the store as it changes (at most 50 ms behind; at once for an update or a
    /// cancellation), so that any replica answers `tasks/get` for it, result included; a
    /// `tasks/update` or `tasks/cancel` that reaches another replica is sent to the running
    /// one, and answered once the state it led to is in the store (else with a retryable
    /// error), so a `tasks/get` after it sees it anywhere. A load balancer needs no routing by
    /// task id.
    ///
    /// Each replica beats in the store; a task whose replica missed its
    /// [lease](Self::with_lease) is failed by the next replica asked about it, its status
    /// message and error saying which replica stopped. A task created while the store is
    /// unreachable is refused with a retryable error, not run unshared.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn shared(mut self, store: RedisStore, replica: impl Into<String>) -> Self {
        self.shared = Some((store, replica.into()));
        self
    }

    /// How long a replica's tasks outlive its last heartbeat (it beats three times a lease):
    /// the longest a task of a replica that stopped is seen `working` by the others.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease.max(Duration::from_millis(300));
        self
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

    /// The runtime these declarations run on, with their tasks' owners: what the elicitation
    /// keeps, once each declaration is checked.
    ///
    /// # Errors
    ///
    /// A tool declared twice.
    pub(crate) fn into_runtime(self) -> Result<TaskRuntime, TaskSetupError> {
        let mut tools = BTreeMap::new();
        for declared in self.declared {
            let name = declared.tool.clone();
            if let Some((first, _)) = tools.insert(name.clone(), (declared.support, declared.start))
            {
                return Err(TaskSetupError::DeclaredTwice {
                    tool: name.into_owned(),
                    first,
                    second: declared.support,
                });
            }
        }
        Ok(TaskRuntime {
            manager: self.manager,
            options: self.options,
            tools,
            owners: Arc::default(),
            #[cfg(feature = "redis")]
            shared: self
                .shared
                .map(|(store, replica)| Arc::new(SharedTasks::new(store, replica, self.lease))),
        })
    }
}

/// The tasks of an elicitation: how each declared tool runs, the runtime, and whose each task
/// is. Shared by the elicitation's clones.
#[derive(Clone)]
pub(crate) struct TaskRuntime {
    manager: TaskManager,
    options: TaskOptions,
    tools: BTreeMap<Cow<'static, str>, (TaskSupport, Start)>,
    /// The user whose call created each task (`None`: the elicitation knows no users).
    owners: Arc<Mutex<HashMap<String, Option<UserId>>>>,
    /// The store the replicas share the tasks in, if they do.
    #[cfg(feature = "redis")]
    shared: Option<Arc<SharedTasks>>,
}

impl fmt::Debug for TaskRuntime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskRuntime")
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl TaskRuntime {
    /// How `tool` runs as a task, if declared.
    pub fn declared(&self, tool: &str) -> Option<(TaskSupport, Start)> {
        self.tools.get(tool).copied()
    }

    /// The declared tools.
    pub fn tools(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(|tool| tool.as_ref())
    }

    pub fn manager(&self) -> &TaskManager {
        &self.manager
    }

    pub fn options(&self) -> TaskOptions {
        self.options.clone()
    }

    /// Records that the new task `id` belongs to `user`, forgetting the tasks the runtime no
    /// longer knows (expired); with shared tasks, writes it to the store before the call that
    /// created it is answered. A task the store did not take is cancelled here, and the call
    /// refused with a retryable error.
    pub async fn created(&self, id: &str, user: Option<UserId>) -> Result<(), sdk::ErrorData> {
        {
            let mut owners = self.owners();
            owners.retain(|task, _| self.manager.get_task(task).is_ok());
            owners.insert(id.to_owned(), user.clone());
        }
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.shared
            && let Err(error) = shared.created(&self.manager, id, user.as_ref()).await
        {
            let _ = self.manager.cancel_task(id);
            return Err(error);
        }
        Ok(())
    }

    /// Whether this replica runs (or ran, and still holds) task `id`, and answers for it: not
    /// a task the other replicas ended while this one could not write (see `SharedTasks`).
    #[cfg(feature = "redis")]
    fn runs(&self, id: &str) -> bool {
        let ended_elsewhere = self
            .shared
            .as_ref()
            .is_some_and(|shared| shared.ended_elsewhere(id));
        !ended_elsewhere && self.manager.get_task(id).is_ok()
    }

    /// Refuses a `tasks/*` request of `user` for a task of someone else's, as rmcp refuses a
    /// task it does not know: the other user learns nothing, not even that it exists.
    fn check_owner(&self, id: &str, user: Option<&UserId>) -> Result<(), sdk::ErrorData> {
        match self.owners().get(id) {
            Some(Some(owner)) if Some(owner) != user => Err(sdk::ErrorData::invalid_params(
                format!("unknown task: {id}"),
                None,
            )),
            _ => Ok(()),
        }
    }

    fn owners(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<UserId>>> {
        self.owners.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Answers `tasks/get`: the task's status and, once it is over, its result or error.
    pub async fn get(
        &self,
        request: &sdk::GetTaskParams,
        user: Option<&UserId>,
    ) -> Result<sdk::GetTaskResult, sdk::ErrorData> {
        #[cfg(feature = "redis")]
        if let (Some(shared), false) = (&self.shared, self.runs(&request.task_id)) {
            return shared.get(&request.task_id, user).await;
        }
        self.check_owner(&request.task_id, user)?;
        let task = self.manager.get_task(&request.task_id)?;
        Ok(sdk::GetTaskResult::new(task))
    }

    /// Answers `tasks/update`: hands each answer to the request waiting under its key;
    /// answers to keys nothing waits for are ignored, as the extension says.
    pub async fn update(
        &self,
        request: sdk::UpdateTaskParams,
        user: Option<&UserId>,
    ) -> Result<(), sdk::ErrorData> {
        #[cfg(feature = "redis")]
        if let (Some(shared), false) = (&self.shared, self.runs(&request.task_id)) {
            return shared.update(request, user).await;
        }
        self.check_owner(&request.task_id, user)?;
        self.manager
            .update_task(&request.task_id, request.input_responses)?;
        self.applied(&request.task_id).await;
        Ok(())
    }

    /// Answers `tasks/cancel`: the running method is cancelled and the task settles
    /// `cancelled`; a task already over is left as it is (the same empty answer).
    pub async fn cancel(
        &self,
        request: &sdk::CancelTaskParams,
        user: Option<&UserId>,
    ) -> Result<(), sdk::ErrorData> {
        #[cfg(feature = "redis")]
        if let (Some(shared), false) = (&self.shared, self.runs(&request.task_id)) {
            return shared.cancel(&request.task_id, user).await;
        }
        self.check_owner(&request.task_id, user)?;
        self.manager.cancel_task(&request.task_id)?;
        self.applied(&request.task_id).await;
        Ok(())
    }

    /// After an update or a cancellation of a task this replica runs: with replicas, its new
    /// state written at once, so that a `tasks/get` on another replica after the
    /// acknowledgement sees it.
    async fn applied(&self, id: &str) {
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.shared {
            shared.write_now(&self.manager, id).await;
        }
        #[cfg(not(feature = "redis"))]
        let _ = id;
    }
}

/// Whether the client declared the tasks extension, for this request (`_meta`) or, on a
/// session, at `initialize`.
pub(crate) fn declares_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

/// -32021 naming the extension in `data.requiredCapabilities.extensions`.
pub(crate) fn missing_tasks_extension() -> sdk::ErrorData {
    sdk::ErrorData::missing_required_client_capability(
        sdk::ClientCapabilities::builder().enable_tasks().build(),
    )
}

/// A [`Tasks`] declaration that does not fit the server.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskSetupError {
    /// A tool declared for tasks that the server does not list.
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
                    "`{tool}` is declared for tasks, but the server has no tool of that name"
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

debug_as_message!(TaskSetupError);

fn support_name(support: TaskSupport) -> &'static str {
    match support {
        TaskSupport::Optional => "optional",
        TaskSupport::Required => "required",
    }
}
