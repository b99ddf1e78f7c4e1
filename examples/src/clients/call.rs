//! One tool call from start to end, whatever the server answers it with: a result; input-required
//! rounds (2026-07-28), each form answered by the person and the call retried with the answers
//! and the server's `requestState`; or a task (the extension `io.modelcontextprotocol/tasks`,
//! either revision), polled until it ends, its in-task forms answered through `tasks/update`.

use std::collections::BTreeSet;
use std::error::Error;
use std::fmt;
use std::future::Future;
use std::time::Duration;

use elicit_mcp::client::ServerIdentity;
use rmcp::ClientHandler;
use rmcp::model::{
    self as sdk, CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, InputRequest,
    InputRequests, InputResponses, TaskPayload,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::Value;

/// Rounds that bring the person something to answer, at most: the default of rmcp's and the
/// official SDKs' clients, which keeps a server that never stops asking from looping.
pub const MAX_ASKING_ROUNDS: usize = 10;

/// Rounds in a row that bring only the server's state, at most: a server waiting for a browser
/// step holds each such round for a while (elicit's servers a few tens of seconds), so this
/// gives a person minutes, not a misbehaving server for ever.
pub const MAX_WAITING_ROUNDS: usize = 30;

/// The pause before retrying a round that brought nothing to answer.
const WAITING_ROUND_PAUSE: Duration = Duration::from_millis(250);

/// How often to poll a task that suggests no interval of its own.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// A client whose person answers the server's forms: the same answer, whether the form came as
/// `elicitation/create`, in an input-required round, or inside a task.
pub trait Answerer: ClientHandler {
    /// The person's answer to `request`, a form or a URL asked by `server`; an error refuses the
    /// request (a form outside the spec's subset, a mode the client did not declare).
    fn answer(
        &self,
        server: ServerIdentity,
        request: sdk::ElicitRequestParams,
    ) -> impl Future<Output = Result<sdk::ElicitResult, ErrorData>> + Send;
}

/// What happened to a call that gave no result, said for the person at the client.
#[derive(Debug)]
pub enum CallError {
    /// The connection or the server failed the request.
    Service(ServiceError),
    /// The client refused one of the server's requests (its error says why).
    Refused(ErrorData),
    /// The server asked for something these clients do not offer (sampling, the roots).
    Unsupported(&'static str),
    /// The server kept asking past [`MAX_ASKING_ROUNDS`], or waiting past
    /// [`MAX_WAITING_ROUNDS`].
    TooManyRounds(usize),
    /// An input-required round with neither a request nor a state: nothing to retry with.
    EmptyRound,
    /// The task ended without a result: failed (the server's message) or cancelled.
    TaskEnded(String),
    /// A completed task's result is not a tool result.
    NotAToolResult(serde_json::Error),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Service(error) => error.fmt(f),
            CallError::Refused(error) => write!(
                f,
                "this client refused the server's request: {}",
                error.message
            ),
            CallError::Unsupported(what) => {
                write!(
                    f,
                    "the server asked for {what}, which this client does not offer"
                )
            }
            CallError::TooManyRounds(rounds) => write!(
                f,
                "the server was still asking after {rounds} rounds; the call was given up"
            ),
            CallError::EmptyRound => f.write_str(
                "the server asked for input but sent neither a request nor a state to retry with",
            ),
            CallError::TaskEnded(why) => f.write_str(why),
            CallError::NotAToolResult(error) => {
                write!(f, "the task's result is not a tool result: {error}")
            }
        }
    }
}

impl Error for CallError {}

impl From<ServiceError> for CallError {
    fn from(error: ServiceError) -> Self {
        CallError::Service(error)
    }
}

