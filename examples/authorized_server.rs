//! A server whose users are proven by an authorization server, as MCP authorization asks: the
//! MCP endpoint is an OAuth resource server ([`ProtectedResource`]) that takes only JWT access
//! tokens the issuer made for it (`resource` = `PUBLIC_URL/mcp`, RFC 8707) with its scope, and
//! publishes the protected-resource metadata (RFC 9728) from which an MCP client finds the
//! issuer, registers and signs its user in. The secure page's browser signs in at the same
//! issuer ([`OidcLogin`]), so the page's user and the MCP request's user are made alike
//! (issuer and `sub`) and the page shows a form only to the user it was asked for.
//!
//! Three tools: `whoami` answers the caller's user id (the issuer, a space, the `sub`); `book`
//! asks for a stay in a form (a date, the nights, a room type); `connect_calendar` asks for a
//! calendar's API key on the secure page through URL mode, as `secure_page` does (as a task,
//! for a client that declared the tasks extension), and keeps it for the user.
//!
//! Against the repository's test provider (`.ci/oidc`: users `alice` and `bob`, no password,
//! for tests only), which exports the issuer and the page's client:
//!
//! ```sh
//! bash .ci/oidc sh -c 'cargo run -p elicit-examples --features rmcp \
//!     --example authorized_server -- --issuer "$ELICIT_OIDC_ISSUER" \
//!     --page-client-id "$ELICIT_OIDC_PAGE_CLIENT_ID" \
//!     --page-client-secret "$ELICIT_OIDC_PAGE_CLIENT_SECRET" 127.0.0.1:8000'
//! ```
//!
//! It prints `listening on http://127.0.0.1:PORT/mcp` (the address argument, loopback only,
//! defaults to a free port). `--public-url URL` is the origin clients and browsers reach the
//! server at (`https://host[:port]` behind a proxy; by default `http://` and the address it
//! listens on, port included once bound): the resource is `URL/mcp`, the metadata is at
//! `URL/.well-known/oauth-protected-resource/mcp`, the page at `URL/secure/ID`, and the page's
//! client must be registered at the issuer with the redirect URI `URL/login/callback` (the
//! test provider's page client takes any loopback port).
//! `--scope NAME` (again for more) is what every token must carry: `mcp:tools` by default.

use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;

use elicit_examples::calendar;
use elicit_examples::http::{OPTIONS_HELP, ServerOptions, serve};
use elicit_examples::keys;
use elicit_mcp::oauth::ProtectedResource;
use elicit_mcp::page::{OidcLogin, SecurePage};
use elicit_mcp::rmcp::{Ask, Elicitation, Tasks};
use elicit_mcp::server::{ElicitationTracker, MemoryCredentials, SecureForms, UrlPolicy};
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

/// The booking form of `book`.
#[derive(Debug, Elicit)]
#[elicit(
    message = "Which stay would you like to book?",
    rename_all = "camelCase"
)]
pub(crate) struct Stay {
    /// The day you arrive
    #[elicit(title = "Check-in date")]
    check_in: time::Date,
    /// How many nights you stay
    #[elicit(minimum = 1, maximum = 30, default = 1)]
    nights: u8,
    #[elicit(title = "Room type")]
    room: Room,
}

/// A single-select with titles (`oneOf`).
#[derive(Debug, Clone, Copy, Elicit)]
#[elicit(rename_all = "kebab-case")]
pub(crate) enum Room {
    #[elicit(title = "Single room")]
    Single,
    #[elicit(title = "Double room")]
    Double,
    #[elicit(title = "Suite with a terrace")]
    Suite,
}

impl Room {
    /// What the booking's summary calls it.
    fn described(self) -> &'static str {
        match self {
            Room::Single => "a single room",
            Room::Double => "a double room",
            Room::Suite => "the suite with a terrace",
        }
    }
}

#[derive(Clone)]
struct Hotel {
    tool_router: ToolRouter<Hotel>,
    /// The calendar keys users gave, kept per user for the whole process.
    credentials: Arc<MemoryCredentials>,
}

#[tool_router]
impl Hotel {
    fn new(credentials: Arc<MemoryCredentials>) -> Self {
        Hotel {
            tool_router: Self::tool_router(),
            credentials,
        }
    }

    #[tool(description = "Says who the caller is: the user the access token was issued to")]
    async fn whoami(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let user = calendar::signed_in(&ask)?;
        Ok(text(user.to_string()))
    }

    #[tool(description = "Books a stay; asks the user for the date, the nights and the room")]
    async fn book(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let user = calendar::signed_in(&ask)?.clone();
        let stay = match ask.form::<Stay>().await {
            Ok(ElicitOutcome::Accepted(stay)) => stay,
            Ok(_) => return Ok(text(format!("{user} booked nothing."))),
            Err(error) => return error.into_call_result(),
        };
        let nights = match stay.nights {
            1 => "1 night".to_owned(),
            nights => format!("{nights} nights"),
        };
        Ok(text(format!(
            "Booked {} for {user}: {nights} from {}.",
            stay.room.described(),
            stay.check_in
        )))
    }

