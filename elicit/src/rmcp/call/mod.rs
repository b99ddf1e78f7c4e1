//! One call of a handler served through an [`Elicitation`]: `tools/call`, `prompts/get` or
//! `resources/read`. Where a call's asks go is decided here once: a task's input requests (a
//! tool declared for tasks, for a client that declared the extension), else its revision's
//! way, which the revision's chooser picks ([`choose`]) and [`Calling`] runs.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use ::rmcp::ServerHandler;
use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};
use tokio_util::sync::CancellationToken;

use crate::rmcp::elicitation::Elicitation;
use crate::rmcp::revision::params::CallRequest;
use crate::rmcp::revision::{Arrival, OnRevision, Revision, Run, choose};
use crate::rmcp::running::{AskUse, Gathered, Handler, Ran, Start};
use crate::rmcp::task_inputs::{self, TaskCall};
use crate::rmcp::tasks::{
    Start as TaskStart, TaskSupport, declares_tasks, missing_tasks_extension,
};
use crate::server::UserId;

#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlCall;
#[cfg(feature = "url-mode")]
use crate::server::ConnectionId;

/// Who a call is, from the served handler that got it.
pub(crate) struct Caller<'a> {
    pub elicitation: &'a Elicitation,
    pub user: Option<UserId>,
    /// The connection a 2025-11-25 completion notification goes to.
    #[cfg(feature = "url-mode")]
    pub connection: ConnectionId,
}

impl Caller<'_> {
    fn start<'u>(&self, ask_use: Option<&'u AskUse>, after_asks: bool) -> Start<'u> {
        let mut settings = self.elicitation.settings;
        settings.ask.after_asks = after_asks;
        Start {
            settings,
            user: self.user.clone(),
            #[cfg(feature = "url-mode")]
            url: self.elicitation.url.as_ref().map(|url| UrlCall {
                tracker: url.tracker.clone(),
                connection: self.connection.clone(),
                #[cfg(feature = "page")]
                forms: self.elicitation.secure.clone(),
            }),
            ask_use,
        }
    }
}

/// `tools/call`: a task, for a tool declared for tasks and a client that declared the
/// extension; else the method on the revision's way, which may continue as a task.
pub(crate) async fn call_tool<H: ServerHandler>(
    caller: Caller<'_>,
    server: &Arc<H>,
    request: sdk::CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
    let runtime = caller.elicitation.task_runtime();
    let declared = runtime.and_then(|runtime| runtime.declared(&request.name));
    // Only a tool declared for tasks asks what the client declared.
    let client_declares_tasks = declared.is_some() && declares_tasks(&context);
    match declared {
        Some((TaskSupport::Required, _)) if !client_declares_tasks => {
            return Err(missing_tasks_extension());
        }
        Some((_, TaskStart::AtOnce)) if client_declares_tasks => {
            // Boxed, like the task the rounds continue as below: what a task's start holds
            // stays out of the future of every call that is not one.
            let begins = TaskBegins::AsCalled;
            let task = Box::pin(spawn(&caller, server, request, context, begins)).await?;
            return Ok(sdk::CreateTaskResult::new(task).into());
        }
        _ => {}
    }
    let after_asks = matches!(declared, Some((_, TaskStart::AfterAsks)));
    let may_become_task = after_asks && client_declares_tasks;
    let ask_use = caller.elicitation.ask_use(&request.name);
    let name = request.name.clone();
    let start = caller.start(Some(&ask_use), after_asks);
    // For a task the call continues as: the request without the state and responses it
    // consumed (nothing of them goes into the task's envelope).
    let escalated_request = may_become_task.then(|| {
        let mut plain = sdk::CallToolRequestParams::new(request.name.clone());
        plain.arguments = request.arguments.clone();
        plain.meta = request.meta.clone();
        plain
    });
    // A call that may continue as a task keeps its context for the task.
    let task_context = may_become_task.then(|| context.clone());
    let calling = Calling {
        caller: &caller,
        server,
        request,
        context,
        start,
        may_become_task,
    };
    let response = choose(calling.context.protocol_version(), calling).await;
    match response {
        Ok(Ran::Answered(response)) => Ok(response),
        Ok(Ran::ContinueAsTask(gathered)) => {
            let request =
                escalated_request.unwrap_or_else(|| sdk::CallToolRequestParams::new(name));
            let Some(context) = task_context else {
                return Err(only_tasks_continue());
            };
            let begins = TaskBegins::AfterRounds(gathered);
            let task = Box::pin(spawn(&caller, server, request, context, begins)).await?;
            Ok(sdk::CreateTaskResult::new(task).into())
        }
        Err(error) => {
            if is_unknown_tool(&error) {
                caller.elicitation.forget_ask_use(&name);
            }
            Err(error)
        }
    }
}

