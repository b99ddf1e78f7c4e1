//! The flows the replicas' runs send through HAProxy to replicas of `conformance_server`
//! sharing one Redis (`benches/replicas.rs`, and the count of Redis commands per flow in
//! `tests/rmcp/redis_commands.rs`), and the client that answers their asks as a person would.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion, TaskPayload,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::ExponentialBackoff;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData};
use serde_json::{Map, Value, json};

/// The flows of the replicas' runs, each a tool of `conformance_server`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Two forms asked one after the other (`test_input_required_result_multi_round`).
    TwoForms,
    /// A form sent without a required field, and asked again (`test_elicitation`).
    ReAsk,
    /// A URL-mode step, completed by opening its link (`test_url_elicitation`).
    Url,
    /// `confirm_delete` as a task: created, polled until it asks, answered, polled to its end.
    TaskThatAsks,
}

/// Every flow, in the order the load run cycles through them.
pub const FLOWS: [Flow; 4] = [Flow::TwoForms, Flow::ReAsk, Flow::Url, Flow::TaskThatAsks];

/// Fills every form: strings `load`, booleans `true`, except that every other form with a
/// `username` is sent without it (so the server asks again); consents to every URL and
/// opens it through the proxy.
pub struct LoadClient {
    proxy: String,
    /// How long the person takes before opening a URL-mode link.
    opens_after: Duration,
    leave_out_next: AtomicBool,
    http: reqwest::Client,
}

impl ClientHandler for LoadClient {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities =
            ClientCapabilities::try_from(&elicit_mcp::wire::ElicitationCapability::form_and_url())
                .expect("form and URL modes fit rmcp's capabilities");
        capabilities.extensions = ClientCapabilities::builder()
            .enable_tasks()
            .build()
            .extensions;
        ClientConfig::new(
            capabilities,
            Implementation::new("elicit-replicas-load", "0"),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let request = serde_json::to_value(&request)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        if let Some(link) = request["url"].as_str() {
            // The browser reaches the page through the load balancer.
            let path = link.splitn(4, '/').nth(3).unwrap_or_default();
            let page = format!("{}/{path}", self.proxy);
            let http = self.http.clone();
            let opens_after = self.opens_after;
            tokio::spawn(async move {
                tokio::time::sleep(opens_after).await;
                let _ = http.get(page).send().await;
            });
            return serde_json::from_value(json!({"action": "accept"}))
                .map_err(|e| ErrorData::internal_error(e.to_string(), None));
        }
        Ok(fill(&request, self.leave_out(&request)))
    }
}

impl LoadClient {
    /// Whether to leave this form's required `username` out: every other form that has one.
    fn leave_out(&self, request: &Value) -> bool {
        let has_username = request["requestedSchema"]["properties"]
            .as_object()
            .is_some_and(|properties| properties.contains_key("username"));
        has_username && self.leave_out_next.fetch_xor(true, Ordering::Relaxed)
    }
}

