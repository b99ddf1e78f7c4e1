//! What the example servers on streamable HTTP share: their command line ([`ServerOptions`]),
//! the development identity of a loopback server ([`development_user`]), and [`serve`], which
//! puts rmcp's streamable HTTP service at `/mcp` behind elicit's
//! [`Guard`](elicit_mcp::http::Guard) (the body limit, JSON-RPC answers to broken JSON-RPC,
//! DELETE answered as clients expect, the limit on requests in flight per client, who the user
//! is), next to the server's own pages, until Ctrl-C or SIGTERM.

mod identity;
mod options;
mod replicas;

use std::error::Error;
use std::net::SocketAddr;
use std::sync::Arc;

use elicit_mcp::rmcp::Elicitation;
use rmcp::ServerHandler;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

pub use identity::{DEMO_USER, development_user, development_user_or_demo};
pub use options::{DEFAULT_MAX_BODY_BYTES, OPTIONS_HELP, ServerOptions};
pub use replicas::{REPLICA_HELP, ReplicaOptions};

/// Serves `handler`'s servers (one per MCP session, or per 2026-07-28 request) through
/// `elicitation` at `/mcp` on `listener`, and `pages` beside them, until Ctrl-C or SIGTERM;
/// then ends the MCP sessions, whose event streams would otherwise keep the server open.
///
/// Every request body is capped at [`ServerOptions::max_body_bytes`]: a larger one is answered
/// 413 before anything reads it. The pages' bodies get the same cap.
pub async fn serve<H: ServerHandler>(
    listener: tokio::net::TcpListener,
    elicitation: &Elicitation,
    handler: impl Fn() -> H + Send + Sync + 'static,
    pages: axum::Router,
    options: &ServerOptions,
) -> Result<(), Box<dyn Error>> {
    let guard = options.guard();
    let config = StreamableHttpServerConfig::default();
    let shutdown = config.cancellation_token.clone();
    let mut sessions = LocalSessionManager::default();
    if let Some(idle) = options.session_idle() {
        sessions.session_config.keep_alive = Some(idle);
    }
    let mcp = guard.serve(elicitation, handler, Arc::new(sessions), config)?;
    let pages = pages.layer(axum::extract::DefaultBodyLimit::max(guard.max_body_bytes()));
    let router = axum::Router::new().nest_service("/mcp", mcp).merge(pages);
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        stop_signal().await;
        shutdown.cancel();
    })
    .await?;
    Ok(())
}

/// Ctrl-C, or SIGTERM (what `.ci/conformance` and the tests send when they are done).
async fn stop_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
