//! URL-mode elicitation on a real MCP server: rmcp over streamable HTTP on loopback, with the
//! server's own connect page next to the MCP endpoint (axum serves both).
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example url_mode_server  # picks a free port, prints the URLs
//! cargo run -p elicit-examples --features rmcp --example url_mode_server -- 127.0.0.1:3000  # or listens where told (loopback only)
//!
//! # Several replicas sharing one Redis: start on one, complete through the other's page.
//! cargo run -p elicit-examples --features rmcp --example url_mode_server -- --redis redis://127.0.0.1:6379/ 127.0.0.1:3001
//! cargo run -p elicit-examples --features rmcp --example url_mode_server -- --redis redis://127.0.0.1:6379/ 127.0.0.1:3002
//! ```
//!
//! `--prefix NAME` puts this demo's keys and channels in Redis under `NAME` (default
//! `elicit`), so several demos can share one Redis. Request bodies are capped at 256 KiB
//! (`--max-body-bytes`; a larger one is answered 413); `--help` lists every option.
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
//! `/login` signs a browser in as that user (`/login?user=NAME` as another, to see the page
//! refuse someone else's link).
//!
//! With `--redis URL` the elicitations live in a [`RedisStore`] shared by every replica started
//! so, each connection is named with its replica, and a completion on any replica is routed
//! over Redis pub/sub to the one holding the MCP session, which sends the notification. The
//! demo's tokens and browser sessions are kept in the same Redis, as a real deployment keeps
//! them in its shared database.

use std::collections::HashMap;
use std::error::Error;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

#[path = "url_mode_server/page.rs"]
mod page;

use elicit_examples::http::{self, DEMO_USER, ReplicaOptions, development_user_or_demo};
use elicit_examples::keys;
use elicit_mcp::ElicitOutcome;
use elicit_mcp::rmcp::{
    Ask, ElicitError, ElicitPeer, ElicitUrlPeer, Elicitation, RequestStateSeal, UrlCompleted,
};
use elicit_mcp::server::{
    CompletedElicitation, ElicitationStore, ElicitationTracker, Inserted, MemoryStore,
    PendingEntry, RedisStore, Routed, StoreError, UrlPolicy, UserId,
};
use elicit_mcp::wire::ElicitationId;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};

/// What the MCP side and the connect page share.
pub struct ConnectState {
    tracker: Arc<ElicitationTracker<Store>>,
    /// What serves the MCP side, built once: it sends the completion notifications.
    elicitation: Elicitation,
    /// The page's own origin, e.g. `http://127.0.0.1:3000`.
    base_url: String,
    /// Example Co tokens, per user, once connected.
    tokens: Shared,
    /// Browser session cookie -> user, as `/login` set it.
    browser_sessions: Shared,
}

impl ConnectState {
    /// One process, nothing shared: the elicitations, tokens and browser sessions in memory,
    /// served through an [`Elicitation`] sealing with `seal`.
    pub fn in_memory(base_url: String, seal: RequestStateSeal) -> Self {
        let tracker = Arc::new(tracker(Store::Memory(MemoryStore::new())));
        ConnectState {
            elicitation: elicitation(seal, &tracker),
            tracker,
            base_url,
            tokens: Shared::Local(Mutex::default()),
            browser_sessions: Shared::Local(Mutex::default()),
        }
    }

    /// What serves the MCP side.
    pub fn elicitation(&self) -> &Elicitation {
        &self.elicitation
    }

    fn connect_url(&self, id: &ElicitationId) -> String {
        format!("{}/connect?elicitationId={id}", self.base_url)
    }

    /// Sends the completion notification to the session that started the elicitation: here,
    /// or through Redis on the replica that holds it.
    async fn notify(&self, completed: &CompletedElicitation) -> &'static str {
        let delivered = match &self.tracker.store() {
            Store::Redis(redis) => redis
                .publish_completion(completed)
                .await
                .map(|routed| routed == Routed::Delivered),
            Store::Memory(_) => self
                .elicitation
                .notify_completed(completed)
                .await
                .map_err(|e| StoreError::new(e.to_string())),
        };
        match delivered {
            Ok(true) => "Your MCP client has been told.",
            // The session or its replica is gone, or the notification could not be sent: the
            // client can still retry by hand, as the spec allows.
            Ok(false) | Err(_) => "Go back to your MCP client and try again.",
        }
    }
}

/// The elicitation store: in this process, or in Redis for several replicas.
enum Store {
    Memory(MemoryStore),
    Redis(RedisStore),
}

