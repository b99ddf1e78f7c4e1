//! What to put in front of rmcp's streamable HTTP server ([`StreamableHttpService`]), for what
//! it cannot be told to do itself (rmcp 3.11):
//!
//! - **A limit on request bodies**, 256 KiB unless [`Guard::with_max_body_bytes`] says otherwise.
//!   rmcp parses a whole body into its message types at once, and that parse amplifies: a
//!   4 MiB body of small numbers raises the server's peak memory by about 470 MiB. A body
//!   declared larger (`Content-Length`) is answered 413 before anything reads it, and a
//!   chunked one once it passes the limit (tower-http's `RequestBodyLimit`); rmcp's own
//!   limit is set to the same value.
//! - **JSON-RPC answers to broken JSON-RPC.** rmcp answers a body that is not JSON, and valid
//!   JSON that is not a JSON-RPC message (`{}`, `[]`), with 415 and a line of text; here they
//!   get -32700 (Parse error) and -32600 (Invalid Request), HTTP 400. rmcp's request enum is
//!   untagged, so a `tools/call`, `prompts/get` or `resources/read` with a member of the
//!   wrong type (`name`, `arguments`, `uri`, `_meta`, `requestState`, `inputResponses`) falls
//!   through to its custom request and is answered -32601 (Method not found) with HTTP 404;
//!   here it gets -32602 (Invalid params) naming every such member. The checks read the body
//!   once into borrowed `RawValue`s; nothing is built.
//! - **DELETE.** rmcp answers a DELETE of any session 202, whether it holds it or not. Here a
//!   session the manager does not hold (nor rmcp's session store) is answered 404, as every
//!   other request for it, and a live one 204 once rmcp has ended it.
//! - **A limit per client on the request bodies in flight**, counted in bytes: per 2025-11-25
//!   session the server holds, and per peer address for the rest. rmcp's parse costs memory in
//!   proportion to the body, so what one client can make the server hold at once is bounded
//!   by bytes, not requests: by default one body at the body limit, or any number of small
//!   ones that fit in it ([`Guard::with_max_bytes_in_flight_per_client`]). A JSON POST counts from
//!   before its body is read until rmcp has answered; one that does not fit waits, unread,
//!   for its client's others to finish. A request whose client cannot be told is refused,
//!   never counted with others ([below](#who-a-client-is)).
//! - **A deadline on every body read**, 30 s unless [`Guard::with_body_deadline`] says
//!   otherwise. rmcp reads a body for as long as it takes; a client that trickles its bytes
//!   (one at a time, each just before the connection would idle out) holds the connection and
//!   its allowance of bytes in flight for as long as it likes. A body still arriving at the
//!   deadline is cut and answered 408 (Request Timeout), the connection closed, and its bytes
//!   are its client's again. tower-http's `TimeoutBody` does not do it: its timeout is between
//!   two pieces of a body, and each piece starts it again. The cuts are counted
//!   ([`Guarded::counts`]).
//! - **A resumed stream never repeats an event.** rmcp's session manager answers a GET with
//!   `Last-Event-ID` with the event of that id again, then the ones after it: a 2025-11-25
//!   client whose connection broke after an `elicitation/create` got the same form twice.
//!   Here every event at or before `Last-Event-ID` is dropped from the resumed stream.
//! - **A call survives a dropped connection.** On 2025-11-25 a call's asks, progress and result
//!   go on the event stream that answers its POST. rmcp forgets that stream when the call
//!   answers, so a client whose connection broke and that resumed it (a GET with
//!   `Last-Event-ID`, as the TypeScript client does 3 s later) after the answer got an empty
//!   stream, and never the result. Here the guard reads each such stream to its end whether its
//!   client is connected or not, keeps its events, and answers a resume from them: the events
//!   after `Last-Event-ID`, then the rest of the call as it comes.
//!
//! ```no_run
//! # use rmcp::ServerHandler;
//! # #[derive(Clone)] struct MyServer;
//! # impl ServerHandler for MyServer {}
//! # async fn run() -> std::io::Result<()> {
//! use std::net::SocketAddr;
//! use std::sync::Arc;
//!
//! use elicit_mcp::http::Guard;
//! use rmcp::transport::StreamableHttpServerConfig;
//! use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
//!
//! let sessions = Arc::new(LocalSessionManager::default());
//! let mcp = Guard::new().service(
//!     || Ok(MyServer),
//!     sessions,
//!     StreamableHttpServerConfig::default(),
//! );
//! let app = axum::Router::new().nest_service("/mcp", mcp);
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
//! // The peer's address is what a request without a session counts against: without it, the
//! // guard answers such requests 500.
//! axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await
//! # }
//! ```
//!
//! # A whole server
//!
//! A complete server: the booking form, a tool that runs as a task and asks inside it, the bearer
//! token checked by a function of yours, its own name as its server info (clients show it to say
//! who is asking), the guard, and a graceful shutdown on Ctrl-C. No `tasks/*` method is written by
//! hand: the `Elicitation` answers them and declares the tasks extension. It needs:
//!
//! ```toml
//! [dependencies]
//! elicit-mcp = { version = "0.1", features = ["http"] }
//! rmcp = { version = "3.11", features = ["server", "macros", "transport-streamable-http-server"] }
//! tokio = { version = "1", features = ["macros", "rt-multi-thread", "net", "signal"] }
//! axum = "0.8"
//! serde = { version = "1", features = ["derive"] }
//! ```
//!
//! ```no_run
//! use std::net::SocketAddr;
//! use std::sync::Arc;
//!
//! use axum::http::request::Parts;
//! use elicit_mcp::http::{Guard, Unauthenticated};
//! use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal, Tasks};
//! use elicit_mcp::server::UserId;
//! use elicit_mcp::{Elicit, ElicitOutcome};
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::handler::server::wrapper::Parameters;
//! use rmcp::model::{
//!     CallToolResult, ContentBlock, ErrorData, Implementation, ServerCapabilities, ServerConfig,
//! };
//! use rmcp::transport::StreamableHttpServerConfig;
//! use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
//! use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
//!
//! #[derive(Elicit, Debug)]
//! #[elicit(message = "Where and when would you like to stay?", rename_all = "camelCase")]
//! struct Stay {
//!     #[elicit(format = "date")]
//!     check_in: String,
//!     #[elicit(minimum = 1, maximum = 30, default = 1)]
//!     nights: u8,
//! }
//!
//! #[derive(Elicit, Debug)]
//! #[elicit(message = "Archive the old bookings too?")]
//! struct Scope {
//!     archive: bool,
//!     #[elicit(minimum = 1, maximum = 10, default = 3)]
//!     years: u8,
//! }
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Hotel {
//!     /// Which hotel
//!     name: String,
//! }
//!
//! #[derive(Clone)]
//! struct Bookings {
//!     tool_router: ToolRouter<Bookings>,
//! }
//!
//! #[tool_router]
//! impl Bookings {
//!     fn new() -> Self {
//!         Bookings { tool_router: Self::tool_router() }
//!     }
//!
//!     #[tool(description = "Books a stay; asks the user for the dates")]
//!     async fn book(
//!         &self,
//!         Parameters(hotel): Parameters<Hotel>,
//!         ask: Ask,
//!     ) -> Result<CallToolResult, ErrorData> {
//!         let stay = match ask.form::<Stay>().await {
//!             Ok(ElicitOutcome::Accepted(stay)) => stay,
//!             Ok(_) => return Ok(text("no booking".to_owned())),
//!             Err(error) => return error.into_call_result(),
//!         };
//!         Ok(text(format!("{} nights at {} from {}", stay.nights, hotel.name, stay.check_in)))
//!     }
//!
//!     #[tool(description = "Cleans up old bookings (minutes); asks what to keep")]
//!     async fn clean_up(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
//!         // In a task: the task is `input_required` until `tasks/update` answers.
//!         let reply = match ask.form::<Scope>().await {
//!             Ok(ElicitOutcome::Accepted(scope)) if scope.archive => {
//!                 format!("cleaned up, {} years archived", scope.years)
//!             }
//!             Ok(_) => "cleaned up, nothing archived".to_owned(),
//!             Err(error) => return error.into_call_result(),
//!         };
//!         Ok(text(reply))
//!     }
//! }
//!
//! fn text(text: String) -> CallToolResult {
//!     CallToolResult::success(vec![ContentBlock::text(text)])
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Bookings {
//!     // Without this, the server calls itself "rmcp 3.11.0" (rmcp's default server info).
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//!             .with_server_info(Implementation::new("my-bookings", env!("CARGO_PKG_VERSION")))
//!     }
//! }
//!
//! /// Your check of a request's bearer token: here a fixed table, in a real server your
//! /// authorization server's introspection or a JWT check.
//! fn user_of(request: &Parts) -> Result<UserId, Unauthenticated> {
//!     let token = Unauthenticated::bearer_token(request)?;
//!     let subject = match token {
//!         "alice-token" => "alice",
//!         "bob-token" => "bob",
//!         _ => return Err(Unauthenticated::bearer("invalid_token")),
//!     };
//!     UserId::from_verified_subject(subject).map_err(|_| Unauthenticated::bearer("invalid_token"))
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // Built once for the process; every session gets a handle to it.
//!     let elicitation = Elicitation::new(RequestStateSeal::generated()?)
//!         .with_tasks(Tasks::new().optional("clean_up"))
//!         .with_authentication(user_of);
//!     let config = StreamableHttpServerConfig::default();
//!     let shutdown = config.cancellation_token.clone();
//!     let sessions = Arc::new(LocalSessionManager::default());
//!     let mcp = Guard::new().serve(&elicitation, Bookings::new, sessions, config)?;
//!     let app = axum::Router::new().nest_service("/mcp", mcp);
//!
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
//!     println!("listening on http://{}/mcp", listener.local_addr()?);
//!     // The peer's address (`ConnectInfo`) is what a request without a session counts against;
//!     // without it, the guard answers such requests 500.
//!     axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
//!         .with_graceful_shutdown(async move {
//!             let _ = tokio::signal::ctrl_c().await;
//!             // Ends the sessions' event streams, which would otherwise keep the server open.
//!             shutdown.cancel();
//!         })
//!         .await?;
//!     Ok(())
//! }
//! ```
//!
//! [`Guard::serve`] checks the setup on one handler before anything is served: a tool declared
//! for tasks that the server does not list, or URL mode without `with_authentication`, is a
//! `SetupError` at start-up, never a server that half works. `cargo run -p elicit-examples
//! --features rmcp --example http_server -- 127.0.0.1:0` runs a server like this from the
//! repository (its development identity takes `Authorization: Bearer NAME` as the user `NAME`).
//! `benches/cold_build/recipe` in the repository builds this block cold, as a new user would.
//!
//! # Who the user is
//!
//! `Elicitation::with_authentication` takes your check of a request's credentials (a function
//! from the HTTP request's parts to a `UserId`, or an [`Unauthenticated`] refusal). The guard runs
//! it on every request before rmcp reads it; a refusal is answered 401 with its
//! `WWW-Authenticate` challenge; the user binds every ask of the request, on both revisions and
//! inside tasks (sealed states, tasks, URL-mode elicitations). A server that asks in URL mode
//! without it refuses to start.
//!
//! # Who a client is
//!
//! A request on a 2025-11-25 session the server holds counts against that session; any other
//! (every 2026-07-28 request, and the `initialize` that opens a session) against its client's
//! address: by default the peer's, from axum's `ConnectInfo<SocketAddr>`, which axum gives only
//! to an app served with `into_make_service_with_connect_info::<SocketAddr>()`; behind a
//! reverse proxy, the one [`Guard::with_client_address`] reads from the proxy's header.
//!
//! A request whose address cannot be found is answered 500 with a text that says how to fix
//! the server, counted ([`GuardCounts::requests_without_client`]) and logged once (`tracing`,
//! at `error`). It is not served on an allowance shared by every such request: that one
//! allowance would be every 2026-07-28 client's, and one slow body would hold all of them up.
//! The guard cannot refuse earlier, when it is built: it is a service nested in a router, and
//! how the router is served is seen only in each request. So a server served without the
//! peer's address fails its very first call without a session, in its own tests, before any
//! user comes. A session id is no way to tell clients apart either: anyone can send one that
//! the server does not hold, and it then counts against its sender's address.
//!
//! # What remains
//!
//! - The allowance of bytes in flight is per client: a session the server holds, or else a peer
//!   address. Clients at many addresses, or one client that opens many sessions (`initialize` is
//!   cheap), still add up: a public server also limits requests overall (tower's
//!   `GlobalConcurrencyLimitLayer`, or its proxy's limits).
//! - Behind a reverse proxy every peer has the proxy's address: give
//!   [`Guard::with_client_address`] the header your proxy sets.
//! - A client that sends each body just within the deadline still holds its own allowance that
//!   long; what it holds up is its own requests, not others'.
//! - On 2026-07-28 rmcp answers a request only once its handler has sent its first message, so a
//!   call's bytes count while its tool runs (an `Ask::url` retry holds up to
//!   `Elicitation::with_url_hold`).
//! - The members of other requests than the three elicit serves are not checked: an `initialize`
//!   whose `protocolVersion` is a number still gets rmcp's `400 Bad Request` with `Bad Request:
//!   Session ID is required`. Covering every method would mean restating rmcp's whole request
//!   model in front of it.
//! - A body sent without `content-type: application/json` still gets rmcp's 415, which is the
//!   right status.
//! - The resumed-stream filter stands in for a fix to rmcp, which the repository keeps as
//!   `docs/upstream/rmcp-resume-after-last-event-id.patch`; once rmcp has it, the filter finds
//!   nothing to drop and can go.
//! - A call's stream is kept while the call runs and 60 s after its answer (whether the client
//!   got the answer, the server cannot tell), less when the answered streams kept hold more than
//!   64 MiB together (the oldest go first); at most its 64 newest events and 1 MiB. A client
//!   that comes back later than that, or after events that were let go, is answered by rmcp
//!   (rmcp 3.11 has nothing after the answer; the fix for rmcp is
//!   `docs/upstream/rmcp-keep-an-answered-stream-for-resume.patch`). As with rmcp, whoever has
//!   the session's id may resume its streams.
//!
//! The repository's `tests/rmcp/http_guard.rs` sends each of these requests to rmcp alone and
//! through the guard and checks both answers, so a change in rmcp fails a test; its
//! `CONTRIBUTING.md` gives the `curl` lines that reproduce each one, and `benches/README.md` what
//! the guard costs per request (about 1.04x of rmcp alone).

pub(crate) mod check;
mod clients;
mod counts;
mod relay;
mod resume;
mod service;
mod sse;

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use http::request::Parts;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::SessionManager;

use crate::rmcp::authenticate::SharedAuthenticate;
pub use crate::rmcp::authenticate::{Authenticate, Unauthenticated};
use crate::rmcp::{Elicitation, Elicited, SetupError};
use clients::ClientAddress;
pub use counts::GuardCounts;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
pub use service::{BoxError, GuardLayer, Guarded, GuardedBody};
use tower_layer::Layer;

/// What the guarded service answers: rmcp's answer, or the guard's own.
// Here, not in `service`, because `resume` filters it and `service` calls `resume`.
pub type GuardedResponse =
    http::Response<http_body_util::combinators::BoxBody<bytes::Bytes, std::convert::Infallible>>;

/// The limits and checks that stand in front of rmcp's [`StreamableHttpService`] (see the
/// [module](self)): build one, set what differs from the defaults, and wrap the service with
/// [`service`](Guard::service) or [`layer`](Guard::layer).
///
/// ```
/// use elicit_mcp::http::Guard;
///
/// // Bodies up to 64 KiB; at most two at that size in flight per client.
/// let guard = Guard::new()
///     .with_max_body_bytes(64 * 1024)
///     .with_max_bytes_in_flight_per_client(128 * 1024);
/// assert_eq!(guard.max_body_bytes(), 64 * 1024);
/// ```
#[derive(Clone)]
pub struct Guard {
    max_body_bytes: usize,
    /// `None`: the body limit.
    max_bytes_in_flight_per_client: Option<usize>,
    body_deadline: Duration,
    client_address: ClientAddress,
    /// Who a request's user is: the elicitation's check, when served through one.
    authenticate: Option<SharedAuthenticate>,
}

impl Default for Guard {
    fn default() -> Self {
        Guard::new()
    }
}

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guard")
            .field("max_body_bytes", &self.max_body_bytes)
            .field(
                "max_bytes_in_flight_per_client",
                &self.max_bytes_in_flight_per_client(),
            )
            .field("body_deadline", &self.body_deadline)
            .finish_non_exhaustive()
    }
}

