//! One call of a handler served through an [`Elicitation`]: `tools/call`, `prompts/get` or
//! `resources/read`. The one place that decides, once per call, which way its asks go: a
//! task's input requests (a tool declared for tasks, for a client that declared the
//! extension), requests on a 2025-11-25 session, or 2026-07-28's input-required rounds.

use std::sync::Arc;

use ::rmcp::ServerHandler;
use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};
use tokio_util::sync::CancellationToken;

use crate::rmcp::elicitation::Elicitation;
use crate::rmcp::revision::session::server_requests_allowed;
use crate::rmcp::revision::v2025_11_25 as requests;
use crate::rmcp::revision::v2026_07_28::{self as rounds, Binding, Call, Ran};
use crate::rmcp::running::AskUse;
use crate::rmcp::running::{Gathered, Handler, Response, Retry, Start};
use crate::rmcp::task::{self, TaskCall};
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

/// The way a call's asks go, decided once.
#[derive(Clone, Copy)]
enum Way {
    /// 2025-11-25: requests on the session.
    Requests,
    /// 2026-07-28: input-required rounds.
    Rounds,
}

impl Way {
    fn of(context: &RequestContext<RoleServer>) -> Self {
        if server_requests_allowed(context) {
            Way::Requests
        } else {
            Way::Rounds
        }
    }

    /// What a request brings to the rounds: its state and the answers, on 2026-07-28 only
    /// (on 2025-11-25 they are the method's own, a bridged method's retry). The state is the
    /// rounds' own, sealed by this elicitation, so it moves out of the request; so do the
    /// answers that come with a state, as they answer the asks it carries. Without a state
    /// (the ephemeral flow) the answers may also answer the method's own input requests, read
    /// with rmcp's `InputResponses`: they stay in the request, and the rounds get a copy.
    fn answers<P: CallRequest>(
        self,
        request: &mut P,
    ) -> (Option<String>, Option<sdk::InputResponses>) {
        match self {
            Way::Requests => (None, None),
            Way::Rounds => request.take_answers(),
        }
    }

    /// What the way needs of the call's context once the method has taken it: the session
    /// itself on 2025-11-25, to send requests on; on 2026-07-28 only what the client declared,
    /// so that the context moves into the method uncloned.
    fn reach(self, context: &RequestContext<RoleServer>) -> Reach {
        match self {
            Way::Requests => Reach::Requests(context.clone()),
            Way::Rounds => Reach::Rounds(context.client_capabilities()),
        }
    }
}

/// What a call's way keeps of its context (see [`Way::reach`]).
enum Reach {
    /// 2025-11-25: the session, to send the method's requests on.
    Requests(RequestContext<RoleServer>),
    /// 2026-07-28: the capabilities the client declared, for the input requests of a round.
    Rounds(Option<sdk::ClientCapabilities>),
}

