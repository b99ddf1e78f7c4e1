//! URL-mode elicitation end to end, on loopback only.
//!
//! An MCP server's tool needs the user's Example Co account. The first call answers -32042 with
//! a URL elicitation pointing at the server's own connect page, served here by a small HTTP
//! server on 127.0.0.1. The page checks who the browser's session cookie says the user is
//! against who started the elicitation, completes it, and sends
//! `notifications/elicitation/complete` to the client connection that started it. The client,
//! told so, retries the call, which now succeeds.
//!
//! On the way, the spec's phishing attack is tried: another user opens the link and is refused.
//!
//! ```sh
//! cargo run -p elicit-examples --example url_connect
//! ```

use std::collections::HashMap;
use std::error::Error;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use elicit_mcp::client::{Completion, UrlElicitationWatch, UrlReview};
use elicit_mcp::server::{
    CompletionError, ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId,
};
use elicit_mcp::wire::{
    ElicitationCapability, ElicitationCompleteNotification, JsonRpcError,
    UrlElicitationRequiredError,
};

type BoxError = Box<dyn Error + Send + Sync>;

/// What happened, for the reader and for the test that runs this example.
#[derive(Debug, Default)]
pub struct Outcome {
    /// One line per step.
    pub transcript: Vec<String>,
    /// The JSON-RPC error code of the first tool call.
    pub first_call_code: i32,
    /// The HTTP status the connect page gave another user's browser.
    pub other_user_status: u16,
    /// The HTTP status it gave the right user's browser.
    pub user_status: u16,
    /// The HTTP status it gave the same link opened a second time.
    pub replay_status: u16,
    /// Whether the other user's connection received any notification.
    pub other_connection_notified: bool,
    /// The result of the retried tool call.
    pub retried_result: String,
}

fn main() -> Result<(), BoxError> {
    let outcome = run()?;
    for line in &outcome.transcript {
        println!("{line}");
    }
    Ok(())
}

/// The MCP server: its elicitation tracker, the third-party tokens it holds per user, the
/// browser sessions of its own login, and a channel per client connection.
struct McpServer {
    tracker: ElicitationTracker,
    base_url: String,
    tokens: Mutex<HashMap<UserId, String>>,
    /// Session cookie -> user, as the server's own login (or its authorization server) set it.
    browser_sessions: HashMap<String, UserId>,
    connections: Mutex<HashMap<ConnectionId, Sender<String>>>,
}

impl McpServer {
    /// `tools/call list_files`: needs an Example Co token for the calling user.
    fn list_files(
        &self,
        caller: &Initiator,
        client: &ElicitationCapability,
    ) -> Result<String, JsonRpcError> {
        if let Some(token) = lock(&self.tokens).get(&caller.user) {
            return Ok(format!("3 files, listed with {token}"));
        }
        // The tracker is async (a store shared by replicas does network I/O); this synchronous
        // server waits on it with pollster's `block_on`, which is all it needs of a runtime.
        let pending = pollster::block_on(self.tracker.start(
            caller,
            Some(client),
            "Authorization is required to access your Example Co files.",
            |id| format!("{}/connect?elicitationId={id}", self.base_url),
        ))
        .map_err(|e| JsonRpcError {
            code: -32603,
            message: e.to_string(),
            data: None,
        })?;
        Err(pending
            .required_error("This request requires more information.")
            .into())
    }

    /// The connect page: `GET /connect?elicitationId=...`.
    fn connect_page(&self, path: &str, cookie: Option<&str>) -> (u16, String) {
        let Some(id) = query_value(path, "elicitationId") else {
            return (400, "missing elicitationId".into());
        };
        // Who is this browser? The server's own session says so, never the URL.
        let Some(user) = cookie.and_then(|c| self.browser_sessions.get(c)) else {
            return (401, "sign in first".into());
        };
        // The same user who started the elicitation? (A real server checks this, redirects to
        // the third party, and completes in the callback, checking again.)
        if let Err(e) = pollster::block_on(self.tracker.verify(&id, user)) {
            return refusal(&e);
        }
        let completed = match pollster::block_on(self.tracker.complete(&id, user)) {
            Ok(completed) => completed,
            Err(e) => return refusal(&e),
        };
        lock(&self.tokens).insert(completed.user().clone(), "example-co-token".into());
        let (to, notification) = completed.notification().into_parts();
        if let Some(channel) = lock(&self.connections).get(&to) {
            let text = serde_json::to_string(&notification).unwrap_or_default();
            // A closed connection just misses the optional notification.
            let _ = channel.send(text);
        }
        (200, "Connected. You can close this tab.".into())
    }

    fn handle(&self, request: tiny_http::Request) {
        let cookie = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Cookie"))
            .and_then(|h| h.value.as_str().strip_prefix("session="))
            .map(str::to_owned);
        let (status, body) = if request.url().starts_with("/connect?") {
            self.connect_page(request.url(), cookie.as_deref())
        } else {
            (404, "not found".into())
        };
        let response = tiny_http::Response::from_string(body).with_status_code(status);
        // The browser may have gone; nothing to do about it.
        let _ = request.respond(response);
    }
}

