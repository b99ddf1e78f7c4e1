//! URL-mode elicitation on a real MCP server: rmcp over streamable HTTP on loopback, with the
//! server's own connect page next to the MCP endpoint (axum serves both).
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example url_mode_server  # picks a free port, prints the URLs
//! cargo run -p elicit-examples --features rmcp --example url_mode_server -- 127.0.0.1:3000  # or listens where told (loopback only)
//! ```
//!
//! Connect an MCP client that declares `{"elicitation": {"url": {}}}` to the printed `/mcp` URL.
//! The server holds no Example Co token for the user yet, so:
//!
//! - `list_files` answers -32042 (`URLElicitationRequiredError`) with a URL elicitation; the
//!   client shows the link, and retries once `notifications/elicitation/complete` arrives;
//! - `connect_example_co` sends the URL elicitation as an `elicitation/create` request and
//!   reports whether the user agreed to open it.
//!
//! The link leads to `/connect` here. It is the URL-mode pieces of `elicit` at work (the same
//! ones `examples/url_connect.rs` walks through without an SDK): the [`ElicitationTracker`] bound
//! the elicitation to the user who started it, the page completes it only for that user (the
//! browser's sign-in says who that is, never the link), and [`ConnectionPeers`] sends the
//! completion notification to the MCP session that started it and to no other.
//!
//! The user: a real server takes it from MCP authorization (the verified token's subject). This
//! example has no authorization server, so every MCP session belongs to the demo user, and
//! `/login` signs a browser in as that user.

#[path = "common/mod.rs"]
mod common;

