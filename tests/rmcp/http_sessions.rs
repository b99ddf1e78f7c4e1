//! `elicit_mcp::http::Guard` over real HTTP on loopback, in front of rmcp's streamable HTTP
//! service and the conformance server's tools, with authentication: a 2025-11-25 session is
//! its opener's (another user's credentials on it get the 404 of an unknown session, on POST,
//! GET and DELETE, while its opener goes on), a refusal (401, or that 404) answered once the
//! body is read, on a connection that serves the next request, and a browser `Origin` outside
//! the allowed ones refused 403 before the credentials are checked and before the body is read.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::request::Parts;
use elicit_mcp::http::{Guard, Unauthenticated};
use elicit_mcp::rmcp::Tasks;
use elicit_mcp::server::UserId;
use elicit_test_support::rmcp::seal;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::http_guard::{Event, Events, answer_within, client};
use crate::conformance_server::ConformanceServer;

use crate::http_guard::session_opened_by;

/// A guarded server on a free loopback port; stopped when dropped.
struct Server {
    url: String,
    address: SocketAddr,
    /// How many times the server's authentication ran.
    checks: Arc<AtomicUsize>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

/// The conformance server behind `guard`, its users told by `Authorization: Bearer NAME` (the
/// user `NAME`), or with no authentication at all.
async fn start(guard: Guard, authenticated: bool) -> Server {
    start_configured(guard, authenticated, StreamableHttpServerConfig::default()).await
}

/// As [`start`], with rmcp's `config`.
async fn start_configured(
    guard: Guard,
    authenticated: bool,
    config: StreamableHttpServerConfig,
) -> Server {
    let checks = Arc::new(AtomicUsize::new(0));
    let mut elicitation = ConformanceServer::elicitation(seal(), Tasks::new());
    if authenticated {
        let counted = checks.clone();
        elicitation = elicitation.with_authentication(move |request: &Parts| {
            counted.fetch_add(1, Ordering::SeqCst);
            let name = Unauthenticated::bearer_token(request)?;
            UserId::from_verified_subject(name)
                .map_err(|_| Unauthenticated::bearer("invalid_token"))
        });
    }
    let cancel = config.cancellation_token.clone();
    let sessions = Arc::new(LocalSessionManager::default());
    let guarded = guard
        .serve(&elicitation, ConformanceServer::new, sessions, config)
        .expect("the fixtures' task tools are the server's");
    let app = axum::Router::new().nest_service("/mcp", guarded);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stopped.await;
            cancel.cancel();
        })
        .await
    });
    Server {
        url: format!("http://{address}/mcp"),
        address,
        checks,
        _stop: stop,
    }
}

/// A request of `method` to the server as `user` (none: no credentials).
fn as_user(
    server: &Server,
    method: reqwest::Method,
    user: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = client().request(method, &server.url);
    match user {
        Some(user) => request.bearer_auth(user),
        None => request,
    }
}

/// A 2025-11-25 session opened by `user` (`initialize`, then `notifications/initialized`).
async fn open_session(server: &Server, user: &str) -> String {
    let session = session_opened_by(as_user(server, reqwest::Method::POST, Some(user))).await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        on_session(server, &session, user, initialized).await.status,
        202
    );
    session
}

/// A POST on `session` as `user`.
fn session_post(
    server: &Server,
    session: &str,
    user: &str,
    body: &Value,
) -> reqwest::RequestBuilder {
    as_user(server, reqwest::Method::POST, Some(user))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .header("mcp-session-id", session)
        .body(body.to_string())
}

/// What came back, whole: status, content type, body.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    status: u16,
    content_type: Option<String>,
    body: String,
}

async fn answer(response: reqwest::Response) -> Answer {
    Answer {
        status: response.status().as_u16(),
        content_type: response
            .headers()
            .get("content-type")
            .map(|kind| kind.to_str().unwrap().to_owned()),
        body: response.text().await.unwrap(),
    }
}