impl ElicitationStore for Store {
    async fn insert(&self, entry: PendingEntry, max: usize) -> Result<Inserted, StoreError> {
        match self {
            Store::Memory(store) => store.insert(entry, max).await,
            Store::Redis(store) => store.insert(entry, max).await,
        }
    }

    async fn get(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        match self {
            Store::Memory(store) => store.get(id).await,
            Store::Redis(store) => store.get(id).await,
        }
    }

    async fn remove(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        match self {
            Store::Memory(store) => store.remove(id).await,
            Store::Redis(store) => store.remove(id).await,
        }
    }

    async fn mark_completed(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        match self {
            Store::Memory(store) => store.mark_completed(id).await,
            Store::Redis(store) => store.mark_completed(id).await,
        }
    }

    async fn renew(&self, entry: &PendingEntry, until: SystemTime) -> Result<bool, StoreError> {
        match self {
            Store::Memory(store) => store.renew(entry, until).await,
            Store::Redis(store) => store.renew(entry, until).await,
        }
    }

    async fn remove_expired(&self, now: SystemTime) -> Result<usize, StoreError> {
        match self {
            Store::Memory(store) => store.remove_expired(now).await,
            Store::Redis(store) => store.remove_expired(now).await,
        }
    }
}

/// A small key-value table of the demo (tokens, browser sessions): in this process, or in
/// Redis so that every replica sees the same.
enum Shared {
    Local(Mutex<HashMap<String, String>>),
    Redis {
        connection: redis::aio::ConnectionManager,
        prefix: String,
    },
}

impl Shared {
    async fn get(&self, key: &str) -> Result<Option<String>, redis::RedisError> {
        match self {
            Shared::Local(map) => Ok(lock(map).get(key).cloned()),
            Shared::Redis { connection, prefix } => {
                redis::cmd("GET")
                    .arg(format!("{prefix}{key}"))
                    .query_async(&mut connection.clone())
                    .await
            }
        }
    }

    async fn set(&self, key: &str, value: &str) -> Result<(), redis::RedisError> {
        match self {
            Shared::Local(map) => {
                lock(map).insert(key.to_owned(), value.to_owned());
                Ok(())
            }
            Shared::Redis { connection, prefix } => {
                redis::cmd("SET")
                    .arg(format!("{prefix}{key}"))
                    .arg(value)
                    .arg("EX")
                    .arg(3600)
                    .query_async(&mut connection.clone())
                    .await
            }
        }
    }
}

/// The tracker of this example: development rules (plain http on loopback is allowed;
/// `UrlPolicy::production()` is https only).
fn tracker(store: Store) -> ElicitationTracker<Store> {
    ElicitationTracker::with_store(store, UrlPolicy::development())
}

/// What serves the MCP side: URL mode on `tracker`, and the user of a request from its bearer
/// token (the demo user without one, for the clients that send none).
fn elicitation(seal: RequestStateSeal, tracker: &Arc<ElicitationTracker<Store>>) -> Elicitation {
    Elicitation::new(seal)
        .with_url_mode(tracker.clone())
        .with_authentication(development_user_or_demo)
}