use std::borrow::Cow;
use std::collections::HashMap;
use std::error::Error;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use elicit::rmcp::{ConnectionPeers, ElicitError, ElicitPeer};
use elicit::server::{
    CompletionError, ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId,
};
use elicit::{ElicitationId, UrlElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;

/// The subject every MCP session and every signed-in browser stands for in this example.
const DEMO_USER: &str = "demo-user";

/// What the MCP side and the connect page share.
struct ConnectState {
    tracker: ElicitationTracker,
    peers: ConnectionPeers,
    /// The page's own origin, e.g. `http://127.0.0.1:3000`.
    base_url: String,
    /// Example Co tokens, per user, once connected.
    tokens: Mutex<HashMap<UserId, String>>,
    /// Browser session cookie -> user, as `/login` set it.
    browser_sessions: Mutex<HashMap<String, UserId>>,
}

impl ConnectState {
    fn connect_url(&self, id: &ElicitationId) -> String {
        format!("{}/connect?elicitationId={id}", self.base_url)
    }
}

#[derive(Clone)]
struct FilesServer {
    state: Arc<ConnectState>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl FilesServer {
    fn new(state: Arc<ConnectState>) -> Self {
        FilesServer {
            state,
            tool_router: Self::tool_router(),
        }
    }

    /// Who is calling, from which session; the session's peer is kept to notify it later.
    fn initiator(&self, context: &RequestContext<RoleServer>) -> Result<Initiator, ErrorData> {
        let session = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
            .ok_or_else(|| {
                ErrorData::invalid_request(
                    "this server needs an MCP session (Mcp-Session-Id)",
                    None,
                )
            })?;
        let connection = ConnectionId::new(session);
        self.state
            .peers
            .register(connection.clone(), context.peer.clone());
        let user = UserId::from_verified_subject(DEMO_USER)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(Initiator::new(user, connection))
    }

    #[tool(
        description = "Lists the user's Example Co files; needs the user to connect Example Co first"
    )]
    async fn list_files(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let initiator = self.initiator(&context)?;
        if let Some(token) = lock(&self.state.tokens).get(&initiator.user) {
            return Ok(text(format!(
                "3 files: report.pdf, budget.xlsx, notes.md (read with {token})"
            )));
        }
        // -32042: the client shows the URL, and retries this call once the elicitation completes.
        let required = context
            .url_elicitation_required(
                &self.state.tracker,
                &initiator,
                "Authorization is required to access your Example Co files.",
                |id| self.state.connect_url(id),
                "This request requires more information.",
            )
            .map_err(ErrorData::from)?;
        Err(required)
    }

    #[tool(description = "Asks the user to connect their Example Co account in the browser")]
    async fn connect_example_co(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let initiator = self.initiator(&context)?;
        if lock(&self.state.tokens).contains_key(&initiator.user) {
            return Ok(text("Example Co is already connected."));
        }
        let state = &self.state;
        let sent = context
            .elicit_url(
                &state.tracker,
                &initiator,
                "Connect your Example Co account to let this server read your files.",
                |id| state.connect_url(id),
            )
            .await;
        Ok(match sent {
            Ok(elicitation) => match elicitation.outcome() {
                UrlElicitOutcome::Consented => text(format!(
                    "The user is connecting Example Co in the browser (elicitation {}); \
                     a notification follows when it is done.",
                    elicitation.id()
                )),
                UrlElicitOutcome::Declined => text("The user declined to connect Example Co."),
                UrlElicitOutcome::Cancelled => text("The user dismissed the request."),
            },
            Err(error @ ElicitError::ModeNotSupported(_)) => {
                let mut result = error.to_tool_result();
                result.content.push(ContentBlock::text(
                    "This client cannot open URLs for the user; connect from one that declares URL-mode elicitation.",
                ));
                result
            }
            Err(error) => error.to_tool_result(),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FilesServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "elicit-url-mode-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    /// Up to 2025-11-25, the last revision in which a server may send `elicitation/create`.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }
}

// --- The connect page --------------------------------------------------------------------------

#[derive(Deserialize)]
struct ConnectQuery {
    #[serde(rename = "elicitationId")]
    elicitation_id: String,
}

/// `GET /login`: the demo sign-in, which signs this browser in as the demo user.
async fn login(State(state): State<Arc<ConnectState>>) -> Response {
    let session = match ElicitationId::random() {
        Ok(random) => random.as_str().to_owned(),
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    let Ok(user) = UserId::from_verified_subject(DEMO_USER) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    lock(&state.browser_sessions).insert(session.clone(), user);
    (
        [(
            header::SET_COOKIE,
            format!("session={session}; HttpOnly; SameSite=Lax; Path=/"),
        )],
        Html(format!(
            "<p>Signed in as {DEMO_USER}. Now open the link your MCP client showed.</p>"
        )),
    )
        .into_response()
}

/// Who this browser is signed in as, from its session cookie.
fn browser_user(state: &ConnectState, headers: &HeaderMap) -> Option<UserId> {
    let cookies = headers.get(header::COOKIE)?.to_str().ok()?;
    let session = cookies
        .split(';')
        .find_map(|cookie| cookie.trim().strip_prefix("session="))?;
    lock(&state.browser_sessions).get(session).cloned()
}

/// `GET /connect?elicitationId=..`: for the user who started it, a page to connect; for
/// anyone else, a refusal.
async fn connect_page(
    State(state): State<Arc<ConnectState>>,
    Query(query): Query<ConnectQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(user) = browser_user(&state, &headers) else {
        return (
            StatusCode::UNAUTHORIZED,
            Html("<p><a href=\"/login\">Sign in</a>, then open the link again.</p>"),
        )
            .into_response();
    };
    if let Err(refused) = state.tracker.verify(&query.elicitation_id, &user) {
        return refusal(&refused);
    }
    // A real server redirects to Example Co's OAuth here and completes in its callback.
    Html(format!(
        "<form method=\"post\" action=\"/connect?elicitationId={}\">\
         <p>Let this MCP server read your Example Co files?</p><button>Connect Example Co</button></form>",
        query.elicitation_id
    ))
    .into_response()
}

/// `POST /connect?elicitationId=..`: completes the elicitation for its own user, stores the
/// token, and notifies the MCP session that started it.
async fn connect_submit(
    State(state): State<Arc<ConnectState>>,
    Query(query): Query<ConnectQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(user) = browser_user(&state, &headers) else {
        return (StatusCode::UNAUTHORIZED, "sign in first").into_response();
    };
    let completed = match state.tracker.complete(&query.elicitation_id, &user) {
        Ok(completed) => completed,
        Err(refused) => return refusal(&refused),
    };
    lock(&state.tokens).insert(completed.user().clone(), "example-co-token".to_owned());
    let notified = match state.peers.notify(&completed).await {
        Ok(true) => "Your MCP client has been told.",
        // The session closed meanwhile, or the notification could not be sent: the client can
        // still retry by hand, as the spec allows.
        Ok(false) | Err(_) => "Go back to your MCP client and try again.",
    };
    Html(format!(
        "<p>Example Co is connected. {notified} You can close this tab.</p>"
    ))
    .into_response()
}

fn refusal(error: &CompletionError) -> Response {
    let status = match error {
        CompletionError::WrongUser => StatusCode::FORBIDDEN,
        CompletionError::NotPending => StatusCode::NOT_FOUND,
        CompletionError::Expired => StatusCode::GONE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    (status, error.to_string()).into_response()
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let listener =
        tokio::net::TcpListener::bind(common::listen_address(std::env::args().nth(1).as_deref())?)
            .await?;
    let address = listener.local_addr()?;
    let state = Arc::new(ConnectState {
        // Development: plain http on loopback is allowed. `UrlPolicy::production()` is https only.
        tracker: ElicitationTracker::new(UrlPolicy::development()),
        peers: ConnectionPeers::new(),
        base_url: format!("http://{address}"),
        tokens: Mutex::default(),
        browser_sessions: Mutex::default(),
    });
    let config = StreamableHttpServerConfig::default();
    let shutdown = config.cancellation_token.clone();
    let mcp: StreamableHttpService<FilesServer, LocalSessionManager> = StreamableHttpService::new(
        {
            let state = state.clone();
            move || Ok(FilesServer::new(state.clone()))
        },
        Default::default(),
        config,
    );
    let router = axum::Router::new()
        .nest_service("/mcp", mcp)
        .route("/login", get(login))
        .route("/connect", get(connect_page).post(connect_submit))
        .with_state(state);
    println!("listening on http://{address}/mcp (connect page: http://{address}/login first)");
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            // Ends the MCP sessions too, whose event streams would otherwise keep it open.
            shutdown.cancel();
        })
        .await?;
    Ok(())
}
