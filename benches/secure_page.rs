//! What the secure page costs (`elicit_mcp::page`, issue 36): its render and its submit, next
//! to the same form parsed by `from_content`, in the same run.
//!
//! - `render`: `GET /secure/{id}` through the page's axum router, called as a tower service (no
//!   socket): who the browser's user is, the elicitation checked with the tracker, the form
//!   looked up, this browser's CSRF token, the HTML drawn from the derived schema with the
//!   page's headers; the body read to its end.
//! - `submit`: `POST /secure/{id}` with the answer as a browser sends it (urlencoded, with the
//!   token and the browser's cookie): the same checks, the token compared, the body read back
//!   into form content and validated with the form's rules, the answer held, the elicitation
//!   completed, the page's answer drawn. Each submit spends its form, so each is opened before
//!   the clock starts, by a 2026-07-28 call of a tool that asks `ask.secure` (its first round),
//!   and shown once to take the token.
//! - `from_content`: `CalendarKey::from_content(&map)` of the same answer as form content,
//!   borrowed, every rule checked: what a form answered through the client costs to read.
//!
//! Each is called inside `block_on` of the same current-thread runtime, the output dropped
//! inside the timing. The ratios say how many `from_content`s a page render or submit costs:
//! not a speed-up of the same work, but what the page adds to the read it shares with the
//! client's path (the HTTP request, the user and CSRF checks, the hold, the completion, the
//! HTML). The routines alternate round by round within one run (see `common/mod.rs`); each
//! figure is the median of several runs with their spread, from this run's samples only.
//!
//! Run with `cargo bench --bench secure_page`.

#[path = "common/mod.rs"]
mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{self, request::Parts};
use common::{Comparison, Plan, compare, consuming, timed};
use elicit_mcp::page::{PageUsers, SecurePage};
use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal};
use elicit_mcp::server::{ElicitationTracker, SecureForms, UrlPolicy, UserId};
use elicit_mcp::{Elicit, ElicitOutcome, Secret};
use elicit_test_support::rmcp::first_url;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model as sdk;
use rmcp::service::{RoleClient, RunningService, serve_directly};
use rmcp::{ClientHandler, ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Map, Value, json};
use tower_service::Service;

const PAGE: &str = "http://127.0.0.1:3000/secure";
const KEY: &str = "sk-live-0123456789abcdef";

#[derive(Elicit)]
#[elicit(message = "Connect your calendar")]
struct CalendarKey {
    /// The API key from your calendar's settings
    #[elicit(min_length = 8)]
    api_key: Secret<String>,
    /// Which of your calendars to read
    #[elicit(min_length = 1, max_length = 60)]
    calendar: String,
    /// How many days ahead to read
    #[elicit(minimum = 1, maximum = 365, default = 30)]
    days: u32,
    /// Share free/busy with your team
    shared: bool,
}

#[derive(Clone)]
struct Calendars {
    tool_router: ToolRouter<Calendars>,
}