async fn on_session(server: &Server, session: &str, user: &str, body: Value) -> Answer {
    answer(
        session_post(server, session, user, &body)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// A GET of `session`'s event stream as `user`, resuming after `last_event_id` if given.
fn stream_of(
    server: &Server,
    session: &str,
    user: &str,
    last_event_id: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = as_user(server, reqwest::Method::GET, Some(user))
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .header("mcp-session-id", session);
    match last_event_id {
        Some(id) => request.header("last-event-id", id),
        None => request,
    }
}

async fn delete(server: &Server, session: &str, user: &str) -> Answer {
    let response = as_user(server, reqwest::Method::DELETE, Some(user))
        .header("mcp-protocol-version", "2025-11-25")
        .header("mcp-session-id", session)
        .send()
        .await
        .unwrap();
    answer(response).await
}

/// A call to `test_elicitation` on `session`: its stream, and the ask it sent on it.
async fn call_that_asks(server: &Server, session: &str, user: &str) -> (Events, Event) {
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "test_elicitation", "arguments": {"message": "Who are you?"}}});
    let response = session_post(server, session, user, &call)
        .send()
        .await
        .unwrap();
    let mut stream = Events::of(response);
    let ask = stream.next().await;
    assert_eq!(ask.data["method"], "elicitation/create", "{}", ask.data);
    (stream, ask)
}

/// The answer to `ask` a client sends.
fn answer_to(ask: &Event) -> Value {
    json!({"jsonrpc": "2.0", "id": ask.data["id"], "result": {
        "action": "accept", "content": {"username": "ada", "email": "ada@example.com"}}})
}

#[tokio::test]
async fn another_users_credentials_on_a_session_get_the_404_of_an_unknown_session() {
    let server = start(Guard::new(), true).await;
    let session = open_session(&server, "ada").await;
    // Ada's call waits on her answer; its connection breaks, as one resumed later.
    let (stream, ask) = call_that_asks(&server, &session, "ada").await;
    drop(stream);
    let ask_id = ask
        .id
        .clone()
        .expect("rmcp names every event of a call's stream");

    // Whatever bob sends on ada's session is answered as on a session that does not exist.
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    for (what, body) in [
        ("a request", list),
        ("the answer to her ask", answer_to(&ask)),
    ] {
        let on_hers = on_session(&server, &session, "bob", body.clone()).await;
        let on_none = on_session(&server, "no-such-session", "bob", body).await;
        assert_eq!(on_hers.status, 404, "bob's POST of {what}: {on_hers:?}");
        assert_eq!(on_hers, on_none, "bob's POST of {what}");
    }
    for last_event_id in [None, Some(ask_id.as_str())] {
        let hers = stream_of(&server, &session, "bob", last_event_id);
        let none = stream_of(&server, "no-such-session", "bob", last_event_id);
        let on_hers = answer(hers.send().await.unwrap()).await;
        let on_none = answer(none.send().await.unwrap()).await;
        assert_eq!(
            on_hers.status, 404,
            "bob's GET after {last_event_id:?}: {on_hers:?}"
        );
        assert_eq!(on_hers, on_none, "bob's GET after {last_event_id:?}");
    }
    let on_hers = delete(&server, &session, "bob").await;
    assert_eq!(on_hers.status, 404, "{on_hers:?}");
    assert_eq!(on_hers, delete(&server, "no-such-session", "bob").await);

    // Ada's session is untouched: she resumes her call's stream, answers, and gets its result.
    let mut resumed = Events::of(
        stream_of(&server, &session, "ada", Some(&ask_id))
            .send()
            .await
            .unwrap(),
    );
    assert_eq!(
        on_session(&server, &session, "ada", answer_to(&ask))
            .await
            .status,
        202
    );
    let result = loop {
        let event = resumed.next().await;
        if event.data["id"] == 2 {
            break event.data;
        }
    };
    assert!(result.to_string().contains("ada@example.com"), "{result}");
    // Her own DELETE ends it; from then on it is unknown to her too.
    assert_eq!(delete(&server, &session, "ada").await.status, 204);
    let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"});
    assert_eq!(on_session(&server, &session, "ada", list).await.status, 404);
}

/// Sends a JSON POST of `body` on `stream`, kept alive, with `headers` (each ending in CRLF):
/// its head first, its body once the server has had the time to answer without it, as a
/// client's body that comes in a packet of its own.
async fn post_body_late(stream: &mut TcpStream, address: SocketAddr, headers: &str, body: &str) {
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-11-25\r\n\
         {headers}content-length: {}\r\n\r\n",
        body.len()
    );
    let closed = |error| panic!("the server closed the connection: {error}");
    stream
        .write_all(head.as_bytes())
        .await
        .unwrap_or_else(closed);
    tokio::time::sleep(Duration::from_millis(200)).await;
    stream
        .write_all(body.as_bytes())
        .await
        .unwrap_or_else(closed);
}