/// Calls the tool of `request` and sees it to its end: rounds answered and retried, a task
/// polled and its forms answered, each form by `client`'s [`Answerer`] under the name `server`.
/// `report` is told, in words for the person, what the call is waiting for.
pub async fn call_tool<H: Answerer>(
    client: &RunningService<RoleClient, H>,
    server: &ServerIdentity,
    mut request: CallToolRequestParams,
    report: impl Fn(&str),
) -> Result<CallToolResult, CallError> {
    let (mut asking, mut waiting) = (0, 0);
    loop {
        let round = match client.call_tool_once(request.clone()).await? {
            CallToolResponse::Complete(result) => return Ok(result),
            CallToolResponse::Task(created) => {
                return follow_task(client, server, created.task, report).await;
            }
            CallToolResponse::InputRequired(round) => round,
            _ => return Err(CallError::Service(ServiceError::UnexpectedResponse)),
        };
        let requests = round.input_requests.unwrap_or_default();
        if requests.is_empty() {
            if round.request_state.is_none() {
                return Err(CallError::EmptyRound);
            }
            waiting += 1;
            if waiting > MAX_WAITING_ROUNDS {
                return Err(CallError::TooManyRounds(asking + waiting));
            }
            if waiting == 1 {
                report("Waiting for the server to finish the step in the browser…");
            }
            tokio::time::sleep(WAITING_ROUND_PAUSE).await;
        } else {
            (asking, waiting) = (asking + 1, 0);
            if asking > MAX_ASKING_ROUNDS {
                return Err(CallError::TooManyRounds(asking));
            }
        }
        let responses = answer_all(client.service(), server, requests).await?;
        request.input_responses = (!responses.is_empty()).then_some(responses);
        request.request_state = round.request_state;
    }
}

/// Polls the task until it ends, answering each of its input requests once.
async fn follow_task<H: Answerer>(
    client: &RunningService<RoleClient, H>,
    server: &ServerIdentity,
    task: sdk::Task,
    report: impl Fn(&str),
) -> Result<CallToolResult, CallError> {
    let id = task.task_id;
    let interval = task
        .poll_interval_ms
        .map_or(DEFAULT_POLL_INTERVAL, Duration::from_millis);
    report(&format!("The server runs the call as task {id}…"));
    // Keys are unique over the task's life: a request still listed at the next poll (its answer
    // not yet taken in) is not asked again.
    let mut answered = BTreeSet::new();
    let mut last_message = task.status_message;
    loop {
        let got = client
            .get_task(sdk::GetTaskParams::new(id.clone()))
            .await?
            .task;
        if got.task.status_message != last_message {
            if let Some(message) = &got.task.status_message {
                report(&format!("Task {id}: {message}"));
            }
            last_message = got.task.status_message.clone();
        }
        match got.payload {
            TaskPayload::Completed { result } => {
                return serde_json::from_value(Value::Object(result))
                    .map_err(CallError::NotAToolResult);
            }
            TaskPayload::Failed { error } => {
                let message = error.get("message").and_then(Value::as_str).unwrap_or("");
                return Err(CallError::TaskEnded(format!("the task failed: {message}")));
            }
            TaskPayload::Cancelled => {
                return Err(CallError::TaskEnded("the task was cancelled".to_owned()));
            }
            TaskPayload::InputRequired { input_requests } => {
                let new: InputRequests = input_requests
                    .into_iter()
                    .filter(|(key, _)| !answered.contains(key))
                    .collect();
                if !new.is_empty() {
                    answered.extend(new.keys().cloned());
                    let responses = answer_all(client.service(), server, new).await?;
                    client
                        .update_task(sdk::UpdateTaskParams::new(id.clone(), responses))
                        .await?;
                    continue;
                }
            }
            _ => {}
        }
        tokio::time::sleep(interval).await;
    }
}

/// The person's answers to a round's requests, one at a time (a person answers one form after
/// another), keyed as the server keyed them.
async fn answer_all<H: Answerer>(
    client: &H,
    server: &ServerIdentity,
    requests: InputRequests,
) -> Result<InputResponses, CallError> {
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let InputRequest::Elicitation(elicitation) = request else {
            return Err(CallError::Unsupported(match request {
                InputRequest::CreateMessage(_) => "sampling",
                InputRequest::ListRoots(_) => "the roots",
                _ => "a kind of input it does not know",
            }));
        };
        let result = client
            .answer(server.clone(), elicitation.params)
            .await
            .map_err(CallError::Refused)?;
        let result = serde_json::to_value(result)
            .map_err(|e| CallError::Refused(ErrorData::internal_error(e.to_string(), None)))?;
        responses.insert(key, result);
    }
    Ok(responses)
}
