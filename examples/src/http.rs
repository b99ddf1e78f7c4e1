//! What the example servers on streamable HTTP share: their command line ([`ServerOptions`])
//! and [`serve`], which puts rmcp's streamable HTTP service at `/mcp` behind a limit on
//! request bodies, a check of their JSON and of the sessions a DELETE ends (see `guard.rs` for
//! what rmcp answers without them), next to the server's own pages, until Ctrl-C or SIGTERM.

mod guard;
mod options;

use std::error::Error;
use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

pub use options::{DEFAULT_MAX_BODY_BYTES, OPTIONS_HELP, ServerOptions};

/// Serves `handler`'s servers (one per MCP session, or per 2026-07-28 request) at `/mcp` on
/// `listener`, and `pages` beside them, until Ctrl-C or SIGTERM; then ends the MCP sessions,
/// whose event streams would otherwise keep the server open.
///
/// Every request body is capped at [`ServerOptions::max_body_bytes`]: a larger one is answered
/// 413 before anything reads it.
pub async fn serve<H: ServerHandler>(
    listener: tokio::net::TcpListener,
    handler: impl Fn() -> H + Send + Sync + 'static,
    pages: axum::Router,
    options: &ServerOptions,
) -> Result<(), Box<dyn Error>> {
    let max_body_bytes = options.max_body_bytes();
    // rmcp's own limit too, so that nothing reaches its parser above the limit even if the
    // layers in front of it change.
    let config = StreamableHttpServerConfig::default().with_max_request_body_bytes(max_body_bytes);
    let shutdown = config.cancellation_token.clone();
    let mut sessions = LocalSessionManager::default();
    if let Some(idle) = options.session_idle() {
        sessions.session_config.keep_alive = Some(idle);
    }
    let sessions = Arc::new(sessions);
    let mcp: StreamableHttpService<H, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(handler()), sessions.clone(), config);
    let router = guard::guarded(
        axum::Router::new().nest_service("/mcp", mcp),
        sessions,
        pages,
        max_body_bytes,
    );
    axum::serve(listener, router)
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
