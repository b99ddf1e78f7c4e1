//! rmcp client and server in one process over an in-memory duplex, with elicit on both ends:
//! the server asks through `ElicitPeer`, the client answers from the schema it receives with
//! elicit's client helpers (validate the request against what it declared, fill defaults,
//! validate the content). Every message from the server to the client is recorded as it went
//! over the wire, so the tests check the JSON the client actually got.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_mcp::client::{UrlElicitationWatch, accept_form, validate_request};
use elicit_mcp::rmcp::{
    Ask, ConnectionPeers, ElicitError, ElicitPeer, ElicitUrlPeer, Elicitation, Elicited,
};
use elicit_mcp::schema::{PrimitiveSchema, RequestedSchema};
use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId};
use elicit_mcp::wire::{
    ElicitMode, ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationCapability,
    ElicitationCompleteNotification, UrlElicitationRequiredError,
};
use elicit_mcp::{Elicit, ElicitOutcome};
use elicit_test_support::connect_page::connect_url;
use elicit_test_support::rmcp::{
    call, client_info, error_of, forward_completion, seal, serve, text,
};
use rmcp::model as sdk;
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleClient, RoleServer, RunningService, ServiceError,
};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

// ---------------------------------------------------------------------------------------------
// The forms

#[derive(Elicit, Debug, PartialEq)]
#[elicit(message = "Book a table", rename_all = "camelCase")]
struct Booking {
    #[elicit(min_length = 1, max_length = 40)]
    name: String,
    #[elicit(format = "date")]
    date: String,
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    #[elicit(default = Seating::Indoor)]
    seating: Seating,
    #[elicit(max_items = 2)]
    extras: Vec<Extra>,
    #[elicit(pattern = "^[A-Z]{2}[0-9]{3}$")]
    voucher: Option<String>,
    #[elicit(default = false)]
    newsletter: bool,
}

#[derive(Elicit, Debug, PartialEq)]
enum Seating {
    #[elicit(rename = "indoor", title = "Indoor")]
    Indoor,
    #[elicit(rename = "terrace", title = "Terrace")]
    Terrace,
}

#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Extra {
    Cake,
    Flowers,
    Candles,
}

/// `Booking`'s schema as an rmcp client's handler gets it: the derived one without the pattern,
/// which rmcp's model has no place for.
fn booking_schema_in_rmcp_model() -> RequestedSchema {
    let mut schema = Booking::requested_schema().clone();
    for property in schema.properties.to_mut() {
        if let PrimitiveSchema::String(string) = &mut property.schema {
            string.pattern = None;
        }
    }
    schema
}