#[derive(Clone)]
pub struct FilesServer {
    state: Arc<ConnectState>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl FilesServer {
    pub fn new(state: Arc<ConnectState>) -> Self {
        FilesServer {
            state,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Lists the user's Example Co files; needs the user to connect Example Co first"
    )]
    async fn list_files(
        &self,
        ask: Ask,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let initiator = ask.initiator().map_err(ErrorData::from)?;
        if let Some(token) = self.token(&initiator.user).await? {
            return Ok(list_with(&token));
        }
        if context.server_requests_allowed() {
            // 2025-11-25, -32042: the client shows the URL, and retries this call once the
            // elicitation completes.
            let required = context
                .url_elicitation_required(
                    &self.state.tracker,
                    &initiator,
                    "Authorization is required to access your Example Co files.",
                    |id| self.state.connect_url(id),
                    "This request requires more information.",
                )
                .await
                .map_err(ErrorData::from)?;
            return Err(required);
        }
        // 2026-07-28 has no -32042: the call asks for the URL step itself and goes on once
        // the connect page has completed it.
        match self.connect(&ask).await? {
            ElicitOutcome::Accepted(_) => match self.token(&initiator.user).await? {
                Some(token) => Ok(list_with(&token)),
                None => Ok(text("Example Co was connected, but no token was stored.")),
            },
            _ => Ok(text(
                "The user did not connect Example Co; no files to list.",
            )),
        }
    }

    #[tool(description = "Asks the user to connect their Example Co account in the browser")]
    async fn connect_example_co(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let user = ask.user().ok_or(ElicitError::NoUser)?.clone();
        if self.token(&user).await?.is_some() {
            return Ok(text("Example Co is already connected."));
        }
        Ok(match self.connect(&ask).await {
            Ok(ElicitOutcome::Accepted(done)) => text(format!(
                "Example Co is connected (elicitation {}).",
                done.id()
            )),
            Ok(ElicitOutcome::Declined) => text("The user declined to connect Example Co."),
            Ok(ElicitOutcome::Cancelled) => text("The user dismissed the request."),
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

impl FilesServer {
    /// The URL step, on either revision: consent, then the connect page completes it.
    async fn connect(&self, ask: &Ask) -> Result<ElicitOutcome<UrlCompleted>, ElicitError> {
        ask.url(
            "Connect your Example Co account to let this server read your files.",
            |id| self.state.connect_url(id),
        )
        .await
    }
}

fn list_with(token: &str) -> CallToolResult {
    text(format!(
        "3 files: report.pdf, budget.xlsx, notes.md (read with {token})"
    ))
}

impl FilesServer {
    async fn token(&self, user: &UserId) -> Result<Option<String>, ErrorData> {
        self.state
            .tokens
            .get(user.as_str())
            .await
            .map_err(|e| ErrorData::internal_error(format!("the token store failed: {e}"), None))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FilesServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("elicit-url-mode-server", env!("CARGO_PKG_VERSION")),
        )
    }
}

/// The seal of 2026-07-28 `requestState` (`ELICIT_STATE_KEYS`, shared by the replicas), each
/// state opening once: in this process, or across the replicas through Redis.
fn seal(store: Option<&RedisStore>) -> Result<RequestStateSeal, Box<dyn Error>> {
    let seal = keys::state_seal()?;
    Ok(match store {
        Some(redis) => seal.with_replay_guard(redis.clone()),
        None => seal.single_use(),
    })
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

const USAGE: &str = "usage: url_mode_server [--redis URL [--prefix NAME]] [--max-body-bytes BYTES] [--ask-timeout SECONDS] [--session-idle SECONDS] [ADDRESS]";

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let Some(arguments) = ReplicaOptions::parse(USAGE)? else {
        return Ok(());
    };
    let listener = arguments.server.listen().await?;
    let address = listener.local_addr()?;
    let base_url = format!("http://{address}");
    let state = Arc::new(match arguments.store().await? {
        None => ConnectState::in_memory(base_url, seal(None)?),
        Some(store) => {
            // The demo's own tokens and browser sessions use one Redis's plain commands.
            let url = arguments.redis().ok_or(
                "url_mode_server keeps its demo's tokens in one Redis: give --redis, not \
                 --redis-cluster",
            )?;
            let connection = redis::Client::open(url)?.get_connection_manager().await?;
            // Each process is one replica, named at random.
            let replica = ElicitationId::random()?.as_str()[..12].to_owned();
            let seal = seal(Some(&store))?;
            let tracker = Arc::new(tracker(Store::Redis(store)));
            ConnectState {
                elicitation: elicitation(seal, &tracker).with_replica(replica),
                tracker,
                base_url,
                tokens: Shared::Redis {
                    connection: connection.clone(),
                    prefix: format!("{}:demo-token:", arguments.prefix()),
                },
                browser_sessions: Shared::Redis {
                    connection,
                    prefix: format!("{}:demo-browser:", arguments.prefix()),
                },
            }
        }
    });
    if let (Store::Redis(redis), Some(replica)) =
        (state.tracker.store(), state.elicitation.replica())
    {
        // Completions made on any replica for this replica's sessions arrive here.
        let mut completions = redis.completions(replica).await?;
        let state = state.clone();
        tokio::spawn(async move {
            while let Some(completion) = completions.next().await {
                match completion {
                    Ok(notification) => {
                        let Some(connections) = state.elicitation.connections() else {
                            continue;
                        };
                        if let Err(e) = connections.send(notification).await {
                            eprintln!("could not notify the session: {e}");
                        }
                    }
                    Err(e) => eprintln!("a routed completion was unreadable: {e}"),
                }
            }
        });
        println!(
            "replica {replica}, elicitations in Redis at {}",
            arguments.redis().unwrap_or_default()
        );
    }
    let elicitation = arguments.server.elicitation(state.elicitation.clone());
    let pages = page::routes(state.clone());
    println!("listening on http://{address}/mcp (connect page: http://{address}/login first)");
    let server = move || FilesServer::new(state.clone());
    http::serve(listener, &elicitation, server, pages, &arguments.server).await
}