impl Guard {
    /// The largest request body accepted unless set otherwise: ample for elicitation traffic
    /// (a 2026-07-28 retry carries its `requestState`, at most
    /// [`Elicitation::with_max_state_bytes`](crate::rmcp::Elicitation::with_max_state_bytes), 64 KiB by
    /// default, and the answers), and small enough that rmcp's parse of a hostile body stays
    /// within about 30 MiB.
    pub const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024;

    /// How long a request body may take to arrive whole unless set otherwise: a body at the
    /// default limit within it needs about 9 KB/s, which any client that is not stalling
    /// sends.
    pub const DEFAULT_BODY_DEADLINE: Duration = Duration::from_secs(30);

    /// The defaults: bodies up to 256 KiB, and as many bytes of bodies in flight per client,
    /// each read whole within 30 s; the client's address from axum's
    /// `ConnectInfo<SocketAddr>`.
    pub fn new() -> Self {
        Guard {
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
            max_bytes_in_flight_per_client: None,
            body_deadline: Self::DEFAULT_BODY_DEADLINE,
            client_address: ClientAddress::ConnectInfo,
            authenticate: None,
        }
    }

    /// The largest request body accepted, in bytes; a larger one is answered 413, with a text
    /// that names the limit.
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// How many bytes of request bodies one client may have in flight (read, or being
    /// served by rmcp) at once; a body that does not fit waits, unread, until its client's
    /// others are answered. A body larger than this takes all of it, alone. By default the
    /// body limit: one body at the limit at a time, or many small ones together. A server
    /// whose clients send large requests in parallel raises it; each body at the limit in
    /// flight can cost rmcp's parse about 30 MiB.
    ///
    /// # Panics
    ///
    /// If `bytes` is 0, which would limit nothing.
    pub fn with_max_bytes_in_flight_per_client(mut self, bytes: usize) -> Self {
        assert!(
            bytes > 0,
            "Guard::with_max_bytes_in_flight_per_client(0) would limit nothing; give at least 1"
        );
        self.max_bytes_in_flight_per_client = Some(bytes);
        self
    }

