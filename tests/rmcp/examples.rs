//! Runs the rmcp examples in-process, over an in-memory duplex: the conformance server's tools
//! against a client that answers as the conformance suite does (and against the example client
//! that accepts defaults), and the stdio hotel's booking and cancellation; every example
//! server's tools listed on both revisions; and the hotel over streamable HTTP on loopback,
//! behind elicit's guard, called by a client that negotiates as real clients do. On Linux,
//! `conformance_server` as a process: hostile bodies at its limit, one after the other and as
//! many at once as a client may send, cost it little memory, one over it is answered 413, and
//! the short load run of `support/load/` completes every flow on both revisions; and
//! `http_server` as a process prints its URL and books under its own name.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::{conformance_client, conformance_server, stdio_server, url_mode_server};
use elicit_mcp::rmcp::{Elicitation, Tasks};
use elicit_mcp::server::UserId;
use elicit_mcp::wire::ElicitationCapability;
#[cfg(target_os = "linux")]
use elicit_test_support::load;
use elicit_test_support::rmcp::{seal, serve};
use rmcp::model::{
    self as sdk, CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    Implementation, ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ErrorData, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// The conformance server as its `main` builds it, with what serves it.
fn conformance() -> (Elicitation, conformance_server::ConformanceServer) {
    (
        conformance_server::ConformanceServer::elicitation(seal(), Tasks::new()),
        conformance_server::ConformanceServer::new(),
    )
}

/// The stdio hotel, with what serves it.
fn hotel() -> (Elicitation, stdio_server::Hotel) {
    (Elicitation::new(seal()), stdio_server::Hotel::new())
}

/// A client that declares form mode and answers each elicitation with the next scripted result,
/// keeping the requests it received.
#[derive(Clone, Default)]
struct ScriptedClient {
    answers: Arc<Mutex<VecDeque<Value>>>,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl ScriptedClient {
    fn answering(answers: impl IntoIterator<Item = Value>) -> Self {
        ScriptedClient {
            answers: Arc::new(Mutex::new(answers.into_iter().collect())),
            requests: Arc::default(),
        }
    }

    fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

impl ClientHandler for ScriptedClient {
    fn get_info(&self) -> ClientConfig {
        // `{}`: the spec's form-only declaration.
        let capabilities = ClientCapabilities::try_from(&ElicitationCapability::default()).unwrap();
        ClientConfig::new(capabilities, Implementation::new("scripted-client", "0"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        self.requests
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        let answer = self
            .answers
            .lock()
            .unwrap()
            .pop_front()
            .expect("an unscripted elicitation");
        Ok(serde_json::from_value(answer).unwrap())
    }
}

/// A 2025-11-25 connection, over the `initialize` handshake.
async fn connect<S: ServerHandler, C: ClientHandler>(
    (elicitation, server): (Elicitation, S),
    client: C,
) -> RunningService<RoleClient, C> {
    serve(&elicitation, server, client, ProtocolVersion::V_2025_11_25)
        .await
        .1
}

/// A 2026-07-28 connection: that revision has no `initialize`, so both ends start knowing the
/// other.
async fn connect_2026<S: ServerHandler, C: ClientHandler>(
    (elicitation, server): (Elicitation, S),
    client: C,
) -> RunningService<RoleClient, C> {
    serve(&elicitation, server, client, ProtocolVersion::V_2026_07_28)
        .await
        .1
}

async fn call(
    client: &RunningService<RoleClient, impl ClientHandler>,
    tool: &'static str,
    arguments: Value,
) -> CallToolResult {
    let mut params = CallToolRequestParams::new(tool);
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    client
        .call_tool(params)
        .await
        .expect("the tool call is answered")
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn the_conformance_tools_answer_as_the_suite_expects() {
    let script = ScriptedClient::answering([
        json!({"action": "accept", "content": {"username": "testuser", "email": "test@example.com"}}),
        json!({"action": "accept", "content": {"name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false}}),
        json!({"action": "accept", "content": {"untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
            "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]}}),
        json!({"action": "accept", "content": {"name": "Jane Smith", "age": -1, "status": "retired"}}),
        json!({"action": "decline"}),
    ]);
    let client = connect(conformance(), script.clone()).await;

    let result = call(
        &client,
        "test_elicitation",
        json!({"message": "Please provide your information"}),
    )
    .await;
    assert_eq!(
        text(&result),
        r#"User response: <action: accept, content: {"username":"testuser","email":"test@example.com"}>"#
    );
    let result = call(&client, "test_elicitation_sep1034_defaults", json!({})).await;
    assert_eq!(
        text(&result),
        r#"Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}"#
    );
    let result = call(&client, "test_elicitation_sep1330_enums", json!({})).await;
    assert_eq!(
        text(&result),
        r#"Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}"#
    );
    // A bad answer: asked again by itself, every field at fault in the message and the right
    // field kept as its default; the user then declines.
    let result = call(&client, "test_elicitation_sep1034_defaults", json!({})).await;
    assert_eq!(
        text(&result),
        "Elicitation completed: action=decline, content={}"
    );
    let again = &script.requests()[4];
    let message = again["message"].as_str().unwrap();
    assert!(
        message.ends_with(
            "\n\nPlease correct:\nAge must be at least 0, got -1\n\
             Status must be one of \"active\", \"inactive\", \"pending\", got \"retired\""
        ),
        "{message}"
    );
    assert_eq!(
        again["requestedSchema"]["properties"]["name"]["default"],
        "Jane Smith"
    );

    // What was sent: the schemas of the scenarios, built from the derived types.
    let requests = script.requests();
    let user = &requests[0]["requestedSchema"];
    assert_eq!(user["required"], json!(["username", "email"]));
    assert_eq!(
        user["properties"]["email"],
        json!({"type": "string", "title": "Email", "description": "User's email address"})
    );
    let defaults = &requests[1]["requestedSchema"]["properties"];
    assert_eq!(defaults["name"]["default"], "John Doe");
    assert_eq!(defaults["age"]["default"], 30);
    assert_eq!(defaults["score"]["default"], 95.5);
    assert_eq!(
        defaults["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
    assert_eq!(defaults["status"]["default"], "active");
    assert_eq!(defaults["verified"]["default"], true);
    let enums = &requests[2]["requestedSchema"]["properties"];
    assert_eq!(
        enums["untitledSingle"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert_eq!(
        enums["titledSingle"]["oneOf"][0],
        json!({"const": "value1", "title": "First Option"})
    );
    assert_eq!(enums["legacyEnum"]["enum"], json!(["opt1", "opt2", "opt3"]));
    assert_eq!(
        enums["legacyEnum"]["enumNames"],
        json!(["Option One", "Option Two", "Option Three"])
    );
    assert!(enums["legacyEnum"].get("oneOf").is_none());
    assert_eq!(
        enums["untitledMulti"]["items"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert_eq!(
        enums["titledMulti"]["items"]["anyOf"][1],
        json!({"const": "value2", "title": "Second Choice"})
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_example_client_accepts_the_example_servers_defaults() {
    let client = connect(conformance(), conformance_client::AcceptDefaultsClient).await;
    let result = call(&client, "test_elicitation_sep1034_defaults", json!({})).await;
    assert_eq!(
        text(&result),
        r#"Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}"#
    );
    // Required fields without defaults: the client declines rather than send an invalid form.
    let result = call(
        &client,
        "test_elicitation",
        json!({"message": "Who are you?"}),
    )
    .await;
    assert_eq!(
        text(&result),
        "User response: <action: decline, content: {}>"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_hotel_books_and_cancels_after_confirmation() {
    let script = ScriptedClient::answering([
        json!({"action": "accept", "content": {"checkIn": "2026-02-30", "nights": 3, "extras": ["parking", "parking"]}}),
        json!({"action": "accept", "content": {"checkIn": "2026-03-01", "room": "deluxe", "extras": ["breakfast"]}}),
        json!({"action": "accept", "content": {"confirm": false}}),
        json!({"action": "accept", "content": {"confirm": true}}),
    ]);
    let client = connect(hotel(), script.clone()).await;

    // The first answer has field errors: the tool asks again, within the same call. The
    // second answer leaves out the nights, which the user got right the first time: they are
    // kept (3), not replaced by the form's own default (1).
    let result = call(&client, "book_room", json!({})).await;
    assert_eq!(
        text(&result),
        "Booked. Booking 1001: Deluxe room for 2 guest(s), 3 night(s) from 2026-03-01, with Breakfast."
    );
    let requests = script.requests();
    // Today's date, a default known only at run time, on both asks.
    let today = requests[0]["requestedSchema"]["properties"]["checkIn"]["default"].clone();
    assert!(today.as_str().is_some_and(|d| d.len() == 10), "{today}");
    // The re-ask: every field error in the message, the field the user got right kept.
    let again = &requests[1];
    let message = again["message"].as_str().unwrap();
    // Each field by the title the form shows it with.
    assert_eq!(
        message,
        "Where and when would you like to stay?\n\nPlease correct:\n\
         Check-in date must be a date like 2026-12-24 (February 2026 has no day 30)\n\
         Extras lists \"parking\" more than once"
    );
    assert_eq!(
        again["requestedSchema"]["properties"]["nights"]["default"],
        3
    );
    assert_eq!(
        again["requestedSchema"]["properties"]["checkIn"]["default"],
        today
    );
    let result = call(&client, "cancel_booking", json!({"booking": 1001})).await;
    assert_eq!(text(&result), "Booking 1001 is kept.");
    let result = call(&client, "cancel_booking", json!({"booking": 1001})).await;
    assert_eq!(text(&result), "Booking 1001 is cancelled.");
    let result = call(&client, "cancel_booking", json!({"booking": 1001})).await;
    assert_eq!(result.is_error, Some(true));

    let booking_form = &requests[0]["requestedSchema"]["properties"];
    assert_eq!(booking_form["checkIn"]["format"], "date");
    assert_eq!(booking_form["room"]["default"], "standard");
    assert_eq!(
        booking_form["extras"]["items"]["anyOf"][2],
        json!({"const": "late-check-out", "title": "Late check-out"})
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2026_07_28_the_conformance_tools_ask_through_input_required_results() {
    let script = ScriptedClient::answering([
        json!({"action": "accept", "content": {"name": "Alice"}}),
        json!({"action": "accept", "content": {"name": "Bob"}}),
        json!({"action": "accept", "content": {"color": "teal"}}),
    ]);
    let client = connect_2026(conformance(), script.clone()).await;
    // rmcp's client answers each input request through the handler and retries the call.
    let result = call(&client, "test_input_required_result_elicitation", json!({})).await;
    assert_eq!(text(&result), r#"user_name accepted: {"name":"Alice"}"#);
    let result = call(&client, "test_input_required_result_multi_round", json!({})).await;
    assert_eq!(
        text(&result),
        r#"step1 accepted: {"name":"Bob"}; step2 accepted: {"color":"teal"}"#
    );
    let messages: Vec<Value> = script
        .requests()
        .iter()
        .map(|request| request["message"].clone())
        .collect();
    assert_eq!(
        messages,
        [
            "What is your name?",
            "Step 1: What is your name?",
            "Step 2: What is your favorite color?"
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2026_07_28_the_example_client_answers_from_the_retry_loop() {
    // The same client as on 2025-11-25 (`accept_form` with the defaults): a form whose
    // required field has no default is declined, from inside rmcp's retry loop.
    let client = connect_2026(conformance(), conformance_client::AcceptDefaultsClient).await;
    let result = call(&client, "test_input_required_result_elicitation", json!({})).await;
    assert_eq!(text(&result), "user_name declined");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2026_07_28_the_mrtr_tools_behave_as_the_suite_describes() {
    let client = connect_2026(conformance(), conformance_client::AcceptDefaultsClient).await;
    // `test_mrtr_echo_state` seals a state; `test_mrtr_no_state` sends none.
    let first = |tool: &'static str| client.call_tool_once(CallToolRequestParams::new(tool));
    let sdk::CallToolResponse::InputRequired(echo) = first("test_mrtr_echo_state").await.unwrap()
    else {
        panic!("test_mrtr_echo_state completed at once");
    };
    assert!(echo.request_state.is_some());
    let sdk::CallToolResponse::InputRequired(no_state) = first("test_mrtr_no_state").await.unwrap()
    else {
        panic!("test_mrtr_no_state completed at once");
    };
    assert_eq!(no_state.request_state, None);
    let request = serde_json::to_value(&no_state.input_requests.unwrap()["confirm"]).unwrap();
    assert_eq!(
        request["params"]["message"],
        "Please confirm to continue (no state test)"
    );
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["confirmed"],
        json!({"type": "boolean", "title": "Confirmed", "description": "Confirm?"})
    );
    // The whole flows, through rmcp's retry loop and the example client.
    for (tool, expected) in [
        (
            "test_mrtr_echo_state",
            r#"echo-state-ok, confirm accepted: {"confirmed":null}"#,
        ),
        (
            "test_mrtr_no_state",
            r#"no-state-ok, confirm accepted: {"confirmed":null}"#,
        ),
        ("test_mrtr_unrelated", "unrelated-ok"),
        ("test_mrtr_no_result_type", "no-result-type-test-ok"),
    ] {
        assert_eq!(
            text(&call(&client, tool, json!({})).await),
            expected,
            "{tool}"
        );
    }
    // Another tool's state is refused.
    let stolen = CallToolRequestParams::new("test_mrtr_unrelated")
        .with_request_state(echo.request_state.unwrap());
    assert!(client.call_tool_once(stolen).await.is_err());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn on_2025_11_25_a_tool_written_in_the_2026_style_asks_by_request() {
    // `test_mrtr_no_state` answers with an InputRequiredResult of its own: on 2025-11-25
    // The `Elicitation` sends its input request as `elicitation/create` and runs it again with the answer.
    let script =
        ScriptedClient::answering([json!({"action": "accept", "content": {"confirmed": true}})]);
    let client = connect(conformance(), script.clone()).await;
    let result = call(&client, "test_mrtr_no_state", json!({})).await;
    assert_eq!(
        text(&result),
        r#"no-state-ok, confirm accepted: {"confirmed":true}"#
    );
    let requests = script.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(
        requests[0]["message"],
        "Please confirm to continue (no state test)"
    );
    client.cancel().await.unwrap();
}

/// The tools a client sees from `server` on `protocol`.
async fn listed_tools<S: ServerHandler>(
    (elicitation, server): (Elicitation, S),
    protocol: ProtocolVersion,
) -> Vec<sdk::Tool> {
    let client = serve(
        &elicitation,
        server,
        ScriptedClient::answering([]),
        protocol,
    )
    .await
    .1;
    let tools = client
        .list_all_tools()
        .await
        .expect("tools/list is answered");
    client.cancel().await.unwrap();
    tools
}

/// `make` builds the same server twice: its tools on 2025-11-25 and on 2026-07-28 are the same.
async fn assert_same_tools<S: ServerHandler>(name: &str, make: impl Fn() -> (Elicitation, S)) {
    let on_2025 = listed_tools(make(), ProtocolVersion::V_2025_11_25).await;
    let on_2026 = listed_tools(make(), ProtocolVersion::V_2026_07_28).await;
    assert!(!on_2025.is_empty(), "{name} lists no tools");
    assert_eq!(on_2025, on_2026, "{name} lists other tools on 2026-07-28");
}

#[tokio::test]
async fn every_example_server_lists_the_same_tools_on_both_revisions() {
    assert_same_tools("stdio_server", hotel).await;
    assert_same_tools("conformance_server", conformance).await;
    let files = std::sync::Arc::new(url_mode_server::ConnectState::in_memory(
        "http://127.0.0.1:1".to_owned(),
        seal(),
    ));
    // One connection: every request is the demo user's.
    let demo = UserId::from_verified_subject(elicit_examples::http::DEMO_USER).unwrap();
    assert_same_tools("url_mode_server", || {
        let elicitation = files.elicitation().clone().with_local_user(demo.clone());
        (
            elicitation,
            url_mode_server::FilesServer::new(files.clone()),
        )
    })
    .await;
}

/// The hotel over streamable HTTP on a free loopback port, behind elicit's guard as a server
/// written from the crate page is; it stops when the sender is sent or dropped.
async fn hotel_over_http() -> (String, tokio::sync::oneshot::Sender<()>) {
    use rmcp::transport::StreamableHttpServerConfig;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

    let config = StreamableHttpServerConfig::default();
    let cancel = config.cancellation_token.clone();
    let service = elicit_mcp::http::Guard::new()
        .serve(
            &Elicitation::new(seal()),
            stdio_server::Hotel::new,
            std::sync::Arc::new(LocalSessionManager::default()),
            config,
        )
        .expect("the hotel declares nothing that could fail");
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
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

#[tokio::test]
async fn over_streamable_http_a_negotiating_client_lands_on_2026_07_28_and_books() {
    let (url, stop) = hotel_over_http().await;
    let today = time::OffsetDateTime::now_utc().date().to_string();

    // `server/discover` first, as today's clients do: 2026-07-28, input-required rounds.
    let client = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        conformance_client::connect(&url),
    )
    .await
    .expect("connected in time")
    .expect("the client negotiates");
    let negotiated = client.peer_info().map(|info| info.protocol_version.clone());
    assert_eq!(negotiated, Some(ProtocolVersion::V_2026_07_28));
    let on_2026 = client.list_all_tools().await.unwrap();
    // The user accepts the defaults: today's date, filled in at run time, books the room.
    let result = call(&client, "book_room", json!({})).await;
    assert_eq!(
        text(&result),
        format!("Booked. Booking 1001: Standard room for 2 guest(s), 1 night(s) from {today}.")
    );
    client.cancel().await.unwrap();

    // A client that knows only the `initialize` handshake: 2025-11-25, elicitation/create.
    let legacy = conformance_client::AcceptDefaultsClient
        .serve(rmcp::transport::StreamableHttpClientTransport::from_uri(
            url.as_str(),
        ))
        .await
        .expect("the client initializes");
    let negotiated = legacy.peer_info().map(|info| info.protocol_version.clone());
    assert_eq!(negotiated, Some(ProtocolVersion::V_2025_11_25));
    assert_eq!(legacy.list_all_tools().await.unwrap(), on_2026);
    let result = call(&legacy, "book_room", json!({})).await;
    assert_eq!(
        text(&result),
        format!("Booked. Booking 1001: Standard room for 2 guest(s), 1 night(s) from {today}.")
    );
    legacy.cancel().await.unwrap();
    let _ = stop.send(());
}

/// Over real streamable HTTP, on both revisions: a client that negotiates by `server/discover`
/// and one that knows only `initialize`. The first answer has field errors; the re-ask's answer
/// leaves out the nights the user got right, which are kept, not replaced by the form's own
/// default.
#[tokio::test]
async fn over_streamable_http_a_reask_keeps_what_the_user_said_on_both_revisions() {
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let (url, stop) = hotel_over_http().await;
    let negotiating = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    };
    for (lifecycle, revision) in [
        (negotiating, ProtocolVersion::V_2026_07_28),
        (
            ClientLifecycleMode::Initialize,
            ProtocolVersion::V_2025_11_25,
        ),
    ] {
        let script = ScriptedClient::answering([
            json!({"action": "accept", "content": {"checkIn": "2026-02-30", "nights": 3, "extras": ["parking", "parking"]}}),
            json!({"action": "accept", "content": {"checkIn": "2026-03-01", "room": "deluxe", "extras": ["breakfast"]}}),
        ]);
        let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.as_str());
        let client = tokio::time::timeout(
            std::time::Duration::from_secs(30),
            script.clone().serve_with_lifecycle(transport, lifecycle),
        )
        .await
        .expect("connected in time")
        .expect("the client negotiates");
        let negotiated = client.peer_info().map(|info| info.protocol_version.clone());
        assert_eq!(negotiated, Some(revision.clone()));
        let booked = text(&call(&client, "book_room", json!({})).await);
        assert!(
            booked.ends_with(
                "Deluxe room for 2 guest(s), 3 night(s) from 2026-03-01, with Breakfast."
            ),
            "{revision}: {booked}"
        );
        let requests = script.requests();
        assert_eq!(requests.len(), 2, "{revision}: {requests:?}");
        let again = &requests[1];
        assert!(
            again["message"]
                .as_str()
                .unwrap()
                .contains("\n\nPlease correct:\n"),
            "{revision}: {again}"
        );
        let properties = &again["requestedSchema"]["properties"];
        assert_eq!(properties["nights"]["default"], 3, "{revision}: {again}");
        client.cancel().await.unwrap();
    }
    let _ = stop.send(());
}

/// A body of the shape that costs rmcp's parse the most memory per byte, `size` bytes long:
/// a tool call whose arguments are an array of zeros.
#[cfg(target_os = "linux")]
fn hostile_body(size: usize) -> String {
    let head = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"pad":[0"#;
    let tail = "]}}}";
    let zeros = (size - head.len() - tail.len()) / 2;
    let mut body = String::with_capacity(size);
    body.push_str(head);
    for _ in 0..zeros {
        body.push_str(",0");
    }
    body.push_str(tail);
    // An odd size: one space of padding, still the same JSON.
    while body.len() < size {
        body.insert(head.len() - 2, ' ');
    }
    body
}

/// Posts `body` to `url` over a plain HTTP/1.1 connection (chunked when asked) and returns the
/// status code and the response's body text.
#[cfg(target_os = "linux")]
fn post(url: &str, body: &str, chunked: bool) -> (u16, String) {
    use std::io::{Read, Write};

    let address = url.trim_start_matches("http://").trim_end_matches("/mcp");
    let mut stream = std::net::TcpStream::connect(address).expect("the server accepts");
    let length = if chunked {
        "transfer-encoding: chunked".to_owned()
    } else {
        format!("content-length: {}", body.len())
    };
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: tools/call\r\nmcp-name: x\r\nconnection: close\r\n{length}\r\n\r\n"
    );
    // The server may answer and close before it has read everything: what it answered counts.
    let _ = stream.write_all(head.as_bytes());
    if chunked {
        for chunk in body.as_bytes().chunks(16 * 1024) {
            let _ = write!(stream, "{:x}\r\n", chunk.len());
            let _ = stream.write_all(chunk);
            let _ = stream.write_all(b"\r\n");
        }
        let _ = stream.write_all(b"0\r\n\r\n");
    } else {
        let _ = stream.write_all(body.as_bytes());
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response);
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP status in {response:?}"));
    let text = response
        .split_once("\r\n\r\n")
        .map(|(_, text)| text.to_owned())
        .unwrap_or_default();
    (status, text)
}

#[cfg(target_os = "linux")]
#[test]
fn hostile_bodies_at_the_limit_cost_the_server_little_and_over_it_are_refused_413() {
    use elicit_examples::http::DEFAULT_MAX_BODY_BYTES;

    // One malloc arena, so that the peak is what the bodies kept alive at once. With glibc's
    // default of an arena per thread, each worker thread that happened to parse a body keeps
    // that memory for itself, and the peak counts how many did (two on two cores when the
    // machine is busy), not how many bodies were in flight.
    let server = load::server::ServerProcess::start_with_env(
        "conformance_server",
        &[],
        &[("MALLOC_ARENA_MAX", "1")],
    );
    let before = server.memory();
    // At the limit, it reaches rmcp, which parses all of it (and refuses the call for its
    // missing `_meta`, which does not matter here).
    let (status, text) = post(server.url(), &hostile_body(DEFAULT_MAX_BODY_BYTES), false);
    assert_ne!(status, 413, "{text}");
    let (status, _) = post(server.url(), &hostile_body(DEFAULT_MAX_BODY_BYTES), true);
    assert_ne!(status, 413);
    let at_limit = server.memory();
    // Many at once from one client: the guard lets one body at the limit in flight at a time
    // (its default allowance per client is the body limit); the others wait, unread.
    let concurrent = 8;
    let url = server.url();
    // Built before and sent together, so that without the guard they would be parsed at once.
    let bodies: Vec<_> = (0..concurrent)
        .map(|_| hostile_body(DEFAULT_MAX_BODY_BYTES))
        .collect();
    let start = std::sync::Barrier::new(concurrent);
    let statuses = std::thread::scope(|scope| {
        let posts: Vec<_> = bodies
            .iter()
            .enumerate()
            .map(|(index, body)| {
                let start = &start;
                scope.spawn(move || {
                    start.wait();
                    post(url, body, index % 2 == 1).0
                })
            })
            .collect();
        posts
            .into_iter()
            .map(|post| post.join().unwrap())
            .collect::<Vec<_>>()
    });
    assert!(statuses.iter().all(|status| *status != 413), "{statuses:?}");
    let concurrent_at_limit = server.memory();
    // One byte over, by its length or as it streams: 413, with the limit named.
    for chunked in [false, true] {
        let (status, text) = post(
            server.url(),
            &hostile_body(DEFAULT_MAX_BODY_BYTES + 1),
            chunked,
        );
        assert_eq!(status, 413, "chunked {chunked}: {text}");
        assert!(
            text.contains(&format!("at most {DEFAULT_MAX_BODY_BYTES} bytes")),
            "{text}"
        );
    }
    // What rmcp alone would have let in (its own limit is 4 MiB), refused the same.
    let (status, _) = post(server.url(), &hostile_body(4 * 1024 * 1024 - 64), false);
    assert_eq!(status, 413);
    let after = server.memory();
    println!(
        "peak RSS {} KiB at start, {} KiB after two bodies at the limit, {} KiB after {concurrent} \
         at once, {} KiB after the refusals",
        before.peak_kib, at_limit.peak_kib, concurrent_at_limit.peak_kib, after.peak_kib
    );
    let growth_mib = (after.peak_kib - before.peak_kib) / 1024;
    assert!(
        growth_mib < 48,
        "bodies at and over the limit raised the server's peak RSS by {growth_mib} MiB"
    );
    // Had two of the eight been parsed at once, the peak would have grown by about what the
    // first two bodies cost again.
    let one_body_kib = at_limit.peak_kib - before.peak_kib;
    let concurrent_kib = concurrent_at_limit.peak_kib - at_limit.peak_kib;
    assert!(
        concurrent_kib < one_body_kib / 2,
        "{concurrent} bodies at once raised the peak by {concurrent_kib} KiB more than one at a \
         time ({one_body_kib} KiB): more than one was held at once"
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_http_server_example_prints_its_url_and_books_through_its_guard() {
    let server = load::server::ServerProcess::start("http_server", &["127.0.0.1:0"]);
    let url = server.url().to_owned();
    let port = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .and_then(|port| port.parse::<u16>().ok());
    assert!(port.is_some_and(|port| port != 0), "{url}");
    // Who the user is, checked on every request: none, and the server answers 401 with its
    // challenge before rmcp reads anything.
    let refused = conformance_client::connect(&url).await.unwrap_err();
    assert!(
        format!("{refused:?}")
            .contains(r#"AuthRequired(AuthRequiredError { www_authenticate_header: "Bearer" })"#),
        "{refused:?}"
    );
    // Its name, not rmcp's default, and a booking through a client that accepts defaults is
    // declined (the check-in date has none): the tool answers so.
    let client = conformance_client::connect_as(&url, "alice")
        .await
        .expect("the client negotiates");
    let info = client.peer_info().expect("the server's info");
    let name = info.server_info.as_ref().map(|info| info.name.as_str());
    assert_eq!(name, Some("elicit-bookings"));
    let result = call(&client, "book", json!({"name": "Ritz"})).await;
    assert_eq!(text(&result), "no booking");
    client.cancel().await.unwrap();
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_run_completes_every_flow_and_vanished_clients_leave_nothing_held() {
    let report = load::run(&load::Plan::SHORT).await;
    println!("{report}");
    for run in &report.revisions {
        assert_eq!(run.completed, run.expected, "on {}", run.revision);
    }
    for gone in &report.vanishing {
        assert_eq!(
            gone.pending, gone.clients,
            "every vanishing client was asked"
        );
        assert!(
            gone.fds_after <= gone.fds_before,
            "the server still holds {} descriptors more than before the vanishing",
            gone.fds_after - gone.fds_before
        );
        let kept_kib = gone
            .memory_after
            .rss_kib
            .saturating_sub(gone.memory_before.rss_kib);
        assert!(
            kept_kib < 16 * 1024,
            "the server kept {kept_kib} KiB after the vanished clients' asks ended"
        );
        assert!(gone.served_after, "the server serves after the vanishing");
        // The asks end by the server's timeout: seen by a silent client that stayed.
        let (waited, outcome) = gone
            .witness
            .as_ref()
            .expect("the silent client's call came back");
        assert!(
            *waited < report.plan.ask_timeout + std::time::Duration::from_secs(2),
            "its ask ended after {waited:?}: {outcome}"
        );
    }
}

/// The official Python client (`pip install mcp`, 2.3.0), installed into a venv under the temp
/// dir once: its interpreter. Once per test process too: the tests that use it run in parallel,
/// and two `python3 -m venv` of one folder at once fail.
#[cfg(target_os = "linux")]
pub(crate) fn python_with_mcp() -> std::path::PathBuf {
    use std::process::Command;
    use std::sync::OnceLock;

    static PYTHON: OnceLock<std::path::PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let venv = std::env::temp_dir().join("elicit-python-mcp-2.3.0");
            let python = venv.join("bin").join("python");
            if !python.exists() {
                let status = Command::new("python3")
                    .args(["-m", "venv"])
                    .arg(&venv)
                    .status()
                    .expect("python3 runs");
                assert!(status.success(), "python3 -m venv failed");
            }
            let status = Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "mcp==2.3.0"])
                .status()
                .expect("pip runs");
            assert!(status.success(), "pip install mcp==2.3.0 failed");
            python
        })
        .clone()
}

/// A script of `tests/data/python/`, as cargo gives the package's folder to the running test
/// (see `examples_built.rs`).
#[cfg(target_os = "linux")]
pub(crate) fn python_script(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo runs the test"))
        .join("tests/data/python")
        .join(name)
}

/// The official Python client (`pip install mcp`, 2.3.0) books on `http_server` over a
/// 2025-11-25 session and closes it: no "Session termination failed" (it warns unless the
/// server answers its DELETE 200 or 204; rmcp alone answers 202).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs python3 with venv and network access to PyPI (it installs mcp==2.3.0 into a venv under the temp dir); run with --ignored"]
fn the_official_python_client_books_and_closes_its_session_without_a_warning() {
    let python = python_with_mcp();
    let server = load::server::ServerProcess::start("http_server", &["127.0.0.1:0"]);
    let output = std::process::Command::new(&python)
        .arg(python_script("book_and_close.py"))
        .arg(server.url())
        .arg("alice")
        .output()
        .expect("the Python client runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        stdout.trim(),
        "2 nights at Ritz from 2026-12-24",
        "{stderr}"
    );
    assert!(
        !stderr.contains("Session termination failed"),
        "the client warned at close: {stderr}"
    );
}

/// The crate page's recipe (`http_server`: the guard, the identity function, a task tool)
/// with the official Python client on both revisions: a form in the call; the task created,
/// polled, asking, answered by `tasks/update`, completed; and a second client with another
/// user's token that can neither read nor answer the task.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs python3 with venv and network access to PyPI (it installs mcp==2.3.0 into a venv under the temp dir); run with --ignored"]
fn the_official_python_client_runs_the_recipe_s_task_on_both_revisions_and_no_other_user_can_touch_it()
 {
    let python = python_with_mcp();
    let server = load::server::ServerProcess::start("http_server", &["127.0.0.1:0"]);
    for (mode, revision) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let output = std::process::Command::new(&python)
            .arg(python_script("recipe_tasks.py"))
            .args([server.url(), mode, "alice", "mallory"])
            .output()
            .expect("the Python client runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{mode}: {stdout}\n{stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 6, "{mode}: {stdout}\n{stderr}");
        assert_eq!(lines[0], format!("revision {revision}"));
        assert_eq!(lines[1], "book: 2 nights at Ritz from 2026-12-24");
        assert_eq!(lines[2], "task asks: scope");
        for (line, what) in [(lines[3], "reads"), (lines[4], "answers")] {
            assert!(
                line.starts_with(&format!("other user {what}: -32602 unknown task: ")),
                "{mode}: {line}"
            );
        }
        assert_eq!(lines[5], "task completed: cleaned up, 2 years archived");
    }
}

/// The official TypeScript client (`@modelcontextprotocol/sdk` 1.32.2), installed with npm into
/// a folder under the temp dir once per test process; that folder, where its scripts run (an ES
/// module finds its packages from where it lies).
#[cfg(target_os = "linux")]
fn typescript_sdk() -> std::path::PathBuf {
    use std::process::Command;
    use std::sync::OnceLock;

    static FOLDER: OnceLock<std::path::PathBuf> = OnceLock::new();
    FOLDER
        .get_or_init(|| {
            let folder = std::env::temp_dir().join("elicit-typescript-sdk-1.32.2");
            std::fs::create_dir_all(&folder).expect("the temp dir takes a folder");
            let status = Command::new("npm")
                .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
                .arg(&folder)
                .arg("@modelcontextprotocol/sdk@1.32.2")
                .status()
                .expect("npm runs");
            assert!(
                status.success(),
                "npm install @modelcontextprotocol/sdk@1.32.2 failed"
            );
            folder
        })
        .clone()
}

/// The script `name` of `tests/data/typescript`, copied beside the TypeScript SDK, where it runs.
#[cfg(target_os = "linux")]
fn typescript_script(name: &str) -> std::path::PathBuf {
    let script = typescript_sdk().join(name);
    let source = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/typescript")
        .join(name);
    std::fs::copy(&source, &script).expect("the script is copied beside the SDK");
    script
}

/// A person takes 90 seconds over a form, on 2025-11-25 with the official TypeScript client,
/// whose requests time out after 60 seconds unless progress resets the clock: the server tells
/// the call's progress token that it waits for the user, and the call comes back with the
/// answer.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs node and npm with network access to the npm registry (it installs @modelcontextprotocol/sdk 1.32.2 under the temp dir), and takes 90 s; run with --ignored"]
fn the_official_typescript_client_keeps_a_call_whose_form_takes_90_seconds() {
    let script = typescript_script("wait_for_person.mjs");
    let server = load::server::ServerProcess::start("http_server", &["127.0.0.1:0"]);
    let output = std::process::Command::new("node")
        .arg(&script)
        .args([server.url(), "alice", "90"])
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}\n{stderr}");
    assert_eq!(lines[0], "revision 2025-11-25");
    // One every 10 seconds of the 90.
    let (count, messages) = lines[1]
        .strip_prefix("progress ")
        .and_then(|rest| rest.split_once(": "))
        .expect("the progress line");
    let count: u32 = count.parse().unwrap();
    assert!((8..=10).contains(&count), "{}", lines[1]);
    assert_eq!(messages, "waiting for the user to answer");
    assert_eq!(lines[2], "book: 2 nights at Ritz from 2026-12-24");
}

/// The official TypeScript client loses the connection of a call's stream while the call's
/// form waits, on 2025-11-25 through the crate page's recipe (its guard), and its transport
/// resumes the stream by itself (a GET with `Last-Event-ID`, after the server's `retry`): the
/// resumed stream carries the rest of the call. Once when the person answers before the client
/// is back (the call's result comes on the resumed stream), once when the client is back first
/// (the progress the server tells while it waits, then the result).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs node and npm with network access to the npm registry (it installs @modelcontextprotocol/sdk 1.32.2 under the temp dir), and takes 20 s; run with --ignored"]
fn the_official_typescript_client_resumes_a_call_whose_connection_broke_while_its_form_waited() {
    let script = typescript_script("drop_mid_ask.mjs");
    let server = load::server::ServerProcess::start("http_server", &["127.0.0.1:0"]);
    // The server tells progress every 10 s: the client is back after 3 s and hears it before
    // the person answers.
    let output = std::process::Command::new("node")
        .arg(&script)
        .args([server.url(), "alice", "12"])
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let calls: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a line of JSON"))
        .collect();
    assert_eq!(calls.len(), 2, "{stdout}\n{stderr}");
    for (call, phase) in calls.iter().zip(["away", "back"]) {
        assert_eq!(call["phase"], phase, "{call}");
        assert_eq!(call["revision"], "2025-11-25", "{call}");
        // One resume, after the ask: the last event the client had.
        let ask = call["ask"].as_str().expect("the ask's event id");
        assert_eq!(call["resumes"], serde_json::json!([ask]), "{call}");
        assert_eq!(call["resultOnResumed"], true, "{call}");
        assert_eq!(call["text"], "2 nights at Ritz from 2026-12-24", "{call}");
    }
    // Back before the answer: it heard, on the resumed stream, that the server waits.
    assert_eq!(calls[1]["progressOnResumed"], true, "{}", calls[1]);
    assert!(calls[1]["progress"].as_u64() >= Some(1), "{}", calls[1]);
}

/// On 2026-07-28 a person takes 2 minutes over a URL-mode step: the official Python client
/// consents, then retries its input-required rounds with its own defaults (at most 10) while
/// the server holds each retry for an eighth of its 5-minute wait; the person signs in and
/// completes the page 2 minutes later, and the call comes back connected.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs python3 with venv and network access to PyPI (it installs mcp==2.3.0 into a venv under the temp dir), and takes 2 minutes; run with --ignored"]
fn the_official_python_client_waits_2_minutes_for_a_url_step_on_2026_07_28() {
    use std::io::BufRead;

    use elicit_test_support::browser::browse;

    let python = python_with_mcp();
    let server = load::server::ServerProcess::start("url_mode_server", &["127.0.0.1:0"]);
    /// The client's process, ended if the test fails before it does.
    struct Client(std::process::Child);
    impl Drop for Client {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut client = Client(
        std::process::Command::new(&python)
            .arg(python_script("url_step.py"))
            .arg(server.url())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the Python client runs"),
    );
    let mut stdout = std::io::BufReader::new(client.0.stdout.take().expect("stdout is piped"));
    let mut line = || {
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("the client's output reads");
        line.trim_end().to_owned()
    };
    assert_eq!(line(), "revision 2026-07-28");
    let link = line()
        .strip_prefix("link ")
        .map(str::to_owned)
        .expect("the client got the link");

    std::thread::sleep(std::time::Duration::from_secs(120));
    let base = &server.url()[..server.url().rfind("/mcp").expect("the MCP path")];
    let signed_in = browse("GET", &format!("{base}/login?user=demo-user"), None);
    let cookie = signed_in.set_cookie.expect("a session cookie");
    assert_eq!(browse("GET", &link, Some(&cookie)).status, 200);
    let done = browse("POST", &link, Some(&cookie));
    assert_eq!(done.status, 200, "{}", done.body);

    let connected = line();
    let status = client.0.wait().expect("the client ends");
    assert!(status.success(), "{connected}");
    let id = link.rsplit_once("elicitationId=").expect("the link's id").1;
    assert_eq!(
        connected,
        format!("connect: Example Co is connected (elicitation {id}).")
    );
}