/// One answer read from a kept-alive `stream`, its body by its `content-length`: its head, in
/// lower case; `None` when the server closed the connection instead.
async fn one_answer(stream: &mut TcpStream) -> Option<String> {
    let mut read = Vec::new();
    let head_end = loop {
        if let Some(at) = read.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if read_some(stream, &mut read).await == 0 {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&read[..head_end]).to_lowercase();
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length: "))
        .map(|length| length.trim().parse().unwrap())
        .unwrap_or(0);
    while read.len() < head_end + length {
        assert!(
            read_some(stream, &mut read).await > 0,
            "the connection closed inside the body"
        );
    }
    Some(head)
}

/// Reads what comes on `stream` within 5 s into `read`: how many bytes (0: closed).
async fn read_some(stream: &mut TcpStream, read: &mut Vec<u8>) -> usize {
    use tokio::io::AsyncReadExt;
    let mut buffer = [0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer))
        .await
        .expect("the server answers within 5 s")
        .unwrap_or(0);
    read.extend_from_slice(&buffer[..n]);
    n
}

#[tokio::test]
async fn a_refusal_reads_the_body_first_and_its_connection_serves_the_next_request() {
    let server = start(Guard::new(), true).await;
    let session = open_session(&server, "ada").await;
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}).to_string();
    let on_adas = format!("authorization: Bearer bob\r\nmcp-session-id: {session}\r\n");
    for (what, headers, status) in [
        ("without credentials", String::new(), "401"),
        ("bob's on ada's session", on_adas, "404"),
    ] {
        let mut stream = TcpStream::connect(server.address).await.unwrap();
        post_body_late(&mut stream, server.address, &headers, &list).await;
        let head = one_answer(&mut stream)
            .await
            .unwrap_or_else(|| panic!("a POST {what} was not answered"));
        assert!(
            head.starts_with(&format!("http/1.1 {status} ")),
            "{what}: {head}"
        );
        assert!(!head.contains("connection: close"), "{what}: {head}");
        // The same connection, as a client reuses it: bob's own request is served on it.
        post_body_late(
            &mut stream,
            server.address,
            "authorization: Bearer bob\r\n",
            &list,
        )
        .await;
        let next = one_answer(&mut stream).await;
        let head = next.unwrap_or_else(|| panic!("the connection closed after a POST {what}"));
        assert!(
            head.starts_with("http/1.1 "),
            "the next request after {what}: {head}"
        );
    }
}

#[tokio::test]
async fn a_session_of_a_server_without_authentication_is_served_as_before() {
    let server = start(Guard::new(), false).await;
    let session = open_session(&server, "ada").await;
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let answer = on_session(&server, &session, "bob", list).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(answer.body.contains("test_elicitation"), "{}", answer.body);
    assert_eq!(delete(&server, &session, "bob").await.status, 204);
}

/// Sends the head of an `initialize` POST from `origin` whose body (`length` bytes) never
/// comes, and reads what is answered within 5 s.
async fn post_without_its_body(server: &Server, origin: &str, length: usize) -> Option<String> {
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\norigin: {origin}\r\nauthorization: Bearer ada\r\n\
         content-type: application/json\r\naccept: application/json, text/event-stream\r\n\
         connection: close\r\ncontent-length: {length}\r\n\r\n",
        server.address
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    answer_within(&mut stream, Duration::from_secs(5)).await
}

