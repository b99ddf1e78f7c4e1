//! Tools that run as tasks (`Tasks`, the extension `io.modelcontextprotocol/tasks`): on the
//! in-memory duplex, a client that declared the extension (for its session, or for one request
//! in `_meta`, over HTTP) gets a task it polls to its end; one that did not gets a plain call, or -32021
//! for a `required` tool and for `tasks/*`; a panic and a cancellation settle the task at once.
//! Over streamable HTTP, the conformance server's fixtures, with a client that negotiates by
//! `server/discover` and one that uses `initialize`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::conformance_server;
use elicit_mcp::rmcp::{Ask, Elicitation, SetupError, TaskSetupError, TaskSupport, Tasks};
use elicit_mcp::{Elicit, ElicitOutcome};
use elicit_test_support::rmcp::{
    client_info, completed_text, error_of, input_required, seal, serve,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    self as sdk, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode,
    ErrorData, ProtocolVersion, TaskPayload, TaskStatus,
};
use rmcp::service::{RequestContext, RoleClient, RoleServer, RunningService};
use rmcp::{ClientHandler, ServerHandler, schemars, tool, tool_handler, tool_router};
use serde_json::{Value, json};

#[derive(Debug, Elicit)]
#[elicit(message = "Who is it for?", key = "who")]
struct Who {
    name: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Sum {
    a: i64,
    b: i64,
}

/// A server whose tools run as tasks, each way `Tasks` offers.
#[derive(Clone)]
struct Jobs {
    tool_router: ToolRouter<Jobs>,
    /// Set when `wait`'s request context is cancelled.
    wait_cancelled: Arc<AtomicBool>,
}

#[tool_router]
impl Jobs {
    fn new() -> Self {
        Jobs {
            tool_router: Self::tool_router(),
            wait_cancelled: Arc::default(),
        }
    }

    /// What serves it: its tools declared for tasks, each way `Tasks` offers.
    fn elicitation() -> Elicitation {
        let tasks = Tasks::new()
            .optional("sum")
            .required("report")
            .optional("explode")
            .optional("wait")
            .optional("asks");
        Elicitation::new(seal()).with_tasks(tasks)
    }

    #[tool(description = "Adds; a task when the client can poll one")]
    async fn sum(&self, Parameters(Sum { a, b }): Parameters<Sum>) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text((a + b).to_string())])
    }

    #[tool(description = "Only as a task")]
    async fn report(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text("report ready")])
    }

    #[tool(description = "Panics")]
    async fn explode(&self) -> CallToolResult {
        panic!("boom")
    }

    #[tool(description = "Waits for a minute, noting its cancellation")]
    async fn wait(&self, context: RequestContext<RoleServer>) -> CallToolResult {
        let cancelled = self.wait_cancelled.clone();
        let token = context.ct.clone();
        tokio::spawn(async move {
            token.cancelled().await;
            cancelled.store(true, Ordering::SeqCst);
        });
        tokio::time::sleep(Duration::from_secs(60)).await;
        CallToolResult::success(vec![ContentBlock::text("waited")])
    }

    #[tool(description = "Asks who it is for")]
    async fn asks(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let who = match ask.form::<Who>().await? {
            ElicitOutcome::Accepted(Who { name }) => name,
            _ => "nobody".to_owned(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "for {who}"
        ))]))
    }

    #[tool(description = "Never a task")]
    async fn plain(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text("plain")])
    }
}

// No `tasks/*` method and no tasks capability here: the `Elicitation` serving it adds both.
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Jobs {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::ServerConfig::new(sdk::ServerCapabilities::builder().enable_tools().build())
    }
}

pub(crate) fn tasks_extension() -> sdk::ClientCapabilities {
    sdk::ClientCapabilities::builder().enable_tasks().build()
}

/// A client on `protocol` that declared the tasks extension when `declared`, and elicitation.
pub(crate) fn client(protocol: ProtocolVersion, declared: bool) -> sdk::ClientConfig {
    let form = elicit_mcp::wire::ElicitationCapability::form();
    let mut info = client_info("tasks-test", protocol, Some(&form), false);
    if declared {
        info.capabilities.extensions = tasks_extension().extensions;
    }
    info
}

