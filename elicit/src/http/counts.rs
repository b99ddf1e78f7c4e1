//! What the guard counts of the requests it cuts or refuses, for the server's metrics, and the
//! one line it logs when the server is set up so that it cannot tell clients apart.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How many requests a [`Guarded`](super::Guarded) service cut or refused since it was made,
/// from [`Guarded::counts`](super::Guarded::counts): a handle that reads the counts as they
/// are now (its clones, and the service's, share them). Put them in the server's metrics: a
/// count that grows says a client trickles its bodies, or that the server cannot tell its
/// clients apart.
///
/// ```
/// use std::sync::Arc;
///
/// use elicit_mcp::http::Guard;
/// # use rmcp::ServerHandler;
/// # #[derive(Clone)] struct MyServer;
/// # impl ServerHandler for MyServer {}
/// use rmcp::transport::StreamableHttpServerConfig;
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let sessions = Arc::new(LocalSessionManager::default());
/// let config = StreamableHttpServerConfig::default();
/// let mcp = Guard::new().service(|| Ok(MyServer), sessions, config);
/// let counts = mcp.counts();
/// let app: axum::Router = axum::Router::new().nest_service("/mcp", mcp);
/// // Later, in the server's metrics:
/// assert_eq!(counts.bodies_timed_out(), 0);
/// assert_eq!(counts.requests_without_client(), 0);
/// # let _ = app;
/// # }
/// ```
#[derive(Clone, Default)]
pub struct GuardCounts(Arc<Counted>);

#[derive(Default)]
struct Counted {
    bodies_timed_out: AtomicU64,
    requests_without_client: AtomicU64,
    /// Whether the server's missing client address has been logged: once, not per request.
    logged_without_client: AtomicBool,
}

impl GuardCounts {
    /// Requests whose body did not arrive whole within
    /// [`Guard::with_body_deadline`](super::Guard::with_body_deadline), answered 408.
    pub fn bodies_timed_out(&self) -> u64 {
        self.0.bodies_timed_out.load(Ordering::Relaxed)
    }

    /// Requests without a session the server holds whose client's address could not be
    /// found, answered 500: the server is served without `ConnectInfo`, or the function given
    /// to [`Guard::with_client_address`](super::Guard::with_client_address) found none.
    pub fn requests_without_client(&self) -> u64 {
        self.0.requests_without_client.load(Ordering::Relaxed)
    }

    pub(super) fn body_timed_out(&self) {
        self.0.bodies_timed_out.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request refused for want of its client's address, and logs `why` the first
    /// time: a mistake in the server's setup, said once in its log rather than per request.
    pub(super) fn without_client(&self, why: &str) {
        self.0
            .requests_without_client
            .fetch_add(1, Ordering::Relaxed);
        if !self.0.logged_without_client.swap(true, Ordering::Relaxed) {
            tracing::error!(
                "elicit_mcp::http::Guard answered a request 500, and will answer so every \
                 request whose client it cannot tell (counted, logged once): {why}"
            );
        }
    }
}

impl fmt::Debug for GuardCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardCounts")
            .field("bodies_timed_out", &self.bodies_timed_out())
            .field("requests_without_client", &self.requests_without_client())
            .finish()
    }
}
