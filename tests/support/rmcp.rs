//! What the tests on rmcp share: a server and a client serving each other over an in-memory
//! duplex on either protocol revision, the key that seals `requestState`, the client's
//! declaration, sampling and roots as a scripted client answers them, the completion
//! notifications it receives, and readers of what a tool call returned.

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleClient, RoleServer, RunningService, ServiceError, serve_directly};
use ::rmcp::{ClientHandler, ServerHandler, ServiceExt};
use elicit_mcp::rmcp::{Elicitation, RequestStateSeal};
use elicit_mcp::wire::{ElicitationCapability, ElicitationCompleteNotification};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Serves `server` through `elicitation` and `client` to each other over an in-memory duplex
/// on `protocol`: on 2025-11-25 over the `initialize` handshake; on 2026-07-28, which has no
/// handshake, each end starts with what the other is (its `get_info`, on `protocol`), as rmcp's
/// own tests of the input-required flow do. The server runs in a task of its own; its peer and
/// the running client come back.
pub async fn serve<S: ServerHandler, C: ClientHandler>(
    elicitation: &Elicitation,
    server: S,
    client: C,
    protocol: sdk::ProtocolVersion,
) -> (Peer<RoleServer>, RunningService<RoleClient, C>) {
    pair(
        server,
        client,
        protocol,
        |server, io| elicitation.serve(server, io),
        |server, io, client_info| {
            elicitation
                .serve_directly(server, io, Some(client_info))
                .expect("the server starts")
        },
    )
    .await
}

/// As [`serve`], with rmcp alone: `server` is not served through an `Elicitation`.
pub async fn serve_alone<S: ServerHandler, C: ClientHandler>(
    server: S,
    client: C,
    protocol: sdk::ProtocolVersion,
) -> (Peer<RoleServer>, RunningService<RoleClient, C>) {
    pair(
        server,
        client,
        protocol,
        |server, io| server.serve(io),
        |server, io, client_info| {
            serve_directly::<RoleServer, _, _, _, _>(server, io, Some(client_info))
        },
    )
    .await
}

/// `server`, started by `handshake` (2025-11-25) or `direct` (2026-07-28), and `client`, on
/// the two ends of one duplex.
async fn pair<H, S, C, E, F>(
    server: H,
    client: C,
    protocol: sdk::ProtocolVersion,
    handshake: impl FnOnce(H, tokio::io::DuplexStream) -> F,
    direct: impl FnOnce(H, tokio::io::DuplexStream, sdk::ClientConfig) -> RunningService<RoleServer, S>,
) -> (Peer<RoleServer>, RunningService<RoleClient, C>)
where
    S: ServerHandler,
    C: ClientHandler,
    E: std::fmt::Debug,
    F: std::future::Future<Output = Result<RunningService<RoleServer, S>, E>>,
{
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    if protocol == sdk::ProtocolVersion::V_2025_11_25 {
        let (running_server, client) =
            tokio::join!(handshake(server, server_io), client.serve(client_io));
        let running_server = running_server.expect("the server starts");
        let peer = running_server.peer().clone();
        tokio::spawn(async move {
            let _ = running_server.waiting().await;
        });
        return (peer, client.expect("the client starts"));
    }
    let mut client_info = client.get_info();
    client_info.protocol_version = protocol.clone();
    let running_server = direct(server, server_io, client_info);
    let mut server_info = running_server.service().get_info();
    server_info.protocol_version = protocol;
    let peer = running_server.peer().clone();
    tokio::spawn(async move {
        let _ = running_server.waiting().await;
    });
    let client =
        serve_directly::<RoleClient, _, _, _, _>(client, client_io, Some(server_info.into()));
    (peer, client)
}

/// A seal of `requestState` under the tests' key.
pub fn seal() -> RequestStateSeal {
    RequestStateSeal::from_keyring("k1", [("k1", b"the-test-key-of-at-least-32-bytes")])
        .expect("the test key is long enough")
}