async fn jobs(
    protocol: ProtocolVersion,
    declared: bool,
) -> (Jobs, RunningService<RoleClient, sdk::ClientConfig>) {
    let server = Jobs::new();
    let info = client(protocol.clone(), declared);
    let (_, client) = serve(&Jobs::elicitation(), server.clone(), info, protocol).await;
    (server, client)
}

pub(crate) fn call(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments)
}

pub(crate) fn task_id(response: CallToolResponse) -> String {
    match response {
        CallToolResponse::Task(created) => {
            assert_eq!(created.task.status, TaskStatus::Working);
            created.task.task_id
        }
        other => panic!("expected a task, got {other:?}"),
    }
}

/// Polls `tasks/get` until the task is over (at most 10 s), and gives its last state.
pub(crate) async fn settled<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    task: &str,
) -> sdk::DetailedTask {
    for _ in 0..500 {
        let got = client
            .peer()
            .get_task(sdk::GetTaskParams::new(task.to_owned()))
            .await
            .expect("tasks/get answers");
        if got.task.status().is_terminal() {
            return got.task;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {task} did not end within 10 s")
}

pub(crate) fn result_text(task: &sdk::DetailedTask) -> String {
    match &task.payload {
        TaskPayload::Completed { result } => {
            let result: CallToolResult = serde_json::from_value(Value::Object(result.clone()))
                .expect("the result is a tool result");
            result.content[0].as_text().unwrap().text.clone()
        }
        other => panic!("expected a completed task, got {other:?}"),
    }
}

pub(crate) fn error_message(task: &sdk::DetailedTask) -> String {
    match &task.payload {
        TaskPayload::Failed { error } => {
            assert_eq!(error["code"], json!(ErrorCode::INTERNAL_ERROR.0));
            error["message"].as_str().unwrap().to_owned()
        }
        other => panic!("expected a failed task, got {other:?}"),
    }
}

fn assert_missing_tasks_extension(error: &ErrorData) {
    assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        error.data,
        Some(
            json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
        )
    );
}

#[tokio::test]
async fn a_client_with_the_extension_gets_a_task_it_polls_to_the_result() {
    for protocol in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        let (_, client) = jobs(protocol.clone(), true).await;
        let response = client
            .call_tool_once(call("sum", json!({"a": 40, "b": 2})))
            .await
            .unwrap();
        let task = settled(&client, &task_id(response)).await;
        assert_eq!(result_text(&task), "42", "on {protocol:?}");

        let required = client.call_tool_once(call("report", json!({}))).await;
        let task = settled(&client, &task_id(required.unwrap())).await;
        assert_eq!(result_text(&task), "report ready");

        // A tool not declared for tasks stays a plain call.
        let plain = client.call_tool_once(call("plain", json!({}))).await;
        assert_eq!(completed_text(plain.unwrap()), "plain");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn without_the_extension_optional_tools_are_plain_calls_and_required_ones_refused() {
    for protocol in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        let (_, client) = jobs(protocol.clone(), false).await;
        let response = client
            .call_tool_once(call("sum", json!({"a": 2, "b": 3})))
            .await;
        assert_eq!(completed_text(response.unwrap()), "5", "on {protocol:?}");

        let refused = client.call_tool_once(call("report", json!({}))).await;
        assert_missing_tasks_extension(&error_of(refused));

        // rmcp refuses the task methods themselves, before the server.
        let get = client
            .peer()
            .get_task(sdk::GetTaskParams::new("any".to_owned()))
            .await;
        assert_missing_tasks_extension(&error_of(get));
        let cancel = client
            .peer()
            .cancel_task(sdk::CancelTaskParams::new("any".to_owned()))
            .await;
        assert_missing_tasks_extension(&error_of(cancel));
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_panicking_method_fails_its_task_at_once_with_what_it_said() {
    let (_, client) = jobs(ProtocolVersion::V_2026_07_28, true).await;
    let response = client
        .call_tool_once(call("explode", json!({})))
        .await
        .unwrap();
    // rmcp alone would leave it `working` for its TTL, five minutes.
    let task = settled(&client, &task_id(response)).await;
    assert_eq!(error_message(&task), "the tool `explode` panicked: boom");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelling_a_task_cancels_its_method_and_settles_it_cancelled() {
    let (server, client) = jobs(ProtocolVersion::V_2026_07_28, true).await;
    let response = client
        .call_tool_once(call("wait", json!({})))
        .await
        .unwrap();
    let id = task_id(response);
    // The call that created the task is over; its method still runs, not cancelled.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!server.wait_cancelled.load(Ordering::SeqCst));

    client
        .peer()
        .cancel_task(sdk::CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    let task = settled(&client, &id).await;
    assert_eq!(task.status(), TaskStatus::Cancelled);
    for _ in 0..100 {
        if server.wait_cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(server.wait_cancelled.load(Ordering::SeqCst));
    // Cancelling a task that is over is the same empty answer; an unknown one is -32602.
    client
        .peer()
        .cancel_task(sdk::CancelTaskParams::new(id))
        .await
        .unwrap();
    let unknown = client
        .peer()
        .get_task(sdk::GetTaskParams::new("no-such-task".to_owned()))
        .await;
    assert_eq!(error_of(unknown).code, ErrorCode::INVALID_PARAMS);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_ask_is_a_round_in_a_plain_call_and_an_input_request_inside_a_task() {
    // Without the extension the task tool is a plain call, and its ask goes out as usual.
    let (_, client) = jobs(ProtocolVersion::V_2026_07_28, false).await;
    let round = input_required(
        client
            .call_tool_once(call("asks", json!({})))
            .await
            .unwrap(),
    );
    let requests = round.input_requests.expect("the round asks");
    assert!(requests.contains_key("who"));
    client.cancel().await.unwrap();

    // Inside a task the same ask is an input request of the task, answered by `tasks/update`
    // (more in `task_asks`).
    let (_, client) = jobs(ProtocolVersion::V_2026_07_28, true).await;
    let response = client
        .call_tool_once(call("asks", json!({})))
        .await
        .unwrap();
    let id = task_id(response);
    let asked = crate::task_asks::pending(&client, &id, 1).await;
    assert!(asked.contains_key("who"), "{asked:?}");
    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    let answers = [("who".to_owned(), answer)].into_iter().collect();
    client
        .peer()
        .update_task(sdk::UpdateTaskParams::new(id.clone(), answers))
        .await
        .unwrap();
    assert_eq!(result_text(&settled(&client, &id).await), "for Ada");
    client.cancel().await.unwrap();
}

/// How a server with `tasks` fails to start, if it does.
fn start_with(tasks: Tasks) -> Result<(), SetupError> {
    let (server_io, _client_io) = tokio::io::duplex(64);
    let elicitation = Elicitation::new(seal()).with_tasks(tasks);
    elicitation
        .serve_directly(
            Jobs::new(),
            server_io,
            Some(client(ProtocolVersion::V_2026_07_28, true)),
        )
        .map(drop)
}

#[tokio::test]
async fn a_declaration_that_does_not_fit_the_server_stops_it_at_start_naming_the_tool() {
    let unknown = start_with(Tasks::new().optional("summ")).unwrap_err();
    assert_eq!(
        unknown,
        SetupError::Tasks(TaskSetupError::UnknownTool {
            tool: "summ".to_owned()
        })
    );
    assert_eq!(
        unknown.to_string(),
        "cannot serve the tasks: `summ` is declared for tasks, but the server has no tool of that name"
    );
    let twice = start_with(Tasks::new().optional("sum").required("sum")).unwrap_err();
    assert_eq!(
        twice.to_string(),
        "cannot serve the tasks: `sum` is declared for tasks twice: optional then required"
    );
    assert_eq!(start_with(Tasks::new().optional("sum")), Ok(()));
    let tasks = Tasks::new().required("report");
    assert_eq!(tasks.support("report"), Some(TaskSupport::Required));
    assert_eq!(tasks.support("sum"), None);
}

// --- Over streamable HTTP: the conformance server's task fixtures ------------------------------

/// The conformance server over streamable HTTP on a free loopback port, as its `main` serves
/// it; it stops when the sender is sent or dropped.
pub(crate) async fn conformance_over_http() -> (String, tokio::sync::oneshot::Sender<()>) {
    use rmcp::transport::StreamableHttpServerConfig;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

    let elicitation = conformance_server::ConformanceServer::elicitation(seal(), Tasks::new());
    let config = StreamableHttpServerConfig::default();
    let cancel = config.cancellation_token.clone();
    let service = elicit_mcp::http::Guard::new()
        .serve(
            &elicitation,
            conformance_server::ConformanceServer::new,
            Arc::new(LocalSessionManager::default()),
            config,
        )
        .expect("every task tool of the fixtures is the server's");
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        // The guard counts a request without a session against the peer's address.
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stopped.await;
            cancel.cancel();
        })
        .await
    });
    (url, stop)
}

/// A client over streamable HTTP that negotiates by `lifecycle`, declaring the tasks extension when `declared`.
pub(crate) async fn http_client(
    url: &str,
    declared: bool,
    lifecycle: rmcp::service::ClientLifecycleMode,
) -> RunningService<RoleClient, sdk::ClientConfig> {
    use rmcp::service::ClientServiceExt;
    let protocol = match lifecycle {
        rmcp::service::ClientLifecycleMode::Initialize => ProtocolVersion::V_2025_11_25,
        _ => ProtocolVersion::V_2026_07_28,
    };
    let info = client(protocol, declared);
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url);
    tokio::time::timeout(
        Duration::from_secs(30),
        info.serve_with_lifecycle(transport, lifecycle),
    )
    .await
    .expect("connected in time")
    .expect("the client negotiates")
}

pub(crate) fn negotiating() -> rmcp::service::ClientLifecycleMode {
    rmcp::service::ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    }
}

#[tokio::test]
async fn over_streamable_http_the_fixtures_run_as_tasks_for_a_client_with_the_extension() {
    let (url, stop) = conformance_over_http().await;
    let client = http_client(&url, true, negotiating()).await;
    let negotiated = client.peer_info().map(|info| info.protocol_version.clone());
    assert_eq!(negotiated, Some(ProtocolVersion::V_2026_07_28));

    let created = client
        .call_tool_once(call("slow_compute", json!({"seconds": 0, "label": "http"})))
        .await
        .unwrap();
    let task = settled(&client, &task_id(created)).await;
    assert_eq!(result_text(&task), "computed `http` in 0 s");

    let failing = client.call_tool_once(call("failing_job", json!({}))).await;
    let task = settled(&client, &task_id(failing.unwrap())).await;
    match &task.payload {
        TaskPayload::Completed { result } => assert_eq!(result["isError"], json!(true)),
        other => panic!("a tool error completes the task, got {other:?}"),
    }
    let protocol_error = client
        .call_tool_once(call("protocol_error_job", json!({})))
        .await;
    let task = settled(&client, &task_id(protocol_error.unwrap())).await;
    assert_eq!(
        error_message(&task),
        "protocol_error_job: the job's backend is unreachable"
    );

    let greeting = client
        .call_tool_once(call("greet", json!({"name": "World"})))
        .await;
    assert_eq!(completed_text(greeting.unwrap()), "Hello, World!");
    client.cancel().await.unwrap();
    let _ = stop.send(());
}

#[tokio::test]
async fn over_streamable_http_a_client_without_the_extension_gets_plain_calls_or_32021() {
    let (url, stop) = conformance_over_http().await;
    for lifecycle in [
        negotiating(),
        rmcp::service::ClientLifecycleMode::Initialize,
    ] {
        let client = http_client(&url, false, lifecycle).await;
        let computed = client
            .call_tool_once(call("slow_compute", json!({"seconds": 0})))
            .await;
        assert_eq!(completed_text(computed.unwrap()), "computed in 0 s");
        let refused = client.call_tool_once(call("failing_job", json!({}))).await;
        assert_missing_tasks_extension(&error_of(refused));
        let get = client
            .peer()
            .get_task(sdk::GetTaskParams::new("any".to_owned()))
            .await;
        assert_missing_tasks_extension(&error_of(get));
        client.cancel().await.unwrap();
    }
    let _ = stop.send(());
}

/// One 2026-07-28 `tools/call` as a raw HTTP request, its `_meta` declaring `capabilities`
/// (the suite's stateless wire): the JSON-RPC response.
async fn stateless_call(url: &str, tool: &str, capabilities: Value) -> Value {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": tool, "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0.0.0"},
            "io.modelcontextprotocol/clientCapabilities": capabilities
        }
    }})
    .to_string();
    let address = url.trim_start_matches("http://").trim_end_matches("/mcp");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: tools/call\r\nmcp-name: {tool}\r\nconnection: close\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(10),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("answered in time")
    .unwrap();
    // JSON or one SSE event: the line that is the JSON-RPC response.
    response
        .lines()
        .map(|line| line.trim_start_matches("data:").trim())
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|message| message.get("id") == Some(&json!(1)))
        .unwrap_or_else(|| panic!("no JSON-RPC response in {response:?}"))
}