fn content(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("test content must be an object, not {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The client: what the user does is scripted per test.

#[derive(Clone, Debug)]
enum Answer {
    /// Fill the form with this, the client adding defaults and checking it before sending.
    Fill(Map<String, Value>),
    /// Send this as it is, as a client that checks nothing would.
    SendUnchecked(Map<String, Value>),
    Decline,
    Cancel,
    /// Consent to open the URL.
    Consent,
}

#[derive(Clone)]
struct TestClient {
    declared: ElicitationCapability,
    answer: Arc<Mutex<Answer>>,
    /// Each `elicitation/create` received, as elicit's client-side validation read it.
    received: Arc<Mutex<Vec<ElicitRequestParams>>>,
    completions: mpsc::UnboundedSender<ElicitationCompleteNotification>,
}

impl TestClient {
    fn answer(&self, answer: Answer) {
        *self.answer.lock().unwrap() = answer;
    }

    fn received(&self) -> Vec<ElicitRequestParams> {
        self.received.lock().unwrap().clone()
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> sdk::ClientConfig {
        client_info(
            "elicit-e2e-client",
            sdk::ProtocolVersion::V_2025_11_25,
            Some(&self.declared),
            false,
        )
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
        // A request the client did not declare the mode of, or with a schema outside the
        // subset, is refused with -32602.
        let wire = serde_json::to_value(&request)
            .map_err(|e| sdk::ErrorData::internal_error(e.to_string(), None))?;
        let params = validate_request(&wire, Some(&self.declared))?;
        // The conversion reads the same request (keeping the schema's property order).
        let converted = ElicitRequestParams::try_from(&request)?;
        self.received.lock().unwrap().push(converted.clone());
        let answer = self.answer.lock().unwrap().clone();
        let result = match (&params, answer) {
            (ElicitRequestParams::Form(form), Answer::Fill(content)) => {
                accept_form(&form.requested_schema, content)
                    .map_err(|e| sdk::ErrorData::from(&e))?
            }
            (ElicitRequestParams::Form(_), Answer::SendUnchecked(content)) => {
                ElicitResult::accept(content)
            }
            (ElicitRequestParams::Url(_), Answer::Consent) => ElicitResult::accept_url(),
            (_, Answer::Decline) => ElicitResult::decline(),
            (_, Answer::Cancel) => ElicitResult::cancel(),
            (params, answer) => {
                return Err(sdk::ErrorData::internal_error(
                    format!(
                        "the test scripted {answer:?} for a {} request",
                        params.mode()
                    ),
                    None,
                ));
            }
        };
        Ok(sdk::ElicitResult::from(&result))
    }

    async fn on_custom_notification(
        &self,
        notification: sdk::CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        forward_completion(&notification, &self.completions);
    }
}

// ---------------------------------------------------------------------------------------------
// The server: tools that elicit from inside a handler, through the request context.

const FILES_MESSAGE: &str = "Authorization is required to access your Example Co files.";
const REQUIRED_MESSAGE: &str = "This request requires more information.";

#[derive(Clone)]
struct TestServer {
    tracker: Arc<ElicitationTracker>,
}

fn alice() -> Initiator {
    Initiator::new(
        UserId::from_verified_subject("alice-sub").unwrap(),
        ConnectionId::new("session-1"),
    )
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::InitializeResult::new(sdk::ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: sdk::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        match request.name.as_ref() {
            // The same form on both revisions: `elicitation/create` on 2025-11-25, an
            // input-required result on 2026-07-28.
            // A hand-written handler finds the call's `Ask` where the `Elicitation` serving
            // it put it.
            "book" => {
                let ask = Ask::current()?;
                // Field errors go to the model as an error result, not asked again.
                let result = match ask.form::<Booking>().with_reask(false).await {
                    Ok(ElicitOutcome::Accepted(booking)) => {
                        text(format!("booked for {} on {}", booking.name, booking.date))
                    }
                    Ok(ElicitOutcome::Declined) => text("declined"),
                    Ok(ElicitOutcome::Cancelled) => text("cancelled"),
                    Err(error) => error.to_tool_result(),
                };
                Ok(sdk::CallToolResponse::Complete(result))
            }
            "files" => Err(context
                .url_elicitation_required(
                    &self.tracker,
                    &alice(),
                    FILES_MESSAGE,
                    connect_url,
                    REQUIRED_MESSAGE,
                )
                .await?),
            other => Err(sdk::ErrorData::invalid_params(
                format!("no tool `{other}`"),
                None,
            )),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The harness

struct Session {
    client: RunningService<RoleClient, TestClient>,
    handler: TestClient,
    server: RunningService<RoleServer, Elicited<TestServer>>,
    tracker: Arc<ElicitationTracker>,
    /// Every line the server wrote, as the client read it.
    wire: Arc<Mutex<Vec<String>>>,
    completions: mpsc::UnboundedReceiver<ElicitationCompleteNotification>,
}

impl Session {
    fn peer(&self) -> &Peer<RoleServer> {
        self.server.peer()
    }

    /// The messages the server sent with this `method`, parsed.
    fn sent(&self, method: &str) -> Vec<Value> {
        self.wire
            .lock()
            .unwrap()
            .iter()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|message| message["method"] == method)
            .collect()
    }

    /// The text lines the server sent that carry this method, as written.
    fn sent_text(&self, method: &str) -> Vec<String> {
        let needle = format!("\"method\":\"{method}\"");
        self.wire
            .lock()
            .unwrap()
            .iter()
            .filter(|line| line.contains(&needle))
            .cloned()
            .collect()
    }
}

/// Two duplex pipes with a relay between them that copies client-to-server bytes as they are
/// and server-to-client lines (rmcp's framing is one JSON message a line) while recording them.
fn tapped_pipe() -> (
    tokio::io::DuplexStream,
    tokio::io::DuplexStream,
    Arc<Mutex<Vec<String>>>,
) {
    let (server_io, server_relay) = tokio::io::duplex(1 << 16);
    let (client_relay, client_io) = tokio::io::duplex(1 << 16);
    let wire = Arc::new(Mutex::new(Vec::new()));
    let (from_server, mut to_server) = tokio::io::split(server_relay);
    let (mut from_client, mut to_client) = tokio::io::split(client_relay);
    tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_client, &mut to_server).await;
    });
    let record = wire.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(from_server).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            record.lock().unwrap().push(line.clone());
            if to_client
                .write_all(format!("{line}\n").as_bytes())
                .await
                .is_err()
            {
                break;
            }
        }
    });
    (server_io, client_io, wire)
}

