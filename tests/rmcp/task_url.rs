//! `Ask::url` inside a task: the consent is an input request of the task (with its
//! `elicitationId`); after it the task is `working`, its status message saying it waits for the
//! user's step, until the tracker completes the elicitation (the handler goes on) or it
//! expires (`ElicitError::NotCompleted`). On the in-memory duplex, on both revisions.

use std::sync::Arc;
use std::time::Duration;

use crate::task_asks::pending;
use crate::tasks::{call, result_text, settled, task_id, tasks_extension};
use elicit_mcp::ElicitOutcome;
use elicit_mcp::rmcp::{Ask, Elicitation, Tasks};
use elicit_mcp::server::{ElicitationTracker, UrlPolicy, UserId};
use elicit_mcp::wire::ElicitationCapability;
use elicit_test_support::rmcp::{client_info, seal, serve};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    self as sdk, CallToolResult, ContentBlock, ErrorData, InputRequest, ProtocolVersion,
    TaskPayload, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};

fn alice() -> UserId {
    UserId::from_verified_subject("alice").unwrap()
}

#[derive(Clone)]
struct Connector {
    tool_router: ToolRouter<Connector>,
    /// The server's own handle to the tracker, as its connect page would hold it.
    tracker: Arc<ElicitationTracker>,
}

#[tool_router]
impl Connector {
    fn new(tracker: ElicitationTracker) -> Self {
        Connector {
            tool_router: Self::tool_router(),
            tracker: Arc::new(tracker),
        }
    }

    /// What serves it: `connect` only as a task, URL mode on its tracker, every request
    /// alice's (one connection, as over stdio).
    fn elicitation(&self) -> Elicitation {
        Elicitation::new(seal())
            .with_tasks(Tasks::new().required("connect"))
            .with_url_mode(self.tracker.clone())
            .with_local_user(alice())
    }

    #[tool(description = "Sends the user to connect their account")]
    async fn connect(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let outcome = ask
            .url("Connect your account.", |id| {
                format!("https://mcp.example.com/connect?elicitationId={id}")
            })
            .await;
        let reply = match outcome {
            Ok(ElicitOutcome::Accepted(done)) => format!("connected {}", done.id()),
            Ok(other) => format!("{other:?}"),
            Err(error) => return error.into_call_result(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Connector {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::ServerConfig::new(sdk::ServerCapabilities::builder().enable_tools().build())
    }
}

async fn connector(
    tracker: ElicitationTracker,
    protocol: ProtocolVersion,
) -> (Connector, RunningService<RoleClient, sdk::ClientConfig>) {
    let server = Connector::new(tracker);
    let declared = ElicitationCapability::form_and_url();
    let mut info = client_info("task-url", protocol.clone(), Some(&declared), false);
    info.capabilities.extensions = tasks_extension().extensions;
    let (_, client) = serve(&server.elicitation(), server.clone(), info, protocol).await;
    (server, client)
}

/// Starts `connect` and gives the task id and the elicitation id its consent request carries.
async fn asked_to_connect(
    client: &RunningService<RoleClient, sdk::ClientConfig>,
) -> (String, String) {
    let response = client.call_tool_once(call("connect", json!({}))).await;
    let id = task_id(response.unwrap());
    let asked = pending(client, &id, 1).await;
    let InputRequest::Elicitation(request) = &asked["url"] else {
        panic!("expected a URL-mode elicitation, got {asked:?}")
    };
    let request = serde_json::to_value(request).unwrap();
    assert_eq!(request["params"]["mode"], json!("url"), "{request}");
    let elicitation = request["params"]["elicitationId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        request["params"]["url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("elicitationId={elicitation}")),
        "{request}"
    );
    (id, elicitation)
}

async fn consent(client: &RunningService<RoleClient, sdk::ClientConfig>, task: &str, action: &str) {
    let Value::Object(answers) = json!({"url": {"action": action}}) else {
        unreachable!()
    };
    client
        .peer()
        .update_task(sdk::UpdateTaskParams::new(
            task,
            answers.into_iter().collect(),
        ))
        .await
        .unwrap();
}

#[tokio::test]
async fn after_consent_the_task_works_until_the_user_step_completes() {
    for protocol in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        let tracker = ElicitationTracker::new(UrlPolicy::production());
        let (server, client) = connector(tracker, protocol.clone()).await;
        let (id, elicitation) = asked_to_connect(&client).await;
        consent(&client, &id, "accept").await;
        // `working` while the user is in the browser, saying so.
        let mut waiting = None;
        for _ in 0..250 {
            let got = client
                .peer()
                .get_task(sdk::GetTaskParams::new(id.clone()))
                .await
                .unwrap();
            if got.task.task.status_message.as_deref()
                == Some("waiting for the user's step at the URL they were sent to")
            {
                waiting = Some(got.task);
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let waiting = waiting.expect("the task said it waits for the user's step");
        assert_eq!(waiting.status(), TaskStatus::Working);
        // The connect page completes it, as in a call.
        server
            .tracker
            .complete(&elicitation, &alice())
            .await
            .unwrap();
        let task = settled(&client, &id).await;
        assert_eq!(
            result_text(&task),
            format!("connected {elicitation}"),
            "on {protocol:?}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_declined_url_ends_at_once_and_an_expired_one_is_not_completed() {
    let tracker = ElicitationTracker::new(UrlPolicy::production());
    let (_, client) = connector(tracker, ProtocolVersion::V_2026_07_28).await;
    let (id, _) = asked_to_connect(&client).await;
    consent(&client, &id, "decline").await;
    assert_eq!(result_text(&settled(&client, &id).await), "Declined");
    client.cancel().await.unwrap();

    // The wait is bounded by the elicitation's expiry, not by anything else.
    let tracker =
        ElicitationTracker::new(UrlPolicy::production()).with_ttl(Duration::from_millis(400));
    let (_, client) = connector(tracker, ProtocolVersion::V_2026_07_28).await;
    let (id, _) = asked_to_connect(&client).await;
    consent(&client, &id, "accept").await;
    let task = settled(&client, &id).await;
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("expected a completed task, got {task:?}")
    };
    assert_eq!(result["isError"], json!(true), "{result:?}");
    let said = result["content"][0]["text"].as_str().unwrap();
    assert!(
        said.starts_with("the URL elicitation did not complete"),
        "{said}"
    );
    client.cancel().await.unwrap();
}
