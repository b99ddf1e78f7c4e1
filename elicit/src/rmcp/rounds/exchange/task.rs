//! Asks inside a task: each is an input request of the task (rmcp's
//! [`TaskContext::request_input`](::rmcp::task_manager::TaskContext::request_input)), listed by
//! `tasks/get` while it waits and answered by `tasks/update`.

use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;
use ::rmcp::task_manager::TaskExit;
use serde_json::Value;

use crate::rmcp::error::ElicitError;
use crate::rmcp::rounds::InTask;

/// The answer `tasks/update` brings under `key` for `request`, waiting at most `timeout`
/// (`None`: as long as the task lives; its TTL bounds it).
///
/// An ask whose waiting ends without an answer (its timeout, a `select!` that took another
/// branch, a method that returned with one of two joined asks still waiting) is withdrawn: rmcp
/// 3.11 would otherwise list it in `tasks/get`, and keep the task `input_required`, until the
/// task ends.
pub(super) async fn input(
    task: &InTask,
    key: &str,
    request: sdk::InputRequest,
    timeout: Option<Duration>,
) -> Result<Value, ElicitError> {
    let mut pending = Pending {
        task,
        key,
        answered: false,
    };
    let waiting = task.context.request_input(key, request);
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
        Err(TaskExit::Error(error)) => Err(ElicitError::Service(ServiceError::McpError(error))),
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