fn test_client(
    declared: ElicitationCapability,
) -> (
    TestClient,
    mpsc::UnboundedReceiver<ElicitationCompleteNotification>,
) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let client = TestClient {
        declared,
        answer: Arc::new(Mutex::new(Answer::Cancel)),
        received: Arc::default(),
        completions: sender,
    };
    (client, receiver)
}

/// A 2025-11-25 session over the `initialize` handshake.
async fn session(declared: ElicitationCapability) -> Session {
    let (server_io, client_io, wire) = tapped_pipe();
    let tracker = Arc::new(ElicitationTracker::new(UrlPolicy::production()));
    let server = TestServer {
        tracker: tracker.clone(),
    };
    let (handler, completions) = test_client(declared);
    let elicitation = Elicitation::new(seal());
    let (server, client) = tokio::join!(
        elicitation.serve(server, server_io),
        handler.clone().serve(client_io)
    );
    Session {
        client: client.unwrap(),
        handler,
        server: server.unwrap(),
        tracker,
        wire,
        completions,
    }
}

fn booking_content() -> Map<String, Value> {
    content(json!({"name": "Ada", "date": "2025-12-24", "extras": ["cake"]}))
}

// ---------------------------------------------------------------------------------------------
// Form mode

#[tokio::test]
async fn a_2025_11_25_session_is_negotiated_over_initialize() {
    let s = session(ElicitationCapability::form_and_url()).await;
    let server_side = s.peer().peer_info().unwrap().protocol_version.clone();
    let client_side = s.client.peer_info().unwrap().protocol_version.clone();
    assert_eq!(server_side, sdk::ProtocolVersion::V_2025_11_25);
    assert_eq!(client_side, sdk::ProtocolVersion::V_2025_11_25);
    assert!(s.peer().server_requests_allowed());
    assert_eq!(
        s.peer().client_elicitation(),
        Some(ElicitationCapability::form_and_url())
    );
}

#[tokio::test]
async fn accept_with_valid_content_gives_the_typed_value_with_defaults() {
    let s = session(ElicitationCapability::form()).await;
    s.handler.answer(Answer::Fill(booking_content()));
    let outcome = s.peer().ask().form::<Booking>().await.unwrap();
    assert_eq!(
        outcome,
        ElicitOutcome::Accepted(Booking {
            name: "Ada".to_owned(),
            date: "2025-12-24".to_owned(),
            guests: 2,
            seating: Seating::Indoor,
            extras: vec![Extra::Cake],
            voucher: None,
            newsletter: false,
        })
    );

    // The request on the wire: the spec's `elicitation/create` with the derived schema, pattern
    // included, read back by elicit's own parser. rmcp writes params through
    // `serde_json::Value`, whose map (without serde_json's `preserve_order`) is sorted, so the
    // properties arrive in name order.
    let sent = s.sent_text(ElicitRequest::METHOD);
    assert_eq!(sent.len(), 1);
    let request: ElicitRequest = serde_json::from_str(&sent[0]).unwrap();
    let ElicitRequestParams::Form(form) = request.params() else {
        panic!("not a form request")
    };
    assert_eq!(form.message, "Book a table");
    assert_eq!(
        by_name(&form.requested_schema),
        by_name(Booking::requested_schema())
    );
    let params = &s.sent(ElicitRequest::METHOD)[0]["params"];
    assert_eq!(params["mode"], "form");
    assert_eq!(
        params["requestedSchema"]["properties"]["voucher"]["pattern"],
        "^[A-Z]{2}[0-9]{3}$"
    );

    // rmcp's client hands its handler the same schema in rmcp's model, which has no pattern.
    let ElicitRequestParams::Form(received) = &s.handler.received()[0] else {
        panic!("not a form")
    };
    assert_eq!(
        by_name(&received.requested_schema),
        by_name(&booking_schema_in_rmcp_model())
    );
}

