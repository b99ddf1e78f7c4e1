//! A tool that needs a secret, asked the spec's way: `connect_calendar` asks for the user's
//! calendar API key on the server's own page, through URL mode, with
//! [`Ask::secure`](elicit_mcp::rmcp::Ask::secure). The MCP client sees a consent message and a
//! link, never the form and never the key; the page (`elicit_mcp::page`) shows the form only to
//! the user the link was made for, and the tool reads the typed answer once. For a client
//! that declared the tasks extension, the tool runs as a task, and the page answers it the same.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example secure_page
//! ```
//!
//! It prints `listening on http://127.0.0.1:PORT/mcp` (the address argument, loopback only,
//! defaults to a free port). Development identities, for loopback only: the MCP side takes
//! `Authorization: Bearer NAME` as the user `NAME`; the page's browser signs in at
//! `http://127.0.0.1:PORT/login?user=NAME`. The page is at `http://127.0.0.1:PORT/secure/ID`.

use std::net::SocketAddr;
use std::sync::Arc;

use elicit_examples::http::{ServerOptions, development_user, serve};
use elicit_mcp::page::{DevelopmentLogin, SecurePage};
use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal, Tasks};
use elicit_mcp::server::{ElicitationTracker, SecureForms, UrlPolicy};
use elicit_mcp::{Elicit, ElicitOutcome, Secret};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

/// What `connect_calendar` needs: a secret, so it is asked on the page only.
#[derive(Elicit)]
#[elicit(message = "Connect your calendar")]
struct CalendarKey {
    /// The API key from your calendar's settings
    #[elicit(min_length = 8)]
    api_key: Secret<String>,
    /// Which of your calendars to read
    #[elicit(min_length = 1, max_length = 60)]
    calendar: String,
}

#[derive(Clone)]
struct Calendars {
    tool_router: ToolRouter<Calendars>,
}

#[tool_router]
impl Calendars {
    fn new() -> Self {
        Calendars {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Connects the user's calendar; asks for its API key on the server's page")]
    async fn connect_calendar(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let user = ask
            .user()
            .map_or_else(|| "nobody".to_owned(), |user| user.as_str().to_owned());
        let reply = match ask.secure::<CalendarKey>().await {
            Ok(ElicitOutcome::Accepted(key)) => format!(
                "Connected {user}'s calendar \"{}\" with a key of {} characters.",
                key.calendar,
                key.api_key.expose_secret().chars().count()
            ),
            Ok(ElicitOutcome::Declined) => format!("{user} declined to connect a calendar."),
            Ok(_) => format!("{user} closed the calendar form."),
            Err(error) => return error.into_call_result(),
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

const USAGE: &str = "usage: secure_page [--max-body-bytes BYTES] [--ask-timeout SECONDS] [--session-idle SECONDS] [ADDRESS]";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(options) = ServerOptions::parse(USAGE)? else {
        return Ok(());
    };
    let listener = options.listen().await?;
    let address: SocketAddr = listener.local_addr()?;
    let origin = format!("http://{address}");

    // URL mode on loopback http (development), and the page's forms, at /secure.
    let tracker = Arc::new(ElicitationTracker::new(UrlPolicy::development()));
    let forms = SecureForms::new(format!("{origin}/secure"))?;
    let elicitation = options.elicitation(
        Elicitation::new(RequestStateSeal::generated()?)
            .with_authentication(development_user)
            .with_url_mode(tracker.clone())
            .with_secure_page(forms.clone())
            // A task for a client that can poll one: the page answers the same way.
            .with_tasks(Tasks::new().optional("connect_calendar")),
    );
    let login = DevelopmentLogin::on(address)?;
    let page = SecurePage::new(forms, tracker, elicitation.clone(), login.clone())
        .with_server_name("elicit-calendar")
        .with_login_url("/login");
    let pages = axum::Router::new()
        .nest("/secure", page.router())
        .merge(login.router());

    // The line tests and scripts wait for.
    println!("listening on {origin}/mcp");
    serve(listener, &elicitation, Calendars::new, pages, &options).await
}
