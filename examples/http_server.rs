//! The crate page's streamable HTTP server, runnable: a `#[tool]` that asks the user for the
//! dates of a stay through an [`Ask`], and one that runs as a task and asks inside it, on both
//! protocol revisions, served through one [`Elicitation`] (built once: the seal, the tasks, who
//! the user is) behind elicit's [`Guard`] (the body limit, JSON-RPC answers to broken JSON-RPC,
//! DELETE answered as clients expect, a limit on requests in flight per client, 401 for a
//! request without a user), with its own name and version as its server info, until Ctrl-C.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example http_server -- 127.0.0.1:0
//! ```
//!
//! It prints `listening on http://127.0.0.1:PORT/mcp`; the address argument is where to listen
//! (loopback only; `127.0.0.1:0` is a free port, and the default). Every request needs
//! `Authorization: Bearer NAME`, which this development server takes as the user `NAME`
//! ([`development_user`]); a real server checks the token with its authorization server.

use std::net::SocketAddr;
use std::sync::Arc;

use elicit_examples::http::development_user;
use elicit_examples::keys;
use elicit_mcp::http::Guard;
use elicit_mcp::rmcp::{Ask, Elicitation, Tasks};
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

#[derive(Elicit, Debug)]
#[elicit(
    message = "Where and when would you like to stay?",
    rename_all = "camelCase"
)]
pub(crate) struct Stay {
    #[elicit(format = "date")]
    check_in: String,
    #[elicit(minimum = 1, maximum = 30, default = 1)]
    nights: u8,
}

#[derive(Elicit, Debug)]
#[elicit(message = "Archive the old bookings too?")]
pub(crate) struct Scope {
    archive: bool,
    #[elicit(minimum = 1, maximum = 10, default = 3)]
    years: u8,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Hotel {
    /// Which hotel
    name: String,
}

#[derive(Clone)]
struct Bookings {
    tool_router: ToolRouter<Bookings>,
}

#[tool_router]
impl Bookings {
    fn new() -> Self {
        Bookings {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Books a stay; asks the user for the dates")]
    async fn book(
        &self,
        Parameters(hotel): Parameters<Hotel>,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        // A wrong answer is asked again by itself (the errors in the message, the right
        // answers kept); a client that cannot show forms gets -32021; the rest goes to the model.
        let stay = match ask.form::<Stay>().await {
            Ok(ElicitOutcome::Accepted(stay)) => stay,
            Ok(_) => return Ok(text("no booking")),
            Err(error) => return error.into_call_result(),
        };
        let reply = format!(
            "{} nights at {} from {}",
            stay.nights, hotel.name, stay.check_in
        );
        Ok(text(&reply))
    }

    #[tool(description = "Cleans up old bookings (minutes); asks what to keep")]
    async fn clean_up(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        // As a task: `input_required` until `tasks/update` answers; only this user may.
        let reply = match ask.form::<Scope>().await {
            Ok(ElicitOutcome::Accepted(scope)) if scope.archive => {
                format!("cleaned up, {} years archived", scope.years)
            }
            Ok(_) => "cleaned up, nothing archived".to_owned(),
            Err(error) => return error.into_call_result(),
        };
        Ok(text(&reply))
    }
}

fn text(text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Bookings {
    // Clients show who is asking by this name: the server's own, not rmcp's default.
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("elicit-bookings", env!("CARGO_PKG_VERSION")),
        )
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args().nth(1);
    let address = elicit_examples::listen_address(address.as_deref())?;

    // Built once: what every session, request and task of the server shares.
    let elicitation = Elicitation::new(keys::state_seal()?)
        .with_tasks(Tasks::new().optional("clean_up"))
        .with_authentication(development_user);
    let config = StreamableHttpServerConfig::default();
    let shutdown = config.cancellation_token.clone();
    let sessions = Arc::new(LocalSessionManager::default());
    let mcp = Guard::new().serve(&elicitation, Bookings::new, sessions, config)?;
    let app = axum::Router::new().nest_service("/mcp", mcp);

    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        let _ = tokio::signal::ctrl_c().await;
        // Ends the sessions' event streams, which would otherwise keep the server open.
        shutdown.cancel();
    })
    .await?;
    Ok(())
}