/// The properties of a schema, by name.
fn by_name(schema: &RequestedSchema) -> Vec<elicit_mcp::schema::Property> {
    let mut properties = schema.properties().to_vec();
    properties.sort_by(|a, b| a.name.cmp(&b.name));
    properties
}

#[tokio::test]
async fn the_server_fills_defaults_the_client_left_out() {
    let s = session(ElicitationCapability::form()).await;
    s.handler.answer(Answer::SendUnchecked(booking_content()));
    let Ok(ElicitOutcome::Accepted(booking)) = s.peer().ask().form::<Booking>().await else {
        panic!("not accepted")
    };
    assert_eq!(
        (booking.guests, booking.seating, booking.newsletter),
        (2, Seating::Indoor, false)
    );
}

#[tokio::test]
async fn accept_with_invalid_content_gives_every_field_error() {
    let s = session(ElicitationCapability::form()).await;
    s.handler.answer(Answer::SendUnchecked(content(json!({
        "name": "",
        "date": "24/12/2025",
        "guests": 40,
        "seating": "roof",
        "extras": ["cake", "cake"],
        "voucher": "nope",
    }))));
    let error = s
        .peer()
        .ask()
        .form::<Booking>()
        .with_reask(false)
        .await
        .unwrap_err();
    let fields: Vec<&str> = error
        .content_error()
        .unwrap()
        .errors()
        .iter()
        .map(|e| e.field())
        .collect();
    assert_eq!(
        fields,
        ["name", "date", "guests", "seating", "extras", "voucher"]
    );

    // The pattern was not sent, and is still enforced.
    let voucher = error.content_error().unwrap().field("voucher").unwrap();
    assert!(
        matches!(
            voucher.problem(),
            elicit_mcp::Problem::PatternMismatch { .. }
        ),
        "{voucher}"
    );

    let result = error.to_tool_result();
    assert_eq!(result.is_error, Some(true));
    let text = &result.content[0].as_text().unwrap().text;
    assert!(
        text.starts_with("the submitted form is invalid:\n`name`: "),
        "{text}"
    );
    assert_eq!(text.lines().count(), 7);

    let rpc = sdk::ErrorData::from(&error);
    assert_eq!(rpc.code, sdk::ErrorCode::INVALID_PARAMS);
    assert_eq!(rpc.data.unwrap()["errors"][5]["field"], "voucher");
}

#[tokio::test]
async fn decline_and_cancel_are_outcomes() {
    let s = session(ElicitationCapability::form()).await;
    s.handler.answer(Answer::Decline);
    assert_eq!(
        s.peer().ask().form::<Booking>().await.unwrap(),
        ElicitOutcome::Declined
    );
    s.handler.answer(Answer::Cancel);
    assert_eq!(
        s.peer()
            .ask()
            .form_with_message::<Booking>("Still hungry?")
            .await
            .unwrap(),
        ElicitOutcome::Cancelled
    );
    assert_eq!(s.handler.received()[1].message(), "Still hungry?");
}

#[tokio::test]
async fn a_client_error_answer_is_a_service_error() {
    // The client refuses to send what does not match the schema (accept_form checks it).
    let s = session(ElicitationCapability::form()).await;
    s.handler
        .answer(Answer::Fill(content(json!({"name": "Ada"}))));
    let error = s.peer().ask().form::<Booking>().await.unwrap_err();
    let ElicitError::Service(ServiceError::McpError(rpc)) = &error else {
        panic!("{error}")
    };
    assert_eq!(rpc.code, sdk::ErrorCode::INVALID_PARAMS);
    assert!(
        rpc.message.contains("`date`: is required"),
        "{}",
        rpc.message
    );
}

#[tokio::test]
async fn a_timeout_gives_up_waiting() {
    #[derive(Clone)]
    struct SlowClient;
    impl ClientHandler for SlowClient {
        fn get_info(&self) -> sdk::ClientConfig {
            sdk::InitializeRequestParams::new(
                sdk::ClientCapabilities::builder()
                    .enable_elicitation()
                    .build(),
                sdk::Implementation::new("slow", "0.0.0"),
            )
        }
        async fn create_elicitation(
            &self,
            _request: sdk::ElicitRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
            tokio::time::sleep(Duration::from_secs(30)).await;
            Ok(sdk::ElicitResult::new(sdk::ElicitationAction::Cancel))
        }
    }
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = TestServer {
        tracker: Arc::new(ElicitationTracker::new(UrlPolicy::production())),
    };
    let (server, client) = tokio::join!(server.serve(server_io), SlowClient.serve(client_io));
    let (server, _client) = (server.unwrap(), client.unwrap());
    let error = server
        .peer()
        .ask()
        .form_with_message::<Booking>("Quick!")
        .with_timeout(Duration::from_millis(50))
        .await
        .unwrap_err();
    assert!(
        matches!(error, ElicitError::TimedOut { waited } if waited == Duration::from_millis(50)),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "the user did not answer within 50 ms; the request was cancelled"
    );
}

