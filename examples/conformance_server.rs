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
//!
//! On 2026-07-28 requests (no session, no `initialize`), the `input-required-result-*`
//! scenarios' tools and prompt, each written once against [`Ask`] and run by [`Rounds`]:
//!
//! | tool or prompt | asks, under the key the suite expects |
//! |---|---|
//! | `test_input_required_result_elicitation` | [`UserName`] (`user_name`) |
//! | `test_input_required_result_sampling` | sampling (`capital_question`) |
//! | `test_input_required_result_list_roots` | roots (`client_roots`) |
//! | `test_input_required_result_request_state`, `..._tampered_state` | [`Confirmation`] (`confirm`) |
//! | `test_input_required_result_multiple_inputs` | [`UserName`], sampling and roots in one round |
//! | `test_input_required_result_multi_round` | [`StepName`] (`step1`), then [`StepColor`] (`step2`) |
//! | `test_input_required_result_capabilities` | only what the request's `_meta` declares |
//! | prompt `test_input_required_result_prompt` | [`PromptContext`] (`user_context`) |
//!
//! And the tools the suite's client scenario `sep-2322-client-request-state` names (its own
//! mock server serves them there; these behave as it describes, for any client to try):
//!
//! | tool | does |
//! |---|---|
//! | `test_mrtr_echo_state` | asks for [`ContinueConfirmation`] (`confirm`) with a sealed `requestState`, which the retry must echo |
//! | `test_mrtr_no_state` | asks for [`ContinueConfirmation`] (`confirm`) without `requestState` (the ephemeral flow) |
//! | `test_mrtr_unrelated` | completes at once; a `requestState` from another tool's flow is refused |
//! | `test_mrtr_no_result_type` | completes at once (rmcp writes `resultType: "complete"`, which the revision requires of servers) |

#[path = "common/mod.rs"]
mod common;

use std::error::Error;
use std::sync::OnceLock;

use elicit_mcp::rmcp::{
    Ask, ElicitError, ElicitPeer, MISSING_REQUIRED_CLIENT_CAPABILITY, RequestStateSeal, Rounds,
    form_input_request, form_input_response,
};
use elicit_mcp::schema::{LegacyTitledEnumSchema, PrimitiveSchema, RequestedSchema};
use elicit_mcp::{
    Elicit, ElicitMode, ElicitOutcome, ElicitRequestFormParams, ElicitResult,
    ElicitationCapability, HasMessage,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation, InputRequests,
    InputRequiredResult, ListPromptsResult, PaginatedRequestParams, Prompt, PromptMessage,
    ProtocolVersion, RequestStateCodec, Role, ServerCapabilities, ServerConfig,
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

// --- 2026-07-28: the input-required scenarios, each form derived, asked through `Ask` -----

/// `test_input_required_result_elicitation` and `..._multiple_inputs`, under `user_name`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "What is your name?")]
struct UserName {
    name: String,
}

/// `test_input_required_result_request_state` and `..._tampered_state`, under `confirm`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please confirm")]
struct Confirmation {
    ok: bool,
}

/// `test_input_required_result_multi_round`, round 1, under `step1`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Step 1: What is your name?")]
struct StepName {
    name: String,
}

/// `test_input_required_result_multi_round`, round 2, under `step2`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Step 2: What is your favorite color?")]
struct StepColor {
    color: String,
}

/// The prompt `test_input_required_result_prompt`, under `user_context`.
#[derive(Debug, Elicit)]
#[elicit(message = "What context should the prompt use?")]
struct PromptContext {
    context: String,
}

/// `test_mrtr_echo_state` and `test_mrtr_no_state`, under `confirm`: one optional boolean, as
/// the suite's mock server asks.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please confirm to continue")]
struct ContinueConfirmation {
    /// Confirm?
    confirmed: Option<bool>,
}

/// One `Rounds` for the process, so a state sealed on one request opens on the next (each
/// HTTP session gets its own `ConformanceServer`). The key is drawn from the OS's randomness at
/// start; a real deployment loads the same keys on every replica.
fn rounds() -> &'static Rounds {
    static ROUNDS: OnceLock<Rounds> = OnceLock::new();
    ROUNDS.get_or_init(|| {
        let mut key = String::new();
        while key.len() < RequestStateCodec::MIN_KEY_LENGTH {
            let id = elicit_mcp::ElicitationId::random().expect("the OS has randomness");
            key.push_str(id.as_str());
        }
        let codec = RequestStateCodec::try_new(key.into_bytes()).expect("a long enough key");
        Rounds::new(RequestStateSeal::new(codec))
    })
}