    /// How long a request body may take, from when the guard starts reading it, to arrive
    /// whole; one still arriving then is cut and answered 408 (Request Timeout), which the
    /// service counts ([`GuardCounts::bodies_timed_out`]), and its bytes in flight are its
    /// client's again. Bytes trickled one at a time keep a connection busy for as long as
    /// the client likes otherwise, and with it the client's allowance of bytes in flight.
    ///
    /// # Panics
    ///
    /// If `deadline` is zero, which would cut every body.
    pub fn with_body_deadline(mut self, deadline: Duration) -> Self {
        assert!(
            !deadline.is_zero(),
            "Guard::with_body_deadline(0) would cut every body; give a time to read one in"
        );
        self.body_deadline = deadline;
        self
    }

    /// Where a request without a session the server holds gets its client's address, which
    /// its bodies in flight count against. By default the peer's address from axum's
    /// `ConnectInfo<SocketAddr>`: serve with `into_make_service_with_connect_info::<SocketAddr>()`.
    /// Behind a reverse proxy every peer is the proxy: read the client's address from the
    /// header your proxy sets, and only from a proxy you trust.
    ///
    /// A request whose client cannot be told (no `ConnectInfo`, or `address` finds none) is
    /// answered 500 with a text that says how to fix the server, counted
    /// ([`GuardCounts::requests_without_client`]) and logged once (`tracing`, at `error`): such
    /// requests would otherwise share one allowance, and one slow body would hold up every
    /// client. The guard cannot see how it is served until a request comes, so a server
    /// served without it fails its first call without a session, in its own tests, before
    /// any user does.
    ///
    /// ```
    /// use elicit_mcp::http::Guard;
    ///
    /// let guard = Guard::new().with_client_address(|request| {
    ///     let forwarded = request.headers.get("x-real-ip")?.to_str().ok()?;
    ///     forwarded.parse().ok()
    /// });
    /// # let _ = guard;
    /// ```
    pub fn with_client_address(
        mut self,
        address: impl Fn(&Parts) -> Option<IpAddr> + Send + Sync + 'static,
    ) -> Self {
        self.client_address = ClientAddress::Function(Arc::new(address));
        self
    }