/// An `initialize` from `origin` (none: no `Origin` header), as ada: its status.
async fn initialize_from(server: &Server, origin: Option<&str>) -> u16 {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "origin-test", "version": "0"}}});
    let mut request = as_user(server, reqwest::Method::POST, Some("ada"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(initialize.to_string());
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    request.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn a_foreign_origin_is_refused_before_the_credentials_and_the_body_are_looked_at() {
    let server = start(Guard::new(), true).await;
    let own = format!("http://{}", server.address);
    let other_port = format!("http://127.0.0.1:{}", server.address.port() + 1);
    for origin in ["http://evil.example", "null", other_port.as_str()] {
        // The body never comes: an answer at all says it was not waited for.
        let answer = post_without_its_body(&server, origin, 1000)
            .await
            .unwrap_or_else(|| panic!("{origin}: no answer while the body was awaited"));
        assert!(answer.starts_with("HTTP/1.1 403"), "{origin}: {answer}");
        assert!(answer.contains("Origin"), "{answer}");
    }
    assert_eq!(
        server.checks.load(Ordering::SeqCst),
        0,
        "authentication ran"
    );
    // Any method: the event stream and DELETE too.
    let get = as_user(&server, reqwest::Method::GET, Some("ada"))
        .header("origin", "http://evil.example")
        .header("accept", "text/event-stream")
        .header("mcp-session-id", "any");
    assert_eq!(get.send().await.unwrap().status(), 403);
    assert_eq!(
        server.checks.load(Ordering::SeqCst),
        0,
        "authentication ran"
    );

    // Its own origin, and a client that sends none, are served.
    assert_eq!(initialize_from(&server, Some(&own)).await, 200);
    assert_eq!(initialize_from(&server, None).await, 200);
    assert_eq!(server.checks.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_allowed_origins_given_replace_the_servers_own() {
    let guard = Guard::new()
        .with_allowed_origins(["https://app.example"])
        .expect("an origin");
    let server = start(guard, true).await;
    assert_eq!(
        initialize_from(&server, Some("https://app.example")).await,
        200
    );
    let own = format!("http://{}", server.address);
    assert_eq!(initialize_from(&server, Some(&own)).await, 403);
    assert_eq!(
        initialize_from(&server, Some("http://app.example")).await,
        403
    );
    assert_eq!(initialize_from(&server, None).await, 200);
    assert_eq!(server.checks.load(Ordering::SeqCst), 2);
}

/// rmcp's session store shared by two replicas, in memory.
#[derive(Default)]
struct SharedStore(std::sync::Mutex<std::collections::HashMap<String, SessionState>>);

type Stored<'a, T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, SessionStoreError>> + Send + 'a>>;

impl SessionStore for SharedStore {
    fn load<'a, 'b, 'c>(&'a self, id: &'b str) -> Stored<'c, Option<SessionState>>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        let state = self.0.lock().unwrap().get(id).cloned();
        Box::pin(async move { Ok(state) })
    }

    fn store<'a, 'b, 'c, 'd>(&'a self, id: &'b str, state: &'c SessionState) -> Stored<'d, ()>
    where
        'a: 'd,
        'b: 'd,
        'c: 'd,
        Self: 'd,
    {
        self.0.lock().unwrap().insert(id.to_owned(), state.clone());
        Box::pin(async { Ok(()) })
    }

    fn delete<'a, 'b, 'c>(&'a self, id: &'b str) -> Stored<'c, ()>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        self.0.lock().unwrap().remove(id);
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test]
async fn a_session_restored_on_another_replica_is_still_its_openers_alone() {
    let store = Arc::new(SharedStore::default());
    let first = start_with_store(Guard::new(), store.clone()).await;
    let second = start_with_store(Guard::new(), store.clone()).await;
    let session = open_session(&first, "ada").await;
    // What rmcp stored carries the owner; the handler's replay of `initialize` does not.
    let stored = store.0.lock().unwrap()[&session].clone();
    let meta = serde_json::to_value(&stored.initialize_params).unwrap()["_meta"].clone();
    assert_eq!(meta["io.github.elicit-mcp/sessionOwner"], "ada", "{meta}");

    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    // Bob on the replica that does not hold it: as unknown, and not restored for him.
    let bobs = on_session(&second, &session, "bob", list.clone()).await;
    assert_eq!(
        bobs,
        on_session(&second, "no-such-session", "bob", list.clone()).await
    );
    assert_eq!(bobs.status, 404);
    // Ada there: restored, and served.
    let adas = on_session(&second, &session, "ada", list.clone()).await;
    assert_eq!(adas.status, 200, "{adas:?}");
    assert!(adas.body.contains("test_elicitation"), "{}", adas.body);
    // Now held by both, still not bob's on either.
    for replica in [&first, &second] {
        assert_eq!(
            on_session(replica, &session, "bob", list.clone())
                .await
                .status,
            404
        );
    }
}

/// As [`start`], with authentication, the replicas' sessions kept in `store` too.
async fn start_with_store(guard: Guard, store: Arc<SharedStore>) -> Server {
    let store: Arc<dyn SessionStore> = store;
    let mut config = StreamableHttpServerConfig::default();
    config.session_store = Some(store);
    start_configured(guard, true, config).await
}

#[test]
fn an_allowed_origin_that_is_no_origin_is_refused_by_name() {
    for entry in [
        "https://app.example/path",
        "app.example",
        "null",
        "https://ada@app.example",
    ] {
        let refused = Guard::new()
            .with_allowed_origins([entry])
            .map(drop)
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!(
                "the allowed origin `{entry}` is not an origin: give `scheme://host[:port]`, \
                 without a path"
            )
        );
    }
}