/// `tools/call`: a task, for a tool declared for tasks and a client that declared the
/// extension; else the method on the revision's way, which may continue as a task.
pub(crate) async fn call_tool<H: ServerHandler>(
    caller: Caller<'_>,
    server: &Arc<H>,
    mut request: sdk::CallToolRequestParams,
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
            let task = Box::pin(spawn(
                &caller,
                server,
                request,
                context,
                Gathered::default(),
                true,
            ))
            .await?;
            return Ok(sdk::CreateTaskResult::new(task).into());
        }
        _ => {}
    }
    let after_asks = matches!(declared, Some((_, TaskStart::AfterAsks)));
    let may_become_task = after_asks && client_declares_tasks;
    let ask_use = caller.elicitation.ask_use(&request.name);
    let name = request.name.clone();
    let start = caller.start(Some(&ask_use), after_asks);
    let way = Way::of(&context);
    let (state, responses) = way.answers(&mut request);
    let binding = match (way, start.may_ask() || state.is_some()) {
        (Way::Rounds, true) => Some(Binding::of(&request.called(), caller.user.as_ref())),
        _ => None,
    };
    // For a task the call continues as: the request without the state and responses it
    // consumed (nothing of them goes into the task's envelope).
    let escalated_request = may_become_task.then(|| {
        let mut plain = sdk::CallToolRequestParams::new(request.name.clone());
        plain.arguments = request.arguments.clone();
        plain.meta = request.meta.clone();
        plain
    });
    let reach = way.reach(&context);
    // A call that may continue as a task keeps its context for the task.
    let task_context = may_become_task.then(|| context.clone());
    let handler = handler_of(server, request, context, matches!(way, Way::Requests));
    let response = run(
        &caller,
        start,
        reach,
        binding,
        state,
        responses,
        may_become_task,
        handler,
    )
    .await;
    match response {
        Ok(Ran::Answered(response)) => Ok(response),
        Ok(Ran::ContinueAsTask(gathered)) => {
            let request =
                escalated_request.unwrap_or_else(|| sdk::CallToolRequestParams::new(name));
            let Some(context) = task_context else {
                return Err(only_tasks_continue());
            };
            let task = Box::pin(spawn(&caller, server, request, context, gathered, false)).await?;
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

/// A call that never runs as a task (a prompt, a resource): run on its revision's way, bound
/// on 2026-07-28 to what it calls.
async fn call_without_tasks<H: ServerHandler, P: CallRequest>(
    caller: Caller<'_>,
    server: &Arc<H>,
    mut request: P,
    context: RequestContext<RoleServer>,
) -> Result<P::Response, sdk::ErrorData> {
    let start = caller.start(None, false);
    let way = Way::of(&context);
    let binding = match way {
        Way::Rounds => Some(Binding::of(&request.called(), caller.user.as_ref())),
        Way::Requests => None,
    };
    let (state, responses) = way.answers(&mut request);
    let reach = way.reach(&context);
    let handler = handler_of(server, request, context, matches!(way, Way::Requests));
    answered(
        run(
            &caller, start, reach, binding, state, responses, false, handler,
        )
        .await,
    )
}

/// The params of a request whose handler may ask, and run again with a retry's answers.
trait CallRequest: Clone + Send + 'static {
    /// What the server answers it with.
    type Response: Response;

    /// What it calls, for the binding of its state.
    fn called(&self) -> Call<'_>;

    /// The state it came with, taken, and its answers: taken with a state, else copied (see
    /// [`Way::answers`]).
    fn take_answers(&mut self) -> (Option<String>, Option<sdk::InputResponses>);

    /// The same request, carrying a retry's answers.
    fn retried(&mut self, retry: Retry);

    /// The server's own handler of it.
    fn handle<H: ServerHandler>(
        self,
        server: Arc<H>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<Self::Response, sdk::ErrorData>> + Send;
}

/// `CallRequest` for the params of a method: the same members carry the state and the answers
/// in each, so only what it calls and which handler serves it differ.
macro_rules! call_request {
    ($($params:ty => $response:ty, $method:literal, |$request:ident| ($name:expr, $arguments:expr), $handle:ident;)*) => {$(
        impl CallRequest for $params {
            type Response = $response;

            fn called(&self) -> Call<'_> {
                let $request = self;
                Call {
                    method: $method,
                    name: $name,
                    arguments: $arguments,
                }
            }

            fn take_answers(&mut self) -> (Option<String>, Option<sdk::InputResponses>) {
                let state = self.request_state.take();
                let responses = match state {
                    Some(_) => self.input_responses.take(),
                    None => self.input_responses.clone(),
                };
                (state, responses)
            }

            fn retried(&mut self, retry: Retry) {
                self.input_responses = retry.responses;
                self.request_state = retry.request_state;
            }

            async fn handle<H: ServerHandler>(
                self,
                server: Arc<H>,
                context: RequestContext<RoleServer>,
            ) -> Result<Self::Response, sdk::ErrorData> {
                server.$handle(self, context).await
            }
        }
    )*};
}

call_request! {
    sdk::CallToolRequestParams => sdk::CallToolResponse, "tools/call",
        |request| (&request.name, request.arguments.as_ref()), call_tool;
    sdk::GetPromptRequestParams => sdk::GetPromptResponse, "prompts/get",
        |request| (&request.name, request.arguments.as_ref()), get_prompt;
    sdk::ReadResourceRequestParams => sdk::ReadResourceResponse, "resources/read",
        |request| (&request.uri, None), read_resource;
}

/// Runs the call's handler on the way its request takes.
#[allow(clippy::too_many_arguments)]
async fn run<R: Response>(
    caller: &Caller<'_>,
    start: Start<'_>,
    reach: Reach,
    binding: Option<Binding>,
    state: Option<String>,
    responses: Option<sdk::InputResponses>,
    may_become_task: bool,
    handler: Handler<'_, R>,
) -> Result<Ran<R>, sdk::ErrorData> {
    match reach {
        Reach::Requests(context) => requests::run(start, &context, handler)
            .await
            .map(Ran::Answered),
        Reach::Rounds(client) => {
            let seal = &caller.elicitation.seal;
            let resumed = rounds::resume(seal, binding, state.as_deref(), responses).await?;
            rounds::run(start, seal, client, may_become_task, resumed, handler).await
        }
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

/// Creates the task a tool runs as, and runs the method in it: at once (`as_called`: with the
/// request as it came), or where the call's rounds reached `continue_as_task`; refused when the
/// store shared by the replicas did not take it.
async fn spawn<H: ServerHandler>(
    caller: &Caller<'_>,
    server: &Arc<H>,
    request: sdk::CallToolRequestParams,
    mut context: RequestContext<RoleServer>,
    gathered: Gathered,
    as_called: bool,
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
    if !as_called {
        request.input_responses = None;
        request.request_state = None;
    }
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
    let created = task::spawn(start, call, cancel, handler);
    runtime.created(&created.task_id, user).await?;
    Ok(created)
}

/// rmcp's answer to a call of a tool the router does not have.
fn is_unknown_tool(error: &sdk::ErrorData) -> bool {
    error.code == sdk::ErrorCode::INVALID_PARAMS && error.message.contains("tool not found")
}

#[cfg(test)]
mod tests;
