//! The elicitation tools of the official MCP conformance suite, served over streamable HTTP on
//! loopback with rmcp, every form a derived type: no JSON schema is written by hand.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example conformance_server  # picks a free port, prints the URL
//! cargo run -p elicit-examples --features rmcp --example conformance_server -- 127.0.0.1:3000  # or listens where told (loopback only)
//! ```
//!
//! The suite (`@modelcontextprotocol/conformance`) then runs against the printed URL, e.g.
//! `conformance server --url http://127.0.0.1:3000/mcp --scenario elicitation-sep1034-defaults`;
//! `.ci/conformance` does exactly that for every elicitation scenario.
//!
//! | tool | scenario | form |
//! |---|---|---|
//! | `test_elicitation` | `tools-call-elicitation` | [`UserResponse`] |
//! | `test_elicitation_sep1034_defaults` | `elicitation-sep1034-defaults` | [`DefaultsForm`] |
//! | `test_elicitation_sep1330_enums` | `elicitation-sep1330-enums` | [`EnumsForm`] |

#[path = "common/mod.rs"]
mod common;

use std::borrow::Cow;
use std::error::Error;

use elicit::rmcp::{ElicitError, ElicitPeer};
use elicit::schema::{LegacyTitledEnumSchema, PrimitiveSchema, RequestedSchema};
use elicit::{
    Elicit, ElicitMode, ElicitOutcome, ElicitRequestFormParams, ElicitResult,
    ElicitationCapability, HasMessage,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};

/// `test_elicitation`: the user's name and email, both required.
#[derive(Debug, Elicit, Serialize)]
struct UserResponse {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// `test_elicitation_sep1034_defaults` (SEP-1034): a default for every primitive type.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please review your profile; every field has a default")]
struct DefaultsForm {
    /// User name
    #[elicit(default = "John Doe")]
    name: String,
    /// User age
    #[elicit(default = 30)]
    age: u32,
    /// User score
    #[elicit(default = 95.5)]
    score: f64,
    /// User status
    #[elicit(default = AccountStatus::Active)]
    status: AccountStatus,
    /// Verification status
    #[elicit(default = true)]
    verified: bool,
}

/// An untitled single-select: `{"type": "string", "enum": ["active", "inactive", "pending"]}`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum AccountStatus {
    Active,
    Inactive,
    Pending,
}

/// `test_elicitation_sep1330_enums` (SEP-1330): every enum shape of the spec.
///
/// `legacy_enum` is derived as a titled single-select like `titled_single`; the tool sends it in
/// the deprecated `enum` + `enumNames` shape instead (see [`with_legacy_enum_names`]), which
/// offers the same values, so the derived parser reads the answer as it is.
#[derive(Debug, Elicit, Serialize)]
#[elicit(
    message = "Please pick from each kind of list",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
struct EnumsForm {
    /// Untitled single-select
    untitled_single: PlainOption,
    /// Titled single-select
    titled_single: TitledOption,
    /// Legacy titled single-select (enumNames)
    legacy_enum: LegacyOption,
    /// Untitled multi-select
    untitled_multi: Vec<PlainOption>,
    /// Titled multi-select
    titled_multi: Vec<TitledChoice>,
}

/// `option1` .. `option3`, without titles: `enum` / `items.enum`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum PlainOption {
    Option1,
    Option2,
    Option3,
}

/// `value1` .. `value3` with titles: `oneOf`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum TitledOption {
    #[elicit(title = "First Option")]
    Value1,
    #[elicit(title = "Second Option")]
    Value2,
    #[elicit(title = "Third Option")]
    Value3,
}

/// `opt1` .. `opt3` with titles, sent as `enumNames`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum LegacyOption {
    #[elicit(title = "Option One")]
    Opt1,
    #[elicit(title = "Option Two")]
    Opt2,
    #[elicit(title = "Option Three")]
    Opt3,
}

/// `value1` .. `value3` with titles, as the items of a multi-select: `items.anyOf`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    #[elicit(title = "First Choice")]
    Value1,
    #[elicit(title = "Second Choice")]
    Value2,
    #[elicit(title = "Third Choice")]
    Value3,
}

/// The arguments of `test_elicitation`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct MessageArgument {
    /// The message to show the user
    message: String,
}