/// `prompts/get`, whose prompt may ask.
pub(crate) async fn get_prompt<H: ServerHandler>(
    caller: Caller<'_>,
    server: &Arc<H>,
    request: sdk::GetPromptRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<sdk::GetPromptResponse, sdk::ErrorData> {
    call_without_tasks(caller, server, request, context).await
}

/// `resources/read`, whose handler may ask.
pub(crate) async fn read_resource<H: ServerHandler>(
    caller: Caller<'_>,
    server: &Arc<H>,
    request: sdk::ReadResourceRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<sdk::ReadResourceResponse, sdk::ErrorData> {
    call_without_tasks(caller, server, request, context).await
}

/// A call that never runs as a task (a prompt, a resource): run on its revision's way.
async fn call_without_tasks<H: ServerHandler, P: CallRequest>(
    caller: Caller<'_>,
    server: &Arc<H>,
    request: P,
    context: RequestContext<RoleServer>,
) -> Result<P::Response, sdk::ErrorData> {
    let calling = Calling {
        caller: &caller,
        server,
        request,
        context,
        start: caller.start(None, false),
        may_become_task: false,
    };
    answered(choose(calling.context.protocol_version(), calling).await)
}

/// A call about to run on its revision, once the task declarations are settled.
struct Calling<'a, H, P> {
    caller: &'a Caller<'a>,
    server: &'a Arc<H>,
    request: P,
    context: RequestContext<RoleServer>,
    start: Start<'a>,
    may_become_task: bool,
}

/// The future of a call's run on its revision: boxed, as each revision's run is its own type.
type Running<'a, R> = Pin<Box<dyn Future<Output = Result<Ran<R>, sdk::ErrorData>> + Send + 'a>>;

impl<'a, H: ServerHandler, P: CallRequest> OnRevision for Calling<'a, H, P> {
    type Output = Running<'a, P::Response>;

    /// What revision `R` takes from the request, before the handler takes it; then the
    /// handler, run the way `R` runs it.
    fn on<R: Revision>(self) -> Self::Output {
        let Calling {
            caller,
            server,
            mut request,
            context,
            start,
            may_become_task,
        } = self;
        let taken = R::take(Arrival {
            request: &mut request,
            context: &context,
            user: caller.user.as_ref(),
            may_ask: start.may_ask(),
        });
        let handler = handler_of(server, request, context, R::RUNS_AGAIN_IN_CALL);
        let run = Run {
            start,
            seal: &caller.elicitation.seal,
            may_become_task,
            handler,
        };
        Box::pin(R::run(taken, run))
    }
}

/// The response of a call that cannot become a task.
fn answered<R>(ran: Result<Ran<R>, sdk::ErrorData>) -> Result<R, sdk::ErrorData> {
    match ran? {
        Ran::Answered(response) => Ok(response),
        Ran::ContinueAsTask(_) => Err(only_tasks_continue()),
    }
}

/// A call that is not a task-declared tool's reached `continue_as_task`.
fn only_tasks_continue() -> sdk::ErrorData {
    sdk::ErrorData::internal_error("only a tool declared for tasks continues as one", None)
}

/// The handler of a call: the server's own, with the request as it came, or (2025-11-25,
/// `retried`) again with a retry's answers.
fn handler_of<H: ServerHandler, P: CallRequest>(
    server: &Arc<H>,
    request: P,
    context: RequestContext<RoleServer>,
    retried: bool,
) -> Handler<'static, P::Response> {
    let server = server.clone();
    // The request and its context are kept only where the method may run again: a 2025-11-25
    // method that answers with input requests of its own. On 2026-07-28 they move into the
    // method, which runs once per round.
    let again = retried.then(|| (request.clone(), context.clone()));
    let mut first = Some((request, context));
    Box::new(move |retry| {
        let (request, context) = match (retry, first.take()) {
            (None, Some(first)) => first,
            (retry, first) => {
                let (mut request, context) = again
                    .clone()
                    .or(first)
                    .expect("a handler runs again only where its request was kept");
                if let Some(retry) = retry {
                    request.retried(retry);
                }
                (request, context)
            }
        };
        Box::pin(request.handle(server.clone(), context))
    })
}

/// Where the method of a tool's task begins.
enum TaskBegins {
    /// At once, with the request as it came.
    AsCalled,
    /// Where the call's rounds reached `continue_as_task`, with what they gathered; the
    /// request without the state and the answers they consumed.
    AfterRounds(Gathered),
}

/// Creates the task a tool runs as, and runs the method in it from where it `begins`; refused
/// when the store shared by the replicas did not take it.
async fn spawn<H: ServerHandler>(
    caller: &Caller<'_>,
    server: &Arc<H>,
    request: sdk::CallToolRequestParams,
    mut context: RequestContext<RoleServer>,
    begins: TaskBegins,
) -> Result<sdk::Task, sdk::ErrorData> {
    let runtime = caller
        .elicitation
        .task_runtime()
        .expect("only a declared tool runs as a task");
    // The method's own cancellation, now the task's: the call that created it is over.
    let cancel = CancellationToken::new();
    context.ct = cancel.clone();
    let client = context.client_capabilities();
    let mut request = request;
    let gathered = match begins {
        TaskBegins::AsCalled => Gathered::default(),
        TaskBegins::AfterRounds(gathered) => {
            request.input_responses = None;
            request.request_state = None;
            gathered
        }
    };
    let tool = request.name.to_string();
    // Where the method calls `continue_as_task` again in the task, it returns at once.
    let after_asks = matches!(runtime.declared(&tool), Some((_, TaskStart::AfterAsks)));
    let start = caller.start(None, after_asks);
    let handler = handler_of(server, request, context, false);
    let call = TaskCall {
        manager: runtime.manager().clone(),
        options: runtime.options(),
        client,
        tool,
        gathered,
    };
    let user = caller.user.clone();
    let created = task_inputs::spawn(start, call, cancel, handler);
    runtime.created(&created.task_id, user).await?;
    Ok(created)
}

/// rmcp's answer to a call of a tool the router does not have.
fn is_unknown_tool(error: &sdk::ErrorData) -> bool {
    error.code == sdk::ErrorCode::INVALID_PARAMS && error.message.contains("tool not found")
}

#[cfg(test)]
mod tests;