/// What a test client named `name` says in `initialize` (or, on 2026-07-28, is known by): the
/// `declared` elicitation capability (none when `None`), and `sampling` and `roots` when
/// `sampling_and_roots`.
pub fn client_info(
    name: &str,
    protocol: sdk::ProtocolVersion,
    declared: Option<&ElicitationCapability>,
    sampling_and_roots: bool,
) -> sdk::ClientConfig {
    let mut capabilities = declared.map_or_else(sdk::ClientCapabilities::default, |declared| {
        sdk::ClientCapabilities::try_from(declared).expect("rmcp carries the declaration")
    });
    #[allow(deprecated)]
    if sampling_and_roots {
        let both: sdk::ClientCapabilities =
            serde_json::from_value(json!({"sampling": {}, "roots": {}})).unwrap();
        capabilities.sampling = both.sampling;
        capabilities.roots = both.roots;
    }
    sdk::InitializeRequestParams::new(capabilities, sdk::Implementation::new(name, "0.0.0"))
        .with_protocol_version(protocol)
}

/// A client's `on_custom_notification`: sends a `notifications/elicitation/complete` on to
/// `completions`, for the test to wait on.
pub fn forward_completion(
    notification: &sdk::CustomNotification,
    completions: &mpsc::UnboundedSender<ElicitationCompleteNotification>,
) {
    if let Ok(complete) = ElicitationCompleteNotification::try_from(notification) {
        let _ = completions.send(complete);
    }
}

/// A tool's successful result: one text block.
pub fn text(text: impl Into<String>) -> sdk::CallToolResult {
    sdk::CallToolResult::success(vec![sdk::ContentBlock::text(text)])
}

/// The question a tool asks by sampling, answered by [`capital`].
#[allow(deprecated)] // rmcp deprecates sampling and roots (SEP-2577).
pub fn capital_question() -> sdk::CreateMessageRequestParams {
    serde_json::from_value(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}],
        "maxTokens": 20
    }))
    .unwrap()
}

/// A client's answer to a sampling request: the model says "Paris".
#[allow(deprecated)]
pub fn capital() -> sdk::CreateMessageResult {
    serde_json::from_value(json!({
        "role": "assistant",
        "content": {"type": "text", "text": "Paris"},
        "model": "test-model"
    }))
    .unwrap()
}

/// A client's roots: `file:///work` alone.
#[allow(deprecated)]
pub fn work_root() -> sdk::ListRootsResult {
    serde_json::from_value(json!({"roots": [{"uri": "file:///work", "name": "work"}]})).unwrap()
}

/// The whole `tools/call`, rmcp's client answering and retrying as it does: the text of the
/// result's first block.
pub async fn call<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    tool: &str,
) -> Result<String, ServiceError> {
    let result = client
        .call_tool(sdk::CallToolRequestParams::new(tool.to_owned()))
        .await?;
    Ok(result.content[0].as_text().unwrap().text.clone())
}

/// The input-required result of one round, which `response` must be.
pub fn input_required(response: sdk::CallToolResponse) -> sdk::InputRequiredResult {
    match response {
        sdk::CallToolResponse::InputRequired(result) => result,
        other => panic!("expected an input-required result, got {other:?}"),
    }
}

/// The text of the first block of the tool's result, which `response` must be.
pub fn completed_text(response: sdk::CallToolResponse) -> String {
    match response {
        sdk::CallToolResponse::Complete(result) => {
            result.content[0].as_text().unwrap().text.clone()
        }
        other => panic!("expected a complete result, got {other:?}"),
    }
}

/// The JSON-RPC error that `result` must be.
pub fn error_of<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> sdk::ErrorData {
    match result {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// The first string under a key `url` in `value`, at any depth: the link of a URL-mode ask,
/// wherever a revision's message puts it.
pub fn first_url(value: &Value) -> Option<String> {
    match value {
        Value::Object(map) => map
            .get("url")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| map.values().find_map(first_url)),
        Value::Array(items) => items.iter().find_map(first_url),
        _ => None,
    }
}