fn refusal(error: &CompletionError) -> (u16, String) {
    let status = match error {
        CompletionError::WrongUser => 403,
        CompletionError::NotPending => 404,
        CompletionError::Expired => 410,
        _ => 500,
    };
    (status, error.to_string())
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn query_value(path: &str, name: &str) -> Option<String> {
    let query = path.split_once('?')?.1;
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// A browser: one GET with a session cookie, answered with the status code.
fn browser_get(url: &str, session: &str) -> Result<u16, BoxError> {
    let parsed = url::Url::parse(url)?;
    let addr: SocketAddr = parsed
        .socket_addrs(|| None)?
        .into_iter()
        .next()
        .ok_or("no address")?;
    if !addr.ip().is_loopback() {
        return Err(format!("this example only talks to loopback, not {addr}").into());
    }
    let mut path = parsed.path().to_owned();
    if let Some(query) = parsed.query() {
        path = format!("{path}?{query}");
    }
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: session={session}\r\nConnection: close\r\n\r\n"
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response
        .split_whitespace()
        .nth(1)
        .ok_or("empty response")?
        .parse()?;
    Ok(status)
}

/// Serves `server` on its HTTP listener until `stop` is set; polls so that it stops promptly.
fn serve(server: Arc<McpServer>, http: tiny_http::Server, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::SeqCst) {
        match http.recv_timeout(Duration::from_millis(10)) {
            Ok(Some(request)) => server.handle(request),
            Ok(None) => {}
            Err(_) => break,
        }
    }
}

fn user(subject: &str) -> Result<UserId, BoxError> {
    Ok(UserId::from_verified_subject(subject)?)
}

/// Runs the whole flow and reports what happened.
pub fn run() -> Result<Outcome, BoxError> {
    let http = tiny_http::Server::http("127.0.0.1:0")?;
    let addr = http.server_addr().to_ip().ok_or("not an IP listener")?;
    let alice = Initiator::new(user("alice")?, ConnectionId::new("alice-desktop"));
    let bob = Initiator::new(user("bob")?, ConnectionId::new("bob-laptop"));
    let (alice_tx, alice_rx) = mpsc::channel();
    let (bob_tx, bob_rx): (Sender<String>, Receiver<String>) = mpsc::channel();
    let server = Arc::new(McpServer {
        // Development: the connect page is plain http on loopback. Production allows https only.
        tracker: ElicitationTracker::new(UrlPolicy::development()),
        base_url: format!("http://{addr}"),
        tokens: Mutex::new(HashMap::new()),
        browser_sessions: HashMap::from([
            ("cookie-of-alice".to_owned(), alice.user.clone()),
            ("cookie-of-bob".to_owned(), bob.user.clone()),
        ]),
        connections: Mutex::new(HashMap::from([
            (alice.connection.clone(), alice_tx),
            (bob.connection.clone(), bob_tx),
        ])),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let serving = {
        let (server, stop) = (server.clone(), stop.clone());
        thread::spawn(move || serve(server, http, stop))
    };
    let result = client_flow(&server, &alice, &alice_rx, &bob_rx);
    stop.store(true, Ordering::SeqCst);
    serving
        .join()
        .map_err(|_| "the HTTP server thread panicked")?;
    result
}

/// Alice's MCP client, her browser, and Bob's browser.
fn client_flow(
    server: &McpServer,
    alice: &Initiator,
    alice_rx: &Receiver<String>,
    bob_rx: &Receiver<String>,
) -> Result<Outcome, BoxError> {
    let mut transcript = Vec::new();
    let mut say = |line: String| transcript.push(line);
    let client = ElicitationCapability::form_and_url();
    let mut watch = UrlElicitationWatch::new();

    // 1. The tool call needs authorization first.
    let error = match server.list_files(alice, &client) {
        Err(error) => error,
        Ok(files) => return Err(format!("expected -32042, got {files}").into()),
    };
    let first_call_code = error.code;
    say(format!(
        "tools/call -> error {}: {}",
        error.code, error.message
    ));
    let required = UrlElicitationRequiredError::try_from(&error)?;
    if watch
        .retry_after("tools/call list_files", &required)?
        .is_some()
    {
        return Err("nothing to wait for".into());
    }
    let elicitation = &required.elicitations()[0];

    // 2. The client shows the URL for review and asks for consent (here: given).
    let review = UrlReview::of(elicitation)?;
    say(format!("{}\n{review}", elicitation.message()));

    // 3. Phishing: Alice sends the link to Bob, who opens it signed in as himself.
    let other_user_status = browser_get(review.url(), "cookie-of-bob")?;
    say(format!(
        "Bob's browser opens the link -> HTTP {other_user_status}"
    ));

    // 4. Alice opens it herself.
    let user_status = browser_get(review.url(), "cookie-of-alice")?;
    say(format!(
        "Alice's browser opens the link -> HTTP {user_status}"
    ));

    // 5. Her client gets the notification, on her connection only, and retries.
    let text = alice_rx.recv_timeout(Duration::from_secs(5))?;
    say(format!("alice-desktop receives {text}"));
    let notification: ElicitationCompleteNotification = serde_json::from_str(&text)?;
    let Completion::Completed { ready_to_retry } = watch.on_complete(&notification) else {
        return Err("the notification was not for a pending elicitation".into());
    };
    let mut retried_result = String::new();
    for request in ready_to_retry {
        retried_result = server.list_files(alice, &client)?;
        say(format!("retry {request} -> {retried_result}"));
    }
    let other_connection_notified = bob_rx.try_recv().is_ok();

    // 6. The link is single-use.
    let replay_status = browser_get(review.url(), "cookie-of-alice")?;
    say(format!("the same link again -> HTTP {replay_status}"));

    Ok(Outcome {
        transcript,
        first_call_code,
        other_user_status,
        user_status,
        replay_status,
        other_connection_notified,
        retried_result,
    })
}
