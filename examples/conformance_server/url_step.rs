//! A URL-mode step, for replicas and load runs (`--redis`): `test_url_elicitation` sends the
//! user to this server's page `/complete/{id}`, and opening it (as the same user: the
//! development identity, a bearer NAME or the demo user) completes the step, whichever replica
//! the browser reaches. Not a scenario of the suite.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::routing::get;
use elicit_examples::http::development_user_or_demo;
use elicit_mcp::ElicitOutcome;
use elicit_mcp::rmcp::{Ask, Elicitation};
use elicit_mcp::server::{ElicitationStore, ElicitationTracker};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use rmcp::{tool, tool_router};

use super::ConformanceServer;

/// The tool's router, added to the server's.
pub(super) fn router() -> ToolRouter<ConformanceServer> {
    ConformanceServer::url_router()
}

#[tool_router(router = url_router, vis = "pub(super)")]
impl ConformanceServer {
    #[tool(
        description = "Sends the user to a page of this server (URL mode); done when they open it"
    )]
    async fn test_url_elicitation(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let Some(origin) = self.page.clone() else {
            return Ok(CallToolResult::error(vec![ContentBlock::text(
                "this server has no URL-mode page: start it with --redis",
            )]));
        };
        let outcome = ask
            .url("Open the page to confirm", |id| {
                format!("{origin}/complete/{id}")
            })
            .await;
        let said = match outcome {
            Ok(ElicitOutcome::Accepted(_)) => "completed".to_owned(),
            Ok(ElicitOutcome::Declined) => "declined".to_owned(),
            Ok(ElicitOutcome::Cancelled) => "cancelled".to_owned(),
            Err(error) => return error.into_call_result(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "URL step {said}"
        ))]))
    }
}

/// The page: `GET /complete/{id}` completes the step of the user the browser is.
pub(super) fn page<S: ElicitationStore + 'static>(
    tracker: Arc<ElicitationTracker<S>>,
    elicitation: Elicitation,
) -> axum::Router {
    axum::Router::new()
        .route("/complete/{id}", get(complete::<S>))
        .with_state((tracker, elicitation))
}

async fn complete<S: ElicitationStore + 'static>(
    State((tracker, elicitation)): State<(Arc<ElicitationTracker<S>>, Elicitation)>,
    Path(id): Path<String>,
    request: Parts,
) -> (StatusCode, String) {
    let Ok(user) = development_user_or_demo(&request) else {
        return (StatusCode::UNAUTHORIZED, "sign in first".to_owned());
    };
    match tracker.complete(&id, &user).await {
        Ok(completed) => {
            // The session told if it is here; a step awaited by a retry or a task collects it.
            let _ = elicitation.notify_completed(&completed).await;
            (
                StatusCode::OK,
                "done: go back to your MCP client".to_owned(),
            )
        }
        Err(error) => (StatusCode::NOT_FOUND, format!("not completed: {error}")),
    }
}