#[tokio::test]
async fn over_streamable_http_the_extension_declared_in_one_requests_meta_makes_a_task() {
    let (url, stop) = conformance_over_http().await;
    let declared = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let created = stateless_call(&url, "failing_job", declared).await;
    assert_eq!(created["result"]["resultType"], json!("task"), "{created}");
    assert!(created["result"]["taskId"].is_string(), "{created}");
    let refused = stateless_call(&url, "failing_job", json!({})).await;
    assert_eq!(refused["error"]["code"], json!(-32021), "{refused}");
    assert_eq!(
        refused["error"]["data"],
        json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
    );
    let _ = stop.send(());
}

#[tokio::test]
async fn over_streamable_http_a_task_is_known_to_its_replica_only() {
    // Two replicas of one server, each with its task runtime in its own memory, as two
    // processes are: a proxy must route `tasks/*` by `Mcp-Name` (the task id) to the first.
    let (first, stop_first) = conformance_over_http().await;
    let (second, stop_second) = conformance_over_http().await;
    let on_first = http_client(&first, true, negotiating()).await;
    let on_second = http_client(&second, true, negotiating()).await;
    let created = on_first
        .call_tool_once(call("slow_compute", json!({"seconds": 0})))
        .await
        .unwrap();
    let id = task_id(created);
    let elsewhere = on_second
        .peer()
        .get_task(sdk::GetTaskParams::new(id.clone()))
        .await;
    let error = error_of(elsewhere);
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, format!("unknown task: {id}"));
    assert_eq!(
        result_text(&settled(&on_first, &id).await),
        "computed in 0 s"
    );
    on_first.cancel().await.unwrap();
    on_second.cancel().await.unwrap();
    let _ = (stop_first.send(()), stop_second.send(()));
}

