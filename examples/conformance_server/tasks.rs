//! The fixtures of the suite's `tasks-*` scenarios (the extension `io.modelcontextprotocol/tasks`,
//! SEP-2663): a plain tool and five that run as tasks, on [`Tasks`](elicit_mcp::rmcp::Tasks), for
//! a client that declared the extension. The two that ask do so through an [`Ask`], which asks
//! inside the task (`input_required` while it waits, answered by `tasks/update`), and in a plain
//! call as any `Ask` does.
//!
//! | tool | task support | does |
//! |---|---|---|
//! | `greet` | none | `Hello, {name}!` at once |
//! | `slow_compute` | optional | sleeps `seconds`, then answers; a plain call without the extension |
//! | `failing_job` | required | a tool error after a second (`completed`, `isError`); -32021 without the extension |
//! | `protocol_error_job` | optional | an internal error (`failed`) |
//! | `confirm_delete` | optional | asks [`DeleteConfirmation`] (`confirm`), then "deleted `filename`" or "kept `filename`" |
//! | `multi_input` | optional | asks [`Recipient`] (`name`) and [`Proceed`] (`proceed`) at once, both pending together |
//! | `test_tool_with_task` | required, after asks | asks [`UserName`](super::UserName) (`user_name`) in an input-required round, then continues as a task whose result carries the name |

use std::time::Duration;

use elicit_mcp::rmcp::{Ask, Tasks};
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use super::ConformanceServer;
use super::texts::{outcome_text, text_result};

/// The longest `slow_compute` sleeps, an hour: a task outlives its call, not its server.
const MAX_SECONDS: u64 = 3600;

/// How long `failing_job` works before it fails, as the suite describes it ("after ~1s").
const FAILING_JOB_WORK: Duration = Duration::from_secs(1);

/// How long `test_tool_with_task` works once it is a task.
const TASK_WORK: Duration = Duration::from_millis(200);

/// The task support of each fixture: `slow_compute` and `protocol_error_job` may run as plain
/// calls; `failing_job` is `required`, as `tasks-required-task-error` expects.
pub(super) fn task_tools(tasks: Tasks) -> Tasks {
    tasks
        .optional("slow_compute")
        .optional("protocol_error_job")
        .optional("confirm_delete")
        .optional("multi_input")
        .required("failing_job")
        .required_after_asks("test_tool_with_task")
}

/// `confirm_delete`'s one ask, under `confirm` (the suite answers `{confirm: true}`).
#[derive(Debug, Elicit)]
#[elicit(message = "Delete the file?", key = "confirm")]
pub(crate) struct DeleteConfirmation {
    /// Delete it
    confirm: bool,
}

/// `multi_input`'s first ask, under `name`. The suite sends `{name, confirm}` to each key; a
/// form reads only its own fields.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Who is it for?", key = "name")]
pub(crate) struct Recipient {
    name: String,
}

/// `multi_input`'s second ask, under `proceed`, pending beside [`Recipient`].
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Go ahead?", key = "proceed")]
pub(crate) struct Proceed {
    confirm: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct DeleteArguments {
    /// The file to delete (nothing is deleted: a fixture)
    filename: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct GreetArguments {
    /// Who to greet
    name: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct ComputeArguments {
    /// How long the computation takes, in whole seconds (0 to 3600)
    seconds: u64,
    /// A label the result repeats
    #[serde(default)]
    label: Option<String>,
}

#[tool_router(router = task_router, vis = "pub(super)")]
impl ConformanceServer {
    #[tool(description = "Greets at once; never a task")]
    async fn greet(
        &self,
        Parameters(GreetArguments { name }): Parameters<GreetArguments>,
    ) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text(format!("Hello, {name}!"))])
    }

    #[tool(
        description = "Sleeps `seconds` seconds, then answers; a task when the client can poll one"
    )]
    async fn slow_compute(
        &self,
        Parameters(ComputeArguments { seconds, label }): Parameters<ComputeArguments>,
    ) -> Result<CallToolResult, ErrorData> {
        if seconds > MAX_SECONDS {
            return Err(ErrorData::invalid_params(
                format!("`seconds`: {seconds} is more than {MAX_SECONDS}"),
                None,
            ));
        }
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        let label = label.map(|label| format!(" `{label}`")).unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "computed{label} in {seconds} s"
        ))]))
    }

    #[tool(description = "Works for a second, then reports a tool error; only as a task")]
    async fn failing_job(&self) -> CallToolResult {
        tokio::time::sleep(FAILING_JOB_WORK).await;
        CallToolResult::error(vec![ContentBlock::text(
            "the job failed: nothing to process",
        )])
    }

    #[tool(description = "Fails with a protocol error (an internal error), not a tool error")]
    async fn protocol_error_job(&self) -> Result<CallToolResult, ErrorData> {
        Err(ErrorData::internal_error(
            "protocol_error_job: the job's backend is unreachable",
            None,
        ))
    }

    #[tool(description = "Asks whether to delete `filename`, then says what it did; a task")]
    async fn confirm_delete(
        &self,
        Parameters(DeleteArguments { filename }): Parameters<DeleteArguments>,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let message = format!("Delete {filename}?");
        let done = match ask.form_with_message::<DeleteConfirmation>(message).await {
            Ok(ElicitOutcome::Accepted(DeleteConfirmation { confirm: true })) => "deleted",
            Ok(_) => "kept",
            Err(error) => return error.into_call_result(),
        };
        Ok(text_result(format!("{done} {filename}")))
    }

    #[tool(description = "Asks two forms at once (both pending together), then reports both")]
    async fn multi_input(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let (recipient, proceed) = match ask.forms::<Recipient, Proceed>().await {
            Ok(both) => both,
            Err(error) => return error.into_call_result(),
        };
        Ok(text_result(format!(
            "name {}; proceed {}",
            outcome_text(&recipient),
            outcome_text(&proceed)
        )))
    }

    #[tool(description = "Asks who it is for in a round, then works as a task")]
    async fn test_tool_with_task(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let who = ask.form::<super::UserName>().await?;
        ask.continue_as_task().await?;
        // The long work, inside the task.
        tokio::time::sleep(TASK_WORK).await;
        Ok(text_result(format!("done for {}", outcome_text(&who))))
    }
}

/// The tools of the tasks scenarios, as a router to add to the server's.
pub(super) fn router() -> ToolRouter<ConformanceServer> {
    ConformanceServer::task_router()
}
