//! Inside a task (the extension `io.modelcontextprotocol/tasks`), on either revision: the call
//! that created the task is over, so each ask is an input request of the task (rmcp's
//! [`TaskContext::request_input`]), listed by `tasks/get` while it waits and answered by
//! `tasks/update` to the method's live future.

use std::any::Any;
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use futures_util::FutureExt;
use futures_util::future::{Either, select};
use serde_json::Value;

use crate::rmcp::ask::scope::run_with;
use crate::rmcp::ask::way::{Waiting, Way};
use crate::rmcp::ask::{Ask, AskParts};
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::{Answer, Request};
use crate::rmcp::running::{Gathered, Handler, Start};

#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url::{FirstLook, look_until, not_completed};
#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url_flow::UrlFlow;
#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlTracking;
#[cfg(feature = "url-mode")]
use crate::server::{AwaitedBy, Collected, CompletionError, UserId};
#[cfg(feature = "url-mode")]
use crate::wire::ElicitationId;

/// The asks of a method running as a task.
pub(crate) struct InTask {
    context: TaskContext,
    /// Withdraws an ask whose waiting was dropped (rmcp 3.11 leaves it pending otherwise).
    manager: TaskManager,
    /// The capabilities the client declared for the request that created the task.
    client: Option<sdk::ClientCapabilities>,
    /// What the call's rounds gathered before it continued as this task, by key.
    answers: BTreeMap<String, Answer>,
    steps: BTreeMap<String, Value>,
}

impl Way for InTask {
    fn describe(&self) -> &'static str {
        "a task's input requests"
    }

    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        self.client.clone()
    }

    /// The answer carried from the call's rounds, or the one `tasks/update` brings under
    /// `key`, waiting at most `timeout` if the ask gives one.
    fn answer<'a>(
        &'a self,
        key: &'a str,
        request: Request,
        timeout: Option<Duration>,
    ) -> Waiting<'a, Result<Answer, ElicitError>> {
        Box::pin(async move {
            if let Some(answer) = self.answers.get(key) {
                return request.carried_answer(key, answer);
            }
            request.check(self.client.as_ref())?;
            let input = request.input_request()?;
            let response = self.input(key, input, timeout).await?;
            let answer = request.read(&response).ok_or_else(|| {
                ElicitError::InvalidResult(crate::rmcp::InvalidResultError::new(format!(
                    "the answer under `{key}` is not a `{}` result: {response}",
                    request.method()
                )))
            })?;
            Ok(request.keep(answer, None))
        })
    }

    fn recorded_step(&self, key: &str) -> Option<Value> {
        self.steps.get(key).cloned()
    }

    #[cfg(feature = "url-mode")]
    fn awaited_by(&self) -> AwaitedBy {
        // The task collects the completion itself; its client, polling `tasks/get`, gets no
        // completion notification.
        AwaitedBy::Retry
    }

    /// Until it completes or expires ([`ElicitError::NotCompleted`]), the task `working`
    /// meanwhile, its status message naming the step; `tasks/cancel` ends the wait.
    #[cfg(feature = "url-mode")]
    fn completion<'a>(
        &'a self,
        tracker: &'a dyn UrlTracking,
        user: &'a UserId,
        flow: &'a UrlFlow,
    ) -> Waiting<'a, Result<ElicitationId, ElicitError>> {
        Box::pin(async move {
            self.context
                .set_status_message("waiting for the user's step at the URL they were sent to");
            let collected = look_until(tracker, self, user, &flow.id, None, FirstLook::Now).await;
            self.context.set_status_message("working");
            match collected {
                Ok(Collected::Completed(id)) => Ok(id),
                Ok(Collected::Waiting) => {
                    Err(ElicitError::NotCompleted(CompletionError::NotPending))
                }
                Err(error) => Err(not_completed(error, tracker, flow.expires_at)),
            }
        })
    }
}