    /// The body limit, in bytes.
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_bytes
    }

    /// The bytes of bodies one client may have in flight.
    pub fn max_bytes_in_flight_per_client(&self) -> usize {
        self.max_bytes_in_flight_per_client
            .unwrap_or(self.max_body_bytes)
            .max(1)
    }

    /// How long a request body may take to arrive whole.
    pub fn body_deadline(&self) -> Duration {
        self.body_deadline
    }

    /// rmcp's [`StreamableHttpService`] from the same arguments as
    /// [`StreamableHttpService::new`], with this guard in front; `config`'s body limit is set
    /// to the guard's. `sessions` is the manager the guard asks whether a session exists.
    pub fn service<H, M>(
        &self,
        handler: impl Fn() -> Result<H, std::io::Error> + Send + Sync + 'static,
        sessions: Arc<M>,
        config: StreamableHttpServerConfig,
    ) -> Guarded<StreamableHttpService<H, M>, M>
    where
        H: ServerHandler + Send + 'static,
        M: SessionManager,
    {
        let mcp = StreamableHttpService::new(handler, sessions.clone(), config);
        self.layer(sessions).layer(mcp)
    }

    /// Serves the handlers `handler` makes (one per 2025-11-25 session, or per 2026-07-28
    /// request) through `elicitation`, over rmcp's [`StreamableHttpService`] with this guard in
    /// front: the elicitation's state (its seal, tasks, tracker) is the one value every
    /// session shares, and its check of who the user is
    /// ([`Elicitation::with_authentication`]) runs on every request before rmcp reads it, a
    /// refusal answered 401 with its `WWW-Authenticate` challenge.
    ///
    /// `handler` makes the server's own handler, which holds nothing of the elicitation (it
    /// cannot: no other way gives it one); `sessions` is the manager the guard asks whether a
    /// session exists.
    ///
    /// # Errors
    ///
    /// A [`SetupError`] before anything is served, found on a first handler made here: a task
    /// declaration that does not hold, or URL mode without
    /// [`with_authentication`](Elicitation::with_authentication).
    pub fn serve<H, M>(
        &self,
        elicitation: &Elicitation,
        handler: impl Fn() -> H + Send + Sync + 'static,
        sessions: Arc<M>,
        config: StreamableHttpServerConfig,
    ) -> Result<Guarded<StreamableHttpService<Elicited<H>, M>, M>, SetupError>
    where
        H: ServerHandler + Send + 'static,
        M: SessionManager,
    {
        elicitation.check(&handler(), crate::rmcp::Serving::Http)?;
        let mut guard = self.clone();
        guard.authenticate = elicitation.authentication();
        let elicitation = elicitation.clone();
        let mcp = StreamableHttpService::new(
            move || Ok(elicitation.wrap(handler())),
            sessions.clone(),
            config,
        );
        Ok(guard.layer(sessions).layer(mcp))
    }

    /// The guard as a tower layer over a [`StreamableHttpService`] built elsewhere, whose
    /// session manager is `sessions` (the same `Arc` given to
    /// [`StreamableHttpService::new`]). Layering sets the service's body limit to the
    /// guard's.
    pub fn layer<M>(&self, sessions: Arc<M>) -> GuardLayer<M> {
        GuardLayer::new(self.clone(), sessions)
    }
}