#[allow(deprecated)] // rmcp deprecates sampling (SEP-2577); 2026-07-28 still has it.
fn sampling(text: &str, max_tokens: u32) -> rmcp::model::CreateMessageRequestParams {
    serde_json::from_value(serde_json::json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        "maxTokens": max_tokens
    }))
    .expect("valid sampling params")
}

#[allow(deprecated)]
fn sampled_text(result: &rmcp::model::CreateMessageResult) -> String {
    let json = serde_json::to_value(result).unwrap_or_default();
    json["content"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn outcome_text<T: Serialize>(outcome: &ElicitOutcome<T>) -> String {
    match outcome {
        ElicitOutcome::Accepted(value) => format!(
            "accepted: {}",
            serde_json::to_string(value).unwrap_or_default()
        ),
        ElicitOutcome::Declined => "declined".to_owned(),
        ElicitOutcome::Cancelled => "cancelled".to_owned(),
    }
}

/// The input-required tools, written once against `Ask`; `None` for any other name.
async fn input_required_tool(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    let rounds = rounds();
    Some(match request.name.as_ref() {
        "test_input_required_result_elicitation" => {
            rounds
                .call_tool(request, context, None, elicitation_tool)
                .await
        }
        "test_input_required_result_sampling" => {
            rounds
                .call_tool(request, context, None, sampling_tool)
                .await
        }
        "test_input_required_result_list_roots" => {
            rounds.call_tool(request, context, None, roots_tool).await
        }
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => {
            rounds.call_tool(request, context, None, confirm_tool).await
        }
        "test_input_required_result_multiple_inputs" => {
            rounds
                .call_tool(request, context, None, multiple_inputs_tool)
                .await
        }
        "test_input_required_result_multi_round" => {
            rounds
                .call_tool(request, context, None, multi_round_tool)
                .await
        }
        "test_input_required_result_capabilities" => {
            rounds
                .call_tool(request, context, None, capabilities_tool)
                .await
        }
        "test_mrtr_echo_state" => {
            rounds
                .call_tool(request, context, None, echo_state_tool)
                .await
        }
        "test_mrtr_no_state" => no_state_tool(request, context),
        "test_mrtr_unrelated" => {
            rounds
                .call_tool(request, context, None, |_ask| async {
                    Ok(text_result("unrelated-ok".to_owned()))
                })
                .await
        }
        "test_mrtr_no_result_type" => {
            rounds
                .call_tool(request, context, None, |_ask| async {
                    Ok(text_result("no-result-type-test-ok".to_owned()))
                })
                .await
        }
        _ => return None,
    })
}

async fn elicitation_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let outcome = ask.form_as::<UserName>("user_name").await?;
    Ok(text_result(format!("user_name {}", outcome_text(&outcome))))
}

async fn sampling_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let question = sampling("What is the capital of France?", 100);
    let answer = ask.sample("capital_question", question).await?;
    Ok(text_result(format!(
        "the model answered: {}",
        sampled_text(&answer)
    )))
}

#[allow(deprecated)] // rmcp deprecates roots (SEP-2577); 2026-07-28 still has it.
async fn roots_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let roots = ask.roots("client_roots").await?;
    let uris: Vec<&str> = roots.roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(text_result(format!("roots: {}", uris.join(", "))))
}

/// The retry completes only once the sealed state opened, hence "state-ok".
async fn confirm_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let outcome = ask.form_as::<Confirmation>("confirm").await?;
    Ok(text_result(format!(
        "state-ok, confirm {}",
        outcome_text(&outcome)
    )))
}

#[allow(deprecated)]
async fn multiple_inputs_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    // Awaited together, the three go out in one round.
    let (name, greeting, roots) = tokio::join!(
        ask.form_as::<UserName>("user_name"),
        ask.sample("greeting", sampling("Generate a greeting", 50)),
        ask.roots("client_roots"),
    );
    Ok(text_result(format!(
        "user_name {}; greeting: {}; {} root(s)",
        outcome_text(&name?),
        sampled_text(&greeting?),
        roots?.roots.len()
    )))
}