    #[tool(description = "Connects the user's calendar; asks for its API key on the server's page")]
    async fn connect_calendar(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        calendar::connect_calendar(ask, self.credentials.as_ref()).await
    }
}

fn text(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Hotel {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("elicit-authorized", env!("CARGO_PKG_VERSION")),
        )
    }
}

const USAGE: &str = "usage: authorized_server --issuer URL --page-client-id ID --page-client-secret SECRET [--public-url URL] [--scope NAME]... [--max-body-bytes BYTES] [--ask-timeout SECONDS] [--session-idle SECONDS] [ADDRESS]";

const AUTHORIZATION_HELP: &str = concat!(
    "  --issuer URL            the authorization server's issuer identifier\n",
    "  --page-client-id ID     the secure page's OpenID Connect client at the issuer\n",
    "  --page-client-secret SECRET\n",
    "                          that client's secret (client_secret_basic)\n",
    "  --public-url URL        the origin clients reach the server at (default: http://ADDRESS)\n",
    "  --scope NAME            a scope every access token must carry, again for more\n",
    "                          (default: mcp:tools)",
);

/// The scope every access token must carry unless `--scope` says otherwise.
const DEFAULT_SCOPE: &str = "mcp:tools";

/// The command line.
struct Options {
    issuer: String,
    page_client_id: String,
    page_client_secret: String,
    public_url: Option<String>,
    scopes: Vec<String>,
    server: ServerOptions,
}

impl Options {
    /// The options from the command line; `None` once `--help` has printed them.
    fn parse() -> Result<Option<Self>, Box<dyn Error>> {
        let (mut issuer, mut page_client_id, mut page_client_secret) = (None, None, None);
        let mut public_url = None;
        let mut scopes = Vec::new();
        let mut server = ServerOptions::default();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value; {USAGE}"));
            match arg.as_str() {
                "--help" | "-h" => {
                    println!("{USAGE}\n\n{AUTHORIZATION_HELP}\n{OPTIONS_HELP}");
                    return Ok(None);
                }
                "--issuer" => issuer = Some(value()?),
                "--page-client-id" => page_client_id = Some(value()?),
                "--page-client-secret" => page_client_secret = Some(value()?),
                "--public-url" => public_url = Some(value()?),
                "--scope" => scopes.push(value()?),
                _ if server.take(&arg, &mut args)? => {}
                _ => return Err(format!("unknown option `{arg}`; {USAGE}").into()),
            }
        }
        let required = |value: Option<String>, name: &str| {
            value.ok_or_else(|| format!("{name} is required; {USAGE}"))
        };
        if scopes.is_empty() {
            scopes.push(DEFAULT_SCOPE.to_owned());
        }
        Ok(Some(Options {
            issuer: required(issuer, "--issuer")?,
            page_client_id: required(page_client_id, "--page-client-id")?,
            page_client_secret: required(page_client_secret, "--page-client-secret")?,
            public_url,
            scopes,
            server,
        }))
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("authorized_server: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn Error>> {
    let Some(options) = Options::parse()? else {
        return Ok(());
    };
    let listener = options.server.listen().await?;
    let bound = format!("http://{}", listener.local_addr()?);
    let public_url = options.public_url.as_deref().unwrap_or(&bound);
    let public_url = public_url.trim_end_matches('/');

    // The MCP endpoint's tokens and the page's browser, both proven by the same issuer; its
    // metadata and keys are fetched now, so a wrong issuer or client fails here, saying why.
    let resource = ProtectedResource::new(&options.issuer, &format!("{public_url}/mcp"))?
        .with_scopes(options.scopes.iter().cloned())?;
    let tokens = resource.jwt().await?;
    // The page and its login share the MCP endpoint's origin.
    let origin = resource.public_origin();
    let login = OidcLogin::discover(
        &resource,
        origin,
        &options.page_client_id,
        &options.page_client_secret,
    )
    .await?;

    // http links only for a server on loopback (development); https everywhere else.
    let policy = if origin.starts_with("https://") {
        UrlPolicy::production()
    } else {
        UrlPolicy::development()
    };
    let tracker = Arc::new(ElicitationTracker::new(policy));
    let forms = SecureForms::new(format!("{origin}/secure"))?;
    let elicitation = options.server.elicitation(
        Elicitation::new(keys::state_seal()?)
            .with_authentication(tokens)
            .with_url_mode(tracker.clone())
            .with_secure_page(forms.clone())
            .with_tasks(Tasks::new().optional("connect_calendar")),
    );
    let page = SecurePage::new(forms, tracker, elicitation.clone(), login.clone())
        .with_server_name("elicit-authorized")
        .with_login_url(OidcLogin::LOGIN_URL);
    let pages = axum::Router::new()
        .merge(page.router())
        .merge(login.router())
        .merge(resource.metadata_router());

    // The line tests and scripts wait for.
    println!("listening on {bound}/mcp");
    if public_url != bound {
        eprintln!("authorized_server: public URL {public_url}/mcp");
    }
    let credentials = Arc::new(MemoryCredentials::new());
    let hotel = move || Hotel::new(credentials.clone());
    serve(listener, &elicitation, hotel, pages, &options.server).await
}
