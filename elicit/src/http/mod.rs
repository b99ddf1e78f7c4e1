//! What to put in front of rmcp's streamable HTTP server ([`StreamableHttpService`]), for what
//! it cannot be told to do itself (rmcp 3.11):
//!
#![doc = include_str!("../docs/http.md")]

pub(crate) mod check;
mod clients;
mod counts;
mod origin;
mod owner_store;
mod owners;
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
pub use origin::NotAnOriginError;
use origin::Origin;
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
    /// The browser origins served; `None`: the server's own.
    allowed_origins: Option<Vec<Origin>>,
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
            .field("allowed_origins", &self.allowed_origins)
            .finish_non_exhaustive()
    }
}

impl Guard {
    /// The largest request body accepted unless set otherwise: ample for elicitation traffic (a
    /// 2026-07-28 retry carries its `requestState`, at most
    /// [`Elicitation::with_max_state_bytes`](crate::rmcp::Elicitation::with_max_state_bytes),
    /// 64 KiB by default, and the answers), and small enough that rmcp's parse of a hostile body
    /// stays within about 30 MiB.
    pub const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024;

    /// How long a request body may take to arrive whole unless set otherwise: a body at the
    /// default limit within it needs about 9 KB/s, which any client that is not stalling
    /// sends.
    pub const DEFAULT_BODY_DEADLINE: Duration = Duration::from_secs(30);

    /// The defaults: bodies up to 256 KiB, and as many bytes of bodies in flight per client,
    /// each read whole within 30 s; the client's address from axum's
    /// `ConnectInfo<SocketAddr>`; browser requests from the server's own origin only.
    pub fn new() -> Self {
        Guard {
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
            max_bytes_in_flight_per_client: None,
            body_deadline: Self::DEFAULT_BODY_DEADLINE,
            client_address: ClientAddress::ConnectInfo,
            authenticate: None,
            allowed_origins: None,
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

    /// The browser origins whose requests are served, in place of the default, the server's
    /// own. Each is an origin as a browser sends it, `scheme://host[:port]` (the port may be
    /// omitted where it is the scheme's default); a request whose `Origin` is not one of them
    /// (scheme, host and port) is answered 403 before anything else is done with it. An empty
    /// list refuses every request that carries an `Origin`. A request without one (a client
    /// that is not a browser) is served whatever the list. `Origin: null` is never on it.
    ///
    /// ```
    /// use elicit_mcp::http::Guard;
    ///
    /// // The server's own web app, on another host, may call it from the browser.
    /// let guard = Guard::new().with_allowed_origins(["https://app.example.com"])?;
    /// # let _ = guard;
    /// # Ok::<(), elicit_mcp::http::NotAnOriginError>(())
    /// ```
    ///
    /// An entry that is no origin (a path, a user, no scheme, `null`) is refused, named: the
    /// list often comes from the server's configuration, not its code.
    pub fn with_allowed_origins<I>(mut self, origins: I) -> Result<Self, NotAnOriginError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let origins = origins
            .into_iter()
            .map(|origin| {
                Origin::parse(origin.as_ref()).ok_or_else(|| NotAnOriginError::new(origin))
            })
            .collect::<Result<_, _>>()?;
        self.allowed_origins = Some(origins);
        Ok(self)
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
    /// refusal answered with its status (401, 400 or 403) and `WWW-Authenticate` challenge.
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