#[tokio::test]
async fn a_tool_elicits_through_its_request_context() {
    let s = session(ElicitationCapability::form()).await;
    s.handler.answer(Answer::Fill(booking_content()));
    assert_eq!(
        call(&s.client, "book").await.unwrap(),
        "booked for Ada on 2025-12-24"
    );

    s.handler.answer(Answer::SendUnchecked(content(
        json!({"name": "Ada", "date": "soon", "extras": []}),
    )));
    let result = s
        .client
        .call_tool(sdk::CallToolRequestParams::new("book"))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    let text = &result.content[0].as_text().unwrap().text;
    assert!(
        text.starts_with("the submitted form is invalid:\n`date`: must be a date like 2026-12-24"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "only `date` is at fault: {text}");
}

// ---------------------------------------------------------------------------------------------
// URL mode

#[tokio::test]
async fn a_form_only_client_is_never_sent_a_url_request() {
    // `{}`: the spec's form-only capability.
    let s = session(serde_json::from_str("{}").unwrap()).await;
    let error = s
        .peer()
        .send_tracked_url(&s.tracker, &alice(), FILES_MESSAGE, connect_url)
        .await
        .unwrap_err();
    let ElicitError::ModeNotSupported(refusal) = &error else {
        panic!("{error}")
    };
    assert_eq!(
        (refusal.mode, refusal.elicitation_declared),
        (ElicitMode::Url, true)
    );
    assert!(s.sent(ElicitRequest::METHOD).is_empty(), "nothing was sent");
    assert!(s.tracker.store().is_empty(), "nothing was stored");

    // Nor told to complete one through -32042.
    let rpc = error_of(
        s.client
            .call_tool(sdk::CallToolRequestParams::new("files"))
            .await,
    );
    // The protocol's own error for a capability the client did not declare, naming it.
    assert_eq!(
        rpc.code.0,
        elicit_mcp::wire::JsonRpcError::MISSING_REQUIRED_CLIENT_CAPABILITY
    );
    assert_eq!(
        rpc.data,
        Some(json!({"requiredCapabilities": {"elicitation": {"url": {}}}}))
    );
    assert!(s.tracker.store().is_empty());

    // Form mode still works: `{}` means form.
    s.handler.answer(Answer::Decline);
    assert_eq!(
        s.peer().ask().form::<Booking>().await.unwrap(),
        ElicitOutcome::Declined
    );
}

#[tokio::test]
async fn the_url_flow_ends_with_the_completion_notification() {
    let mut s = session(ElicitationCapability::form_and_url()).await;
    let peers = ConnectionPeers::new();
    peers.register(alice().connection, s.peer().clone());

    s.handler.answer(Answer::Consent);
    let sent = s
        .peer()
        .send_tracked_url(&s.tracker, &alice(), FILES_MESSAGE, connect_url)
        .await
        .unwrap();
    assert!(sent.outcome().is_accepted(), "{:?}", sent.outcome());
    let id = sent.id().clone();

    // The client got the spec's URL-mode request.
    let mut request = s.sent(ElicitRequest::METHOD)[0]["params"].clone();
    // rmcp adds a progress token to every request it sends.
    assert!(request.as_object_mut().unwrap().remove("_meta").is_some());
    assert_eq!(
        request,
        json!({"mode": "url", "elicitationId": id.as_str(), "url": connect_url(&id), "message": FILES_MESSAGE})
    );
    let ElicitRequestParams::Url(url) = &s.handler.received()[0] else {
        panic!("not a URL request")
    };
    assert_eq!(url.elicitation_id(), &id);

    // The connect page: the user signs in, the tracker completes it for them, and the
    // notification goes to their connection.
    let completed = s
        .tracker
        .complete(id.as_str(), &alice().user)
        .await
        .unwrap();
    assert!(peers.notify(&completed).await.unwrap());
    let received = tokio::time::timeout(Duration::from_secs(5), s.completions.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(received.elicitation_id(), &id);

    // Exactly the spec's notification on the wire.
    let notification = &s.sent_text(ElicitationCompleteNotification::METHOD)[0];
    assert_eq!(
        serde_json::from_str::<Value>(notification).unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
            "params": {"elicitationId": id.as_str()}})
    );

    // Completed once: the entry is gone.
    assert!(
        s.tracker
            .complete(id.as_str(), &alice().user)
            .await
            .is_err()
    );
    peers.remove(&alice().connection);
    assert!(
        !peers.notify(&completed).await.unwrap(),
        "no connection, nothing sent"
    );
}