async fn multi_round_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let name = ask.form_as::<StepName>("step1").await?;
    let color = ask.form_as::<StepColor>("step2").await?;
    Ok(text_result(format!(
        "step1 {}; step2 {}",
        outcome_text(&name),
        outcome_text(&color)
    )))
}

/// Asks only for what the client declared in this request's `_meta`.
#[allow(deprecated)]
async fn capabilities_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let client = ask.client_capabilities().unwrap_or_default();
    let mut parts = Vec::new();
    if client.elicitation.is_some() {
        let outcome = ask.form_as::<UserName>("user_name").await?;
        parts.push(format!("user_name {}", outcome_text(&outcome)));
    }
    if client.sampling.is_some() {
        let answer = ask
            .sample("greeting", sampling("Generate a greeting", 50))
            .await?;
        parts.push(format!("greeting: {}", sampled_text(&answer)));
    }
    if client.roots.is_some() {
        let roots = ask.roots("client_roots").await?;
        parts.push(format!("{} root(s)", roots.roots.len()));
    }
    Ok(text_result(format!(
        "asked what the client declared: {}",
        parts.join("; ")
    )))
}

/// The retry completes only once the sealed state the client echoed opened.
async fn echo_state_tool(ask: Ask) -> Result<CallToolResult, ErrorData> {
    let outcome = ask.form_as::<ContinueConfirmation>("confirm").await?;
    Ok(text_result(format!(
        "echo-state-ok, confirm {}",
        outcome_text(&outcome)
    )))
}

/// The ephemeral flow, without `requestState`: the first call asks, and the retry carries the
/// answer under `confirm` (nothing to carry between rounds, so nothing to seal).
fn no_state_tool(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    if let Some(outcome) =
        form_input_response::<ContinueConfirmation>(request.input_responses.as_ref(), "confirm")
    {
        return Ok(text_result(format!("no-state-ok, confirm {}", outcome_text(&outcome?))).into());
    }
    let client = context.client_elicitation();
    let ask = form_input_request::<ContinueConfirmation>(
        client.as_ref(),
        "Please confirm to continue (no state test)",
    )
    .map_err(|error| match error {
        // As `Rounds` answers: -32021, naming what the client did not declare.
        ElicitError::ModeNotSupported(_) => ErrorData::new(
            ErrorCode(MISSING_REQUIRED_CLIENT_CAPABILITY),
            error.to_string(),
            Some(serde_json::json!({"requiredCapabilities": {"elicitation": {"form": {}}}})),
        ),
        other => ErrorData::from(other),
    })?;
    let requests: InputRequests = [("confirm".to_owned(), ask)].into_iter().collect();
    Ok(InputRequiredResult::from_input_requests(requests).into())
}

async fn prompt_handler(ask: Ask) -> Result<GetPromptResult, ErrorData> {
    let context = ask.form_as::<PromptContext>("user_context").await?;
    let text = match context {
        ElicitOutcome::Accepted(PromptContext { context }) => {
            format!("Answer with this context: {context}")
        }
        _ => "Answer without context".to_owned(),
    };
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(
        Role::User,
        text,
    )]))
}

/// The prompt of `input-required-result-non-tool-request`.
const INPUT_REQUIRED_PROMPT: &str = "test_input_required_result_prompt";

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
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new(
            "elicit-conformance-server",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    // Every revision rmcp knows: `initialize` lands on 2025-11-25 (2026-07-28 has no
    // handshake), where the 2025 tools elicit by request; 2026-07-28 requests get the
    // input-required tools.

    /// The input-required tools through `Rounds`, the others through the router.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(response) = input_required_tool(&request, &context).await {
            return response;
        }
        let call = ToolCallContext::new(self, request, context);
        self.tool_router.call(call).await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            INPUT_REQUIRED_PROMPT,
            Some("Asks for the context to use before giving the prompt"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != INPUT_REQUIRED_PROMPT {
            return Err(ErrorData::invalid_params(
                format!("no prompt `{}`", request.name),
                None,
            ));
        }
        rounds()
            .get_prompt(&request, &context, None, prompt_handler)
            .await
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
