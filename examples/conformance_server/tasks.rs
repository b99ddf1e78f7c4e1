//! The fixtures of the suite's `tasks-*` scenarios (the extension `io.modelcontextprotocol/tasks`,
//! SEP-2663) that do not ask the user: a plain tool and three that run as tasks, on
//! [`Tasks`](elicit_mcp::rmcp::Tasks), for a client that declared the extension.
//!
//! | tool | task support | does |
//! |---|---|---|
//! | `greet` | none | `Hello, {name}!` at once |
//! | `slow_compute` | optional | sleeps `seconds`, then answers; a plain call without the extension |
//! | `failing_job` | required | a tool error after a second (`completed`, `isError`); -32021 without the extension |
//! | `protocol_error_job` | optional | an internal error (`failed`) |

use std::time::Duration;

use elicit_mcp::rmcp::Tasks;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

use super::ConformanceServer;

/// The longest `slow_compute` sleeps, an hour: a task outlives its call, not its server.
const MOST_SECONDS: u64 = 3600;

/// How long `failing_job` works before it fails, as the suite describes it ("after ~1s").
const FAILING_JOB_WORK: Duration = Duration::from_secs(1);

/// The task support of each fixture: `slow_compute` and `protocol_error_job` may run as plain
/// calls; `failing_job` is `required`, as `tasks-required-task-error` expects.
pub(super) fn task_tools(tasks: Tasks) -> Tasks {
    tasks
        .optional("slow_compute")
        .optional("protocol_error_job")
        .required("failing_job")
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
        if seconds > MOST_SECONDS {
            return Err(ErrorData::invalid_params(
                format!("`seconds`: {seconds} is more than {MOST_SECONDS}"),
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
}

/// The tools of the tasks scenarios, as a router to add to the server's.
pub(super) fn router() -> ToolRouter<ConformanceServer> {
    ConformanceServer::task_router()
}