#[derive(Clone)]
pub struct ConformanceServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl ConformanceServer {
    pub fn new() -> Self {
        ConformanceServer {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Asks the user for a username and an email address")]
    async fn test_elicitation(
        &self,
        Parameters(MessageArgument { message }): Parameters<MessageArgument>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        match context.elicit_form_with::<UserResponse>(message).await {
            Ok(outcome) => text_result(format!(
                "User response: <action: {}, content: {}>",
                action_name(&outcome),
                content_json(&outcome)
            )),
            Err(error) => error.to_tool_result(),
        }
    }

    #[tool(description = "Asks for a form with a default for every primitive type (SEP-1034)")]
    async fn test_elicitation_sep1034_defaults(
        &self,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        match context.elicit_form::<DefaultsForm>().await {
            Ok(outcome) => completed(&outcome),
            Err(error) => error.to_tool_result(),
        }
    }

    #[tool(description = "Asks for a form with every enum shape of the spec (SEP-1330)")]
    async fn test_elicitation_sep1330_enums(
        &self,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let schema = with_legacy_enum_names(EnumsForm::requested_schema(), "legacyEnum");
        let request = ElicitRequestFormParams::new(<EnumsForm as HasMessage>::MESSAGE, schema);
        match elicit_with_schema::<EnumsForm>(&context, &request).await {
            Ok(outcome) => completed(&outcome),
            Err(error) => error.to_tool_result(),
        }
    }
}

impl Default for ConformanceServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ConformanceServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "elicit-conformance-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    /// Up to 2025-11-25, the last revision in which a server may send `elicitation/create`.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }
}

/// The derived schema with the titled single-select `property` rewritten in the deprecated
/// `enum` + `enumNames` shape: the same values, the titles as names. Typed, like the rest.
fn with_legacy_enum_names(derived: &'static RequestedSchema, property: &str) -> RequestedSchema {
    let mut schema = derived.clone();
    let properties = schema.properties.to_mut();
    for entry in properties.iter_mut().filter(|entry| entry.name == property) {
        if let PrimitiveSchema::TitledSingleSelect(titled) = &entry.schema {
            entry.schema = PrimitiveSchema::LegacyTitled(LegacyTitledEnumSchema {
                title: titled.title.clone(),
                description: titled.description.clone(),
                values: titled
                    .options
                    .iter()
                    .map(|option| option.value.clone())
                    .collect(),
                names: titled
                    .options
                    .iter()
                    .map(|option| option.title.clone())
                    .collect(),
                default: titled.default.clone(),
            });
        }
    }
    schema
}

/// The typed form call with a schema other than `T`'s own (one that admits the same answers):
/// the same checks before sending, and the reply read by `T`'s derived parser.
async fn elicit_with_schema<T: Elicit>(
    context: &RequestContext<RoleServer>,
    request: &ElicitRequestFormParams,
) -> Result<ElicitOutcome<T>, ElicitError> {
    if !context.server_requests_allowed() {
        return Err(ElicitError::RequestsNotAllowed {
            protocol_version: context
                .protocol_version()
                .map(|v| v.to_string())
                .unwrap_or_default(),
        });
    }
    ElicitationCapability::require(context.client_elicitation().as_ref(), ElicitMode::Form)?;
    let params = rmcp::model::ElicitRequestParams::try_from(request)
        .map_err(ElicitError::Unrepresentable)?;
    let result = context.peer.create_elicitation(params).await?;
    let result = ElicitResult::try_from(&result).map_err(ElicitError::InvalidResult)?;
    Ok(T::from_result(&result)?)
}

fn completed<T: Serialize>(outcome: &ElicitOutcome<T>) -> CallToolResult {
    text_result(format!(
        "Elicitation completed: action={}, content={}",
        action_name(outcome),
        content_json(outcome)
    ))
}

fn action_name<T>(outcome: &ElicitOutcome<T>) -> &'static str {
    match outcome {
        ElicitOutcome::Accepted(_) => "accept",
        ElicitOutcome::Declined => "decline",
        ElicitOutcome::Cancelled => "cancel",
    }
}

/// The accepted value as JSON, with its wire names; `{}` when nothing was accepted.
fn content_json<T: Serialize>(outcome: &ElicitOutcome<T>) -> String {
    match outcome {
        ElicitOutcome::Accepted(value) => {
            serde_json::to_string(value).unwrap_or_else(|e| format!("<unprintable: {e}>"))
        }
        ElicitOutcome::Declined | ElicitOutcome::Cancelled => "{}".to_owned(),
    }
}

fn text_result(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let address = common::listen_address(std::env::args().nth(1).as_deref())?;
    let config = StreamableHttpServerConfig::default();
    let shutdown = config.cancellation_token.clone();
    let service: StreamableHttpService<ConformanceServer, LocalSessionManager> =
        StreamableHttpService::new(|| Ok(ConformanceServer::new()), Default::default(), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(address).await?;
    // The line `.ci/conformance` waits for: the URL to test.
    println!("listening on http://{}/mcp", listener.local_addr()?);
    tokio::spawn({
        let shutdown = shutdown.clone();
        async move {
            stop_signal().await;
            shutdown.cancel();
        }
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { shutdown.cancelled_owned().await })
        .await?;
    Ok(())
}

/// Ctrl-C, or SIGTERM (what `.ci/conformance` sends when it is done).
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
