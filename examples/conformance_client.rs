//! An MCP client on rmcp that answers form elicitations the way a user who accepts without
//! typing anything would: every field the server gave a default takes it. It is what the
//! official conformance suite's client scenario `elicitation-sep1034-client-defaults` checks,
//! built on elicit's client helpers: the request is checked against what this client declared
//! and the spec's schema subset, then [`accept_form`] fills in the defaults and validates the
//! answer before it is sent.
//!
//! The suite starts its own test server and runs this client with the server's URL appended:
//!
//! ```sh
//! cargo build --example conformance_client
//! conformance client --command target/debug/examples/conformance_client \
//!     --scenario elicitation-sep1034-client-defaults
//! ```
//!
//! It also passes `sep-2322-client-request-state`, whose server speaks only 2026-07-28: the
//! client negotiates (rmcp's `server/discover`, falling back to the `initialize` handshake of
//! 2025-11-25 for a server that does not discover), and on 2026-07-28 rmcp's retry loop brings
//! each form to the same handler, answered with the same `accept_form`.
//!
//! (`.ci/conformance` does that.) Run by hand, it takes the URL of a streamable-HTTP MCP server
//! on loopback and calls every tool the server lists, without arguments:
//! `cargo run -p elicit-examples --features rmcp --example conformance_client -- http://127.0.0.1:3000/mcp`.

use std::error::Error;

use elicit_examples::check_loopback;
use elicit_mcp::client::accept_form;
use elicit_mcp::wire::{ElicitMode, ElicitRequestParams, ElicitationCapability};
use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, ContentBlock,
    Implementation, ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData};

/// What this client declares: form mode only (it has no browser to open a URL in).
fn declared_elicitation() -> ElicitationCapability {
    ElicitationCapability::form()
}

#[derive(Debug)]
pub struct AcceptDefaultsClient;

impl ClientHandler for AcceptDefaultsClient {
    fn get_info(&self) -> ClientConfig {
        // Form mode (and URL mode) have no settings rmcp could not carry.
        let capabilities =
            ClientCapabilities::try_from(&declared_elicitation()).unwrap_or_default();
        ClientConfig::new(
            capabilities,
            Implementation::new("elicit-conformance-client", env!("CARGO_PKG_VERSION")),
        )
        // What `initialize` asks for when the server does not discover: the handshake's
        // newest revision, in which servers send `elicitation/create`.
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        // Outside the spec's subset, or a mode this client did not declare: -32602.
        let request = ElicitRequestParams::try_from(&request)?;
        if let Err(not_declared) =
            ElicitationCapability::require(Some(&declared_elicitation()), request.mode())
        {
            return Err(ErrorData::invalid_params(not_declared.to_string(), None));
        }
        let ElicitRequestParams::Form(form) = request else {
            unreachable!(
                "only form mode is declared, and {:?} was checked",
                ElicitMode::Form
            )
        };
        eprintln!("elicitation: {}", form.message);
        // The user accepts without filling anything in: the defaults fill the form, and the
        // answer is validated against the schema before it goes out.
        match accept_form(&form.requested_schema, serde_json::Map::new()) {
            Ok(result) => {
                eprintln!(
                    "accepting with {}",
                    serde_json::to_string(&result.content).unwrap_or_default()
                );
                Ok(sdk::ElicitResult::from(result))
            }
            // Required fields without defaults: this user has nothing to give, so decline.
            Err(missing) => {
                eprintln!("declining: the defaults do not fill the form:\n{missing}");
                Ok(sdk::ElicitResult::new(sdk::ElicitationAction::Decline))
            }
        }
    }
}

/// The server URL: the last argument, as the conformance runner appends it. Loopback only.
fn server_url() -> Result<String, Box<dyn Error>> {
    let url = std::env::args()
        .next_back()
        .filter(|arg| arg.starts_with("http"))
        .ok_or("usage: conformance_client <http://127.0.0.1:PORT/mcp>")?;
    check_loopback(&url)?;
    Ok(url)
}

/// 2026-07-28 through `server/discover` when the server speaks it; otherwise (the probe
/// answered with an error) rmcp falls back to the `initialize` handshake on 2025-11-25.
pub async fn connect(
    url: &str,
) -> Result<RunningService<RoleClient, AcceptDefaultsClient>, Box<dyn Error>> {
    connect_with(StreamableHttpClientTransportConfig::with_uri(url)).await
}

/// As [`connect`], sending `token` as the bearer token of every request.
pub async fn connect_as(
    url: &str,
    token: &str,
) -> Result<RunningService<RoleClient, AcceptDefaultsClient>, Box<dyn Error>> {
    connect_with(StreamableHttpClientTransportConfig::with_uri(url).auth_header(token)).await
}

async fn connect_with(
    config: StreamableHttpClientTransportConfig,
) -> Result<RunningService<RoleClient, AcceptDefaultsClient>, Box<dyn Error>> {
    let negotiate = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    };
    let transport = StreamableHttpClientTransport::from_config(config);
    Ok(AcceptDefaultsClient
        .serve_with_lifecycle(transport, negotiate)
        .await?)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let url = server_url()?;
    if let Ok(scenario) = std::env::var("MCP_CONFORMANCE_SCENARIO") {
        eprintln!("conformance scenario {scenario} against {url}");
    }
    let client = connect(&url).await?;
    let tools = client.list_all_tools().await?;
    if tools.is_empty() {
        return Err(format!("{url} lists no tools").into());
    }
    for tool in tools {
        let result = client
            .call_tool(CallToolRequestParams::new(tool.name.clone()))
            .await?;
        let text: Vec<&str> = result
            .content
            .iter()
            .filter_map(ContentBlock::as_text)
            .map(|text| text.text.as_str())
            .collect();
        println!("{} -> {}", tool.name, text.join("\n"));
    }
    client.cancel().await?;
    Ok(())
}
