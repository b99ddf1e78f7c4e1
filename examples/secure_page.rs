//! A tool that needs a secret, asked the spec's way: `connect_calendar` asks for the user's
//! calendar API key on the server's own page, through URL mode, with
//! [`Ask::secure`](elicit_mcp::rmcp::Ask::secure). The MCP client sees a consent message and a
//! link, never the form and never the key; the page (`elicit_mcp::page`) shows the form only to
//! the user the link was made for, and the tool reads the typed answer once. The key is then
//! kept for the user ([`MemoryCredentials`](elicit_mcp::server::MemoryCredentials)), so the
//! next call finds it without asking; `forget_calendar` forgets it. For a client
//! that declared the tasks extension, the tool runs as a task, and the page answers it the same.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example secure_page
//! ```
//!
//! As replicas sharing one Redis (`--redis URL`, `--prefix NAME`): the elicitations, the page's
//! forms and held answers (`SecureForms::in_redis`) and the kept keys (`RedisCredentials`) live
//! in Redis, the answers and keys sealed with `ELICIT_AT_REST_KEYS`, `requestState` with
//! `ELICIT_STATE_KEYS` (both `ID:HEX[,ID:HEX…]`, the same on every replica), so a form asked on
//! one replica is answered on another's page and read by the first. A 2025-11-25 session is
//! told of the completion only by its own replica's page; its tool goes on either way, as it
//! looks for the completion in the store.
//!
//! It prints `listening on http://127.0.0.1:PORT/mcp` (the address argument, loopback only,
//! defaults to a free port). Development identities, for loopback only: the MCP side takes
//! `Authorization: Bearer NAME` as the user `NAME`; the page's browser signs in on the form of
//! `DevelopmentLogin` (any name). Open the link the MCP client shows
//! (`http://127.0.0.1:PORT/secure/ID`): a browser not signed in is sent to
//! `http://127.0.0.1:PORT/login?return_to=%2Fsecure%2FID`, signs in there as the user the MCP
//! client called with, and comes back to the link. `POST /logout` (the sign-in page's button)
//! signs it out.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use elicit_examples::calendar::{self, CREDENTIAL, CalendarKey};
use elicit_examples::http::{ReplicaOptions, development_user, serve};
use elicit_examples::keys;
use elicit_mcp::Secret;
use elicit_mcp::page::{DevelopmentLogin, SecurePage};
use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal, Tasks};
use elicit_mcp::server::{
    CredentialStore, ElicitationStore, ElicitationTracker, MemoryCredentials, MemoryStore,
    RedisCredentials, SecureForms, StoreError, UrlPolicy, UserId,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

#[derive(Clone)]
struct Calendars {
    tool_router: ToolRouter<Calendars>,
    /// The keys users gave, kept per user.
    credentials: Arc<Credentials>,
}

/// Where the keys users gave are kept: in this process, or in Redis for replicas.
enum Credentials {
    Memory(MemoryCredentials),
    Redis(RedisCredentials),
}

impl CredentialStore for Credentials {
    async fn keep(
        &self,
        user: &UserId,
        name: &str,
        secret: &Secret<String>,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        match self {
            Credentials::Memory(kept) => kept.keep(user, name, secret, ttl).await,
            Credentials::Redis(kept) => kept.keep(user, name, secret, ttl).await,
        }
    }

    async fn find(&self, user: &UserId, name: &str) -> Result<Option<Secret<String>>, StoreError> {
        match self {
            Credentials::Memory(kept) => kept.find(user, name).await,
            Credentials::Redis(kept) => kept.find(user, name).await,
        }
    }

    async fn forget(&self, user: &UserId, name: &str) -> Result<bool, StoreError> {
        match self {
            Credentials::Memory(kept) => kept.forget(user, name).await,
            Credentials::Redis(kept) => kept.forget(user, name).await,
        }
    }
}

#[tool_router]
impl Calendars {
    fn new(credentials: Arc<Credentials>) -> Self {
        Calendars {
            tool_router: Self::tool_router(),
            credentials,
        }
    }

    #[tool(description = "Connects the user's calendar; asks for its API key on the server's page")]
    async fn connect_calendar(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        calendar::connect_calendar(ask, self.credentials.as_ref()).await
    }

    #[tool(description = "Forgets the calendar key the user gave; the next connect asks again")]
    async fn forget_calendar(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let user = calendar::signed_in(&ask)?;
        let forgotten = self
            .credentials
            .forget(user, CREDENTIAL)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let reply = if forgotten {
            format!("{}'s calendar key is forgotten.", user.as_str())
        } else {
            format!("No calendar key was kept for {}.", user.as_str())
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Calendars {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("elicit-calendar", env!("CARGO_PKG_VERSION")),
        )
    }
}

const USAGE: &str = "usage: secure_page [--redis URL | --redis-cluster URL,URL... [--prefix NAME]] [--max-body-bytes BYTES] [--ask-timeout SECONDS] [--session-idle SECONDS] [ADDRESS]";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(options) = ReplicaOptions::parse(USAGE)? else {
        return Ok(());
    };
    let listener = options.server.listen().await?;
    let page_url = format!("http://{}/secure", listener.local_addr()?);
    let seal = keys::state_seal()?;
    match options.store().await? {
        None => {
            let shared = Shared {
                forms: SecureForms::new(page_url)?,
                credentials: Credentials::Memory(MemoryCredentials::new()),
                seal: seal.single_use(),
            };
            run(listener, &options, MemoryStore::new(), shared).await
        }
        Some(store) => {
            let keys = keys::at_rest_keys()?;
            let shared = Shared {
                // Every replica names its secure forms, so that the page checks an answer as
                // the form reads it (its `url::Url`), whichever replica asked.
                forms: SecureForms::in_redis(page_url, &store, keys.clone())?
                    .with_form::<CalendarKey>(),
                credentials: Credentials::Redis(store.credentials(keys)),
                seal: seal.with_replay_guard(store.clone()),
            };
            run(listener, &options, store, shared).await
        }
    }
}

/// What the replicas share, or this process keeps: the page's forms, the kept keys, the seal.
struct Shared {
    forms: SecureForms,
    credentials: Credentials,
    seal: RequestStateSeal,
}

/// Serves the tools and the page on `listener`, the elicitations in `store`.
async fn run<S: ElicitationStore + 'static>(
    listener: tokio::net::TcpListener,
    options: &ReplicaOptions,
    store: S,
    shared: Shared,
) -> Result<(), Box<dyn std::error::Error>> {
    let address: SocketAddr = listener.local_addr()?;
    let origin = format!("http://{address}");
    // URL mode on loopback http (development), and the page's forms, at /secure.
    let tracker = Arc::new(ElicitationTracker::with_store(
        store,
        UrlPolicy::development(),
    ));
    let elicitation = options.server.elicitation(
        Elicitation::new(shared.seal)
            .with_authentication(development_user)
            .with_url_mode(tracker.clone())
            .with_secure_page(shared.forms.clone())
            // A task for a client that can poll one: the page answers the same way.
            .with_tasks(Tasks::new().optional("connect_calendar")),
    );
    let login = DevelopmentLogin::on(address)?;
    let page = SecurePage::new(shared.forms, tracker, elicitation.clone(), login.clone())
        .with_server_name("elicit-calendar")
        .with_login_url("/login");
    let pages = axum::Router::new()
        .merge(page.router())
        .merge(login.router());

    // The line tests and scripts wait for.
    println!("listening on {origin}/mcp");
    // One store of kept keys for every session and request of the process.
    let credentials = Arc::new(shared.credentials);
    let calendars = move || Calendars::new(credentials.clone());
    serve(listener, &elicitation, calendars, pages, &options.server).await
}