// --- Tasks only where they are understood -------------------------------------------------------

/// A validator of `#/$defs/{def}` of the official schema of `protocol`, with formats checked.
fn result_schema(protocol: &ProtocolVersion, def: &str) -> jsonschema::Validator {
    let text = if *protocol == ProtocolVersion::V_2025_11_25 {
        include_str!("../data/spec/schema-2025-11-25.json")
    } else {
        include_str!("../data/spec/schema-2026-07-28.json")
    };
    let schema: Value = serde_json::from_str(text).expect("the spec's schema is JSON");
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/$defs/{def}"),
        "$defs": schema["$defs"],
    });
    jsonschema::draft202012::options()
        .build(&root)
        .unwrap_or_else(|e| panic!("no validator for {def}: {e}"))
}

#[tokio::test]
async fn a_client_without_the_extension_never_gets_a_task_and_every_result_fits_its_revision() {
    for protocol in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let (_, client) = jobs(protocol.clone(), false).await;
        // Every way a tool is declared: optional, optional and asking, not declared; then
        // required, which such a client cannot call.
        for (tool, arguments) in [
            ("sum", json!({"a": 2, "b": 3})),
            ("asks", json!({})),
            ("plain", json!({})),
        ] {
            let response = client.call_tool_once(call(tool, arguments)).await.unwrap();
            let wire = match &response {
                CallToolResponse::Complete(result) => serde_json::to_value(result).unwrap(),
                CallToolResponse::InputRequired(asking) => serde_json::to_value(asking).unwrap(),
                other => panic!("{protocol} {tool}: {other:?}"),
            };
            let result_type = wire.get("resultType").and_then(Value::as_str);
            let def = match result_type {
                // 2025-11-25 has no `resultType`; 2026-07-28 says which result it is.
                None | Some("complete") => "CallToolResult",
                Some("input_required") if protocol == ProtocolVersion::V_2026_07_28 => {
                    "InputRequiredResult"
                }
                Some(other) => panic!("{protocol} {tool}: a `{other}` result: {wire}"),
            };
            let errors: Vec<String> = result_schema(&protocol, def)
                .iter_errors(&wire)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{protocol} {tool}: not a {def}: {errors:?}\n{wire}"
            );
            assert!(
                wire.get("taskId").is_none() && wire.get("task").is_none(),
                "{wire}"
            );
        }
        let refused = error_of(client.call_tool_once(call("report", json!({}))).await);
        assert_eq!(refused.code, ErrorCode(-32021), "{protocol}: {refused:?}");
        client.cancel().await.unwrap();
    }
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Who);
}