impl InTask {
    /// The answer `tasks/update` brings under `key` for `request`, waiting at most `timeout`
    /// (`None`: as long as the task lives; its TTL bounds it).
    ///
    /// An ask whose waiting ends without an answer (its timeout, a `select!` that took another
    /// branch, a method that returned with one of two joined asks still waiting) is withdrawn:
    /// rmcp 3.11 would otherwise list it in `tasks/get`, and keep the task `input_required`,
    /// until the task ends.
    async fn input(
        &self,
        key: &str,
        request: sdk::InputRequest,
        timeout: Option<Duration>,
    ) -> Result<Value, ElicitError> {
        let mut pending = Pending {
            task: self,
            key,
            answered: false,
        };
        let waiting = self.context.request_input(key, request);
        let outcome = match timeout {
            None => waiting.await,
            Some(timeout) => match tokio::time::timeout(timeout, waiting).await {
                Ok(outcome) => outcome,
                Err(_) => return Err(ElicitError::TimedOut { waited: timeout }),
            },
        };
        pending.answered = true;
        match outcome {
            Ok(value) => Ok(value),
            Err(TaskExit::Cancelled) => Err(ElicitError::TaskCancelled),
            // The key used before in this task (the key allocator makes every key of a call
            // unique), or the task gone: the server's side, never the client's.
            Err(TaskExit::Error(error)) => Err(ElicitError::TaskGone {
                message: error.message.into_owned(),
            }),
        }
    }
}

/// An input request of the task not yet answered; withdrawn if dropped so.
struct Pending<'a> {
    task: &'a InTask,
    key: &'a str,
    answered: bool,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if self.answered {
            return;
        }
        // rmcp has no way to withdraw a request: an update for its key removes it (nothing
        // receives the value) and recomputes the task's status. A task already gone has
        // nothing to withdraw.
        let _ = self.task.manager.update_task(
            self.task.context.task_id(),
            [(self.key.to_owned(), Value::Null)],
        );
    }
}

/// What a task's method runs with, from the call that creates the task.
pub(crate) struct TaskCall {
    pub manager: TaskManager,
    pub options: TaskOptions,
    pub client: Option<sdk::ClientCapabilities>,
    /// The tool's name, for the messages of a task that fails.
    pub tool: String,
    /// What the call's rounds gathered, when it continues them.
    pub gathered: Gathered,
}

/// Creates the task, durably (a `tasks/get` for it resolves before this returns), and runs the
/// method in it, with `cancel` (the method's `RequestContext::ct`) cancelled by `tasks/cancel`.
/// A panic fails the task at once with what it said, rather than leaving it `working` until
/// its TTL.
pub(crate) fn spawn(
    start: Start<'_>,
    call: TaskCall,
    cancel: tokio_util::sync::CancellationToken,
    mut handler: Handler<'static, sdk::CallToolResponse>,
) -> sdk::Task {
    let TaskCall {
        manager,
        options,
        client,
        tool,
        gathered,
    } = call;
    let settings = start.settings.ask;
    let user = start.user;
    #[cfg(feature = "url-mode")]
    let url = start.url;
    let withdraws = manager.clone();
    manager.spawn(options, move |context| {
        let way = Arc::new(InTask {
            context: context.clone(),
            manager: withdraws,
            client,
            answers: gathered.answers,
            steps: gathered.steps,
        });
        let ask = Ask::new(AskParts {
            way,
            replayed: gathered.asked,
            settings,
            user,
            #[cfg(feature = "url-mode")]
            url,
        });
        Box::pin(async move {
            let running = run_with(ask, handler(None));
            let work = pin!(AssertUnwindSafe(running).catch_unwind());
            match select(pin!(context.cancelled()), work).await {
                Either::Left(((), _)) => {
                    cancel.cancel();
                    Err(TaskExit::Cancelled)
                }
                Either::Right((Ok(outcome), _)) => settle(&tool, outcome),
                Either::Right((Err(panic), _)) => Err(TaskExit::Error(panicked(&tool, &*panic))),
            }
        })
    })
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