fn fill(request: &Value, leave_out_username: bool) -> sdk::ElicitResult {
    let content: Map<String, Value> = request["requestedSchema"]["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(name, _)| !(leave_out_username && *name == "username"))
        .map(|(name, schema)| {
            let value = match (schema["type"].as_str(), name.as_str()) {
                (Some("boolean"), _) => json!(true),
                (_, "email") => json!("load@example.com"),
                _ => json!("load"),
            };
            (name.clone(), value)
        })
        .collect();
    serde_json::from_value(json!({"action": "accept", "content": content}))
        .expect("an accept result")
}

/// A [`LoadClient`] connected to `url` on `revision` (2026-07-28 found by `server/discover`,
/// 2025-11-25 over `initialize`), opening URL-mode links through `proxy` 20 ms after consenting.
pub async fn connect(
    url: &str,
    proxy: &str,
    revision: &ProtocolVersion,
) -> Result<RunningService<RoleClient, LoadClient>, String> {
    connect_opening_after(url, proxy, revision, Duration::from_millis(20)).await
}

/// [`connect`], with a person who opens each URL-mode link `opens_after` consenting.
pub async fn connect_opening_after(
    url: &str,
    proxy: &str,
    revision: &ProtocolVersion,
    opens_after: Duration,
) -> Result<RunningService<RoleClient, LoadClient>, String> {
    let client = LoadClient {
        proxy: proxy.to_owned(),
        opens_after,
        leave_out_next: AtomicBool::new(true),
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .map_err(|e| e.to_string())?,
    };
    // rmcp's default retries a lost event stream for ever, at doubling delays: a call whose
    // session was on the killed replica would wait for ever. A client that gives up after
    // three tries gets an error, and its next call a new session.
    let mut backoff = ExponentialBackoff::default();
    backoff.max_times = Some(3);
    backoff.base_duration = Duration::from_millis(200);
    backoff.max_delay = Some(Duration::from_secs(1));
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    config.retry_config = Arc::new(backoff);
    let transport = StreamableHttpClientTransport::from_config(config);
    let lifecycle = if *revision == ProtocolVersion::V_2026_07_28 {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    client
        .serve_with_lifecycle(transport, lifecycle)
        .await
        .map_err(|e| e.to_string())
}

fn text(result: &sdk::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text())
        .map(|text| text.text.as_str())
        .collect()
}

/// Runs `flow` once (`n` names its task's file): `Ok(Ok(()))` when it answered what it should,
/// `Ok(Err(answer))` when it answered something else, `Err` with the clear error it got.
pub async fn run_flow(
    client: &RunningService<RoleClient, LoadClient>,
    flow: Flow,
    n: usize,
) -> Result<Result<(), String>, String> {
    let call = |tool: &str, arguments: Value| {
        let mut request = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(arguments) = arguments {
            request = request.with_arguments(arguments);
        }
        request
    };
    let answered = |result: sdk::CallToolResult, expected: &dyn Fn(&str) -> bool| {
        let said = text(&result);
        if result.is_error == Some(true) {
            Err(said)
        } else if expected(&said) {
            Ok(Ok(()))
        } else {
            Ok(Err(said))
        }
    };
    match flow {
        Flow::TwoForms => {
            let result = client
                .call_tool(call("test_input_required_result_multi_round", json!({})))
                .await
                .map_err(|e| e.to_string())?;
            answered(result, &|said| {
                said == r#"step1 accepted: {"name":"load"}; step2 accepted: {"color":"load"}"#
            })
        }
        Flow::ReAsk => {
            let result = client
                .call_tool(call("test_elicitation", json!({"message": "Who are you?"})))
                .await
                .map_err(|e| e.to_string())?;
            answered(result, &|said| {
                said == r#"User response: <action: accept, content: {"username":"load","email":"load@example.com"}>"#
            })
        }
        Flow::Url => {
            let result = client
                .call_tool(call("test_url_elicitation", json!({})))
                .await
                .map_err(|e| e.to_string())?;
            answered(result, &|said| said == "URL step completed")
        }
        Flow::TaskThatAsks => task_flow(client, n).await,
    }
}

/// [`Flow::TaskThatAsks`] once.
async fn task_flow(
    client: &RunningService<RoleClient, LoadClient>,
    n: usize,
) -> Result<Result<(), String>, String> {
    let filename = format!("f{n}.txt");
    let mut request = CallToolRequestParams::new("confirm_delete");
    if let Value::Object(arguments) = json!({"filename": filename}) {
        request = request.with_arguments(arguments);
    }
    let created = client
        .call_tool_once(request)
        .await
        .map_err(|e| e.to_string())?;
    let sdk::CallToolResponse::Task(created) = created else {
        return Ok(Err(format!("not a task: {created:?}")));
    };
    let id = created.task.task_id;
    let mut answered = false;
    loop {
        let got = client
            .peer()
            .get_task(sdk::GetTaskParams::new(id.clone()))
            .await
            .map_err(|e| e.to_string())?;
        match &got.task.payload {
            TaskPayload::InputRequired { input_requests } if !answered => {
                let Some(key) = input_requests.keys().next().cloned() else {
                    continue;
                };
                let yes = json!({"action": "accept", "content": {"confirm": true}});
                client
                    .peer()
                    .update_task(sdk::UpdateTaskParams::new(
                        id.clone(),
                        [(key, yes)].into_iter().collect(),
                    ))
                    .await
                    .map_err(|e| e.to_string())?;
                answered = true;
            }
            TaskPayload::Completed { result } => {
                let result: sdk::CallToolResult =
                    serde_json::from_value(Value::Object(result.clone()))
                        .map_err(|e| e.to_string())?;
                let said = text(&result);
                return Ok(if said == format!("deleted {filename}") {
                    Ok(())
                } else {
                    Err(said)
                });
            }
            TaskPayload::Failed { error } => {
                return Err(format!("task failed: {}", error["message"]));
            }
            TaskPayload::Cancelled => return Err("task cancelled".to_owned()),
            _ => {}
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