#[tokio::test]
async fn a_declined_url_elicitation_is_discarded() {
    let s = session(ElicitationCapability::form_and_url()).await;
    s.handler.answer(Answer::Decline);
    let sent = s
        .peer()
        .send_tracked_url(&s.tracker, &alice(), FILES_MESSAGE, connect_url)
        .await
        .unwrap();
    assert_eq!(sent.outcome(), &ElicitOutcome::Declined);
    assert!(s.tracker.store().is_empty());
}

#[tokio::test]
async fn url_elicitation_required_reaches_the_client_as_the_spec_error() {
    let mut s = session(ElicitationCapability::form_and_url()).await;
    let rpc = error_of(
        s.client
            .call_tool(sdk::CallToolRequestParams::new("files"))
            .await,
    );
    let required = UrlElicitationRequiredError::try_from(&rpc).unwrap();
    let id = required.elicitations()[0].elicitation_id().clone();
    assert_eq!(s.tracker.store().len(), 1);

    // On the wire: the spec's error response, word for word.
    let response: Value = s
        .wire
        .lock()
        .unwrap()
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|message| message.get("error").is_some())
        .unwrap();
    assert_eq!(
        response["error"],
        json!({"code": -32042, "message": REQUIRED_MESSAGE, "data": {"elicitations": [{
            "mode": "url", "elicitationId": id.as_str(), "url": connect_url(&id),
            "message": FILES_MESSAGE}]}})
    );

    // The client waits for the completion, then retries.
    let mut watch = UrlElicitationWatch::new();
    assert_eq!(watch.retry_after("files", &required), Ok(None));
    let completed = s
        .tracker
        .complete(id.as_str(), &alice().user)
        .await
        .unwrap();
    s.peer()
        .notify_elicitation_complete(completed.notification().message())
        .await
        .unwrap();
    let received = tokio::time::timeout(Duration::from_secs(5), s.completions.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        watch.on_complete(&received),
        elicit_mcp::client::Completion::Completed {
            ready_to_retry: vec!["files"]
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Protocol 2026-07-28

/// A 2026-07-28 session, set up directly (that revision has no `initialize`), as rmcp's own
/// tests of the input-required flow do.
async fn session_2026(
    declared: ElicitationCapability,
) -> (RunningService<RoleClient, TestClient>, Peer<RoleServer>) {
    let (handler, _) = test_client(declared);
    handler.answer(Answer::Fill(booking_content()));
    let server = TestServer {
        tracker: Arc::new(ElicitationTracker::new(UrlPolicy::production())),
    };
    let elicitation = Elicitation::new(seal());
    let (peer, client) = serve(
        &elicitation,
        server,
        handler,
        sdk::ProtocolVersion::V_2026_07_28,
    )
    .await;
    (client, peer)
}

#[tokio::test]
async fn on_2026_07_28_the_same_form_goes_through_input_required() {
    let (client, server_peer) = session_2026(ElicitationCapability::form()).await;

    // Requests to the client are refused before anything is sent.
    assert!(!server_peer.server_requests_allowed());
    let error = server_peer.ask().form::<Booking>().await.unwrap_err();
    assert!(
        matches!(&error, ElicitError::RequestsNotAllowed { protocol_version } if protocol_version == "2026-07-28")
    );

    // The tool answers with an input-required result; rmcp's client answers the elicitation
    // through its handler and retries; the tool reads the answer with the derived parser.
    assert_eq!(
        call(&client, "book").await.unwrap(),
        "booked for Ada on 2025-12-24"
    );
    assert_eq!(
        client.service().received().len(),
        1,
        "one elicitation, answered once"
    );
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Booking);
}