#[tool_router]
impl Calendars {
    #[tool(description = "Connects a calendar")]
    async fn connect(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let text = match ask.secure::<CalendarKey>().await {
            Ok(ElicitOutcome::Accepted(key)) => key.calendar,
            Ok(_) => "not connected".to_owned(),
            Err(error) => return error.into_call_result(),
        };
        Ok(sdk::CallToolResult::success(vec![sdk::ContentBlock::text(
            text,
        )]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Calendars {}

/// Every browser is Ada's: the user check runs, and always passes.
struct Ada;

impl PageUsers for Ada {
    async fn user(&self, _request: &Parts) -> Option<UserId> {
        Some(ada())
    }
}

fn ada() -> UserId {
    UserId::from_verified_subject("ada").expect("a user")
}

/// A 2026-07-28 client that can be sent to a URL: it only makes the first round of calls.
struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> sdk::ClientConfig {
        let capabilities = sdk::ClientCapabilities::try_from(
            &elicit_mcp::wire::ElicitationCapability::form_and_url(),
        )
        .expect("capabilities");
        sdk::ClientConfig::new(capabilities, sdk::Implementation::new("bench-client", "0"))
            .with_protocol_version(sdk::ProtocolVersion::V_2026_07_28)
    }
}

/// The client of `elicitation` serving the calendars, on 2026-07-28 over an in-memory duplex.
fn connect(elicitation: &Elicitation) -> RunningService<RoleClient, Client> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let mut client_info = Client.get_info();
    client_info.protocol_version = sdk::ProtocolVersion::V_2026_07_28;
    let server = Calendars {
        tool_router: Calendars::tool_router(),
    };
    let running = elicitation
        .serve_directly(server, server_io, Some(client_info))
        .expect("nothing to set up");
    let mut server_info = running.service().get_info();
    server_info.protocol_version = sdk::ProtocolVersion::V_2026_07_28;
    tokio::spawn(async move {
        let _ = running.waiting().await;
    });
    serve_directly(Client, client_io, Some(server_info.into()))
}

/// A form opened on the page by the first round of a call: its path, and the cookie and token
/// of the browser that was shown it.
struct OpenForm {
    path: String,
    cookie: String,
    token: String,
}

struct Bench {
    client: RunningService<RoleClient, Client>,
    router: axum::Router,
}

impl Bench {
    fn new() -> Bench {
        let tracker = Arc::new(
            ElicitationTracker::new(UrlPolicy::development()).with_max_pending_per_user(1 << 20),
        );
        let forms = SecureForms::new(PAGE).expect("a page address");
        let seal = RequestStateSeal::from_keyring("bench", [("bench", [7u8; 32])]).expect("a key");
        let elicitation = Elicitation::new(seal)
            .with_local_user(ada())
            .with_url_mode(tracker.clone())
            .with_secure_page(forms.clone());
        let router = SecurePage::new(forms, tracker, elicitation.clone(), Ada).router();
        Bench {
            client: connect(&elicitation),
            router,
        }
    }

    /// Opens a fresh form, and shows it once to take its token.
    async fn open(&self) -> OpenForm {
        let first = self
            .client
            .call_tool_once(sdk::CallToolRequestParams::new("connect"))
            .await
            .expect("the first round is answered");
        let sdk::CallToolResponse::InputRequired(first) = first else {
            panic!("the first round asks for input: {first:?}");
        };
        let first = serde_json::to_value(&first).expect("a response");
        let link = first_url(&first).unwrap_or_else(|| panic!("a URL input request: {first}"));
        // The page's own router, alone: its paths are the link's, `/secure/{id}`.
        let path = link
            .strip_prefix("http://127.0.0.1:3000")
            .expect("the page's link")
            .to_owned();
        let (status, cookie, body) = self.send(get(&path, None)).await;
        assert_eq!(status, 200, "{body}");
        let cookie = cookie.expect("a browser cookie");
        let at = body.find("name=\"_csrf\" value=\"").expect("a token") + 20;
        let token = body[at..].split('"').next().expect("a token").to_owned();
        OpenForm {
            path,
            cookie,
            token,
        }
    }

    /// The page's answer to `request`: its status, the cookie it set, its body read to the end.
    async fn send(&self, request: http::Request<Body>) -> (u16, Option<String>, String) {
        let mut router = self.router.clone();
        let Ok(response) = router.call(request).await;
        let status = response.status().as_u16();
        let cookie = response
            .headers()
            .get(http::header::SET_COOKIE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(str::to_owned);
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the page reads");
        (status, cookie, String::from_utf8_lossy(&body).into_owned())
    }
}

fn get(path: &str, cookie: Option<&str>) -> http::Request<Body> {
    let mut request = http::Request::get(path);
    if let Some(cookie) = cookie {
        request = request.header(http::header::COOKIE, cookie);
    }
    request.body(Body::empty()).expect("a request")
}

fn submit(form: &OpenForm) -> http::Request<Body> {
    let body = serde_urlencoded::to_string([
        ("_csrf", form.token.as_str()),
        ("api_key", KEY),
        ("calendar", "Work"),
        ("days", "14"),
        ("shared", "true"),
        ("_action", "send"),
    ])
    .expect("a form body");
    http::Request::post(&form.path)
        .header(http::header::COOKIE, &form.cookie)
        .header(
            http::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .body(Body::from(body))
        .expect("a request")
}

/// The same answer as form content, as the client's path reads it.
fn content() -> Map<String, Value> {
    let content = json!({"api_key": KEY, "calendar": "Work", "days": 14, "shared": true});
    content.as_object().cloned().expect("an object")
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let _entered = runtime.enter();
    let bench = Bench::new();

    // Checked once: the page renders, the submit is taken, from_content reads the same answer.
    let shown = runtime.block_on(bench.open());
    let (status, _, body) = runtime.block_on(bench.send(get(&shown.path, Some(&shown.cookie))));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("type=\"password\""), "{body}");
    let spent = runtime.block_on(bench.open());
    let (status, _, body) = runtime.block_on(bench.send(submit(&spent)));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("Sent"), "{body}");
    let map = content();
    let read = CalendarKey::from_content(&map).expect("the answer reads");
    assert_eq!(
        (
            read.api_key.expose_secret().as_str(),
            read.calendar.as_str(),
            read.days,
            read.shared
        ),
        (KEY, "Work", 14, true)
    );

    compare(
        "secure_page",
        Plan {
            runs: 5,
            rounds: 100,
            batch: 20,
        },
        &[
            "page render (GET, the form's HTML)",
            "page submit (POST: read, validate, hold, complete)",
            "from_content(&map) of the same answer",
        ],
        vec![
            timed(|| runtime.block_on(bench.send(get(&shown.path, Some(&shown.cookie))))),
            consuming(
                || runtime.block_on(bench.open()),
                |form| runtime.block_on(bench.send(submit(&form))),
            ),
            timed(|| runtime.block_on(async { CalendarKey::from_content(&map) })),
        ],
        &[
            Comparison {
                label: "render / from_content",
                ours: 0,
                theirs: 2,
            },
            Comparison {
                label: "submit / from_content",
                ours: 1,
                theirs: 2,
            },
        ],
    );
}
