//! The elicitation tools of the official MCP conformance suite, served over streamable HTTP on
//! loopback with rmcp, every form a derived type: no JSON schema is written by hand.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example conformance_server  # picks a free port, prints the URL
//! cargo run -p elicit-examples --features rmcp --example conformance_server -- 127.0.0.1:3000  # or listens where told (loopback only)
//! cargo run -p elicit-examples --features rmcp --example conformance_server -- --help  # the options
//! ```
//!
//! Request bodies are capped at 256 KiB (`--max-body-bytes`; a larger one is answered 413),
//! and a 2025-11-25 ask waits at most `--ask-timeout` seconds for the client (see
//! `elicit_examples::http`). As one of several replicas, `--redis URL [--prefix NAME]` keeps
//! in that Redis (or `--redis-cluster URL,URL...` in that Redis Cluster) what they share: each
//! `requestState` opened once across them, URL-mode elicitations and tasks (any replica answers `tasks/*`); `ELICIT_STATE_KEYS` (`ID:HEX[,ID:HEX…]`, the same on every replica) seals the
//! state, and the server says at start-up which key ids it uses.
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
//! Every tool is a `#[tool]` method that asks through an [`Ask`], served through an [`Elicitation`] on both
//! revisions, and listed the same on both. On 2026-07-28 requests (no session, no
//! `initialize`) the `input-required-result-*` scenarios use these tools and prompt, each form
//! under its `#[elicit(key = "..")]`, the key the suite expects:
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
//!
//! And the fixtures of the suite's `tasks-*` scenarios, run by [`Tasks`], those that ask through
//! an [`Ask`] inside their task (`conformance_server/tasks.rs` lists them).

use std::error::Error;
use std::future::IntoFuture;
use std::sync::Arc;

#[path = "conformance_server/tasks.rs"]
pub(crate) mod tasks;
#[path = "conformance_server/texts.rs"]
mod texts;
#[path = "conformance_server/url_step.rs"]
mod url_step;

use elicit_examples::http::{self, ReplicaOptions};
use elicit_examples::keys;
use elicit_mcp::rmcp::{Ask, ElicitError, Elicitation, RequestStateSeal, Tasks};
use elicit_mcp::schema::{LegacyTitledEnumSchema, PrimitiveSchema, RequestedSchema};
use elicit_mcp::server::{ElicitationTracker, UrlPolicy};
use elicit_mcp::wire::ElicitationId;
use elicit_mcp::wire::{ElicitMode, ElicitRequestFormParams, ElicitResult, ElicitationCapability};
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::InputResponses;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ErrorData, GetPromptResult, Implementation, InputRequest,
    InputRequests, InputRequiredResult, PromptMessage, Role, ServerCapabilities, ServerConfig,
};
use rmcp::{
    ServerHandler, prompt, prompt_handler, prompt_router, schemars, tool, tool_handler, tool_router,
};
use serde::{Deserialize, Serialize};
use texts::{
    action_name, completed, content_json, outcome_text, sampled_text, sampling, text_result,
};

/// `test_elicitation`: the user's name and email, both required.
#[derive(Debug, Elicit, Serialize)]
pub(crate) struct UserResponse {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// `test_elicitation_sep1034_defaults` (SEP-1034): a default for every primitive type.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please review your profile; every field has a default")]
pub(crate) struct DefaultsForm {
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

/// An untitled single-select: `{"type": "string", "enum": ["active", "inactive", "pending"]}`
/// (`untitled`: the titles the derive would make, "Active" .., would make it a titled one).
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
#[elicit(untitled)]
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
pub(crate) struct EnumsForm {
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

/// `option1` .. `option3`, without titles: `enum` / `items.enum` (`untitled`, as for
/// [`AccountStatus`]).
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
#[elicit(untitled)]
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
pub(crate) struct UserName {
    name: String,
}

/// `test_input_required_result_request_state` and `..._tampered_state`, under `confirm`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please confirm", key = "confirm")]
pub(crate) struct Confirmation {
    ok: bool,
}

/// `test_input_required_result_multi_round`, round 1, under `step1`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Step 1: What is your name?", key = "step1")]
pub(crate) struct StepName {
    name: String,
}

/// `test_input_required_result_multi_round`, round 2, under `step2`.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Step 2: What is your favorite color?", key = "step2")]
pub(crate) struct StepColor {
    color: String,
}

/// The prompt `test_input_required_result_prompt`, under `user_context`.
#[derive(Debug, Elicit)]
#[elicit(message = "What context should the prompt use?", key = "user_context")]
pub(crate) struct PromptContext {
    context: String,
}

/// `test_mrtr_echo_state` and `test_mrtr_no_state`, under `confirm`: one optional boolean, as
/// the suite's mock server asks.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please confirm to continue", key = "confirm")]
pub(crate) struct ContinueConfirmation {
    /// Confirm?
    confirmed: Option<bool>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct MessageArgument {
    /// The message to show the user
    message: String,
}

/// Every tool and the prompt of the suite's elicitation scenarios, on both revisions, and the
/// fixtures of its tasks scenarios.
#[derive(Clone)]
pub struct ConformanceServer {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
    /// The origin of this server's URL-mode page, when it has one (`--redis`).
    page: Option<Arc<str>>,
}

impl Default for ConformanceServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router]
impl ConformanceServer {
    /// The server: the tools and the prompt of the elicitation scenarios and the fixtures of
    /// the tasks scenarios. Served through [`ConformanceServer::elicitation`].
    pub fn new() -> Self {
        ConformanceServer {
            tool_router: Self::tool_router() + tasks::router() + url_step::router(),
            prompt_router: Self::prompt_router(),
            page: None,
        }
    }

    /// The server whose `test_url_elicitation` sends the user to its page at `origin`.
    pub fn with_page(mut self, origin: Arc<str>) -> Self {
        self.page = Some(origin);
        self
    }

    /// What serves it, built once per process: `seal` for `requestState`, and the task
    /// support of the tasks fixtures, on `tasks` (shared by the replicas, or this process's).
    pub fn elicitation(seal: RequestStateSeal, tasks: Tasks) -> Elicitation {
        Elicitation::new(seal).with_tasks(tasks::task_tools(tasks))
    }

    // --- 2025-11-25: the elicitation scenarios -------------------------------------------------

    #[tool(description = "Asks the user for a username and an email address")]
    async fn test_elicitation(
        &self,
        Parameters(MessageArgument { message }): Parameters<MessageArgument>,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let outcome = match ask.form_with_message::<UserResponse>(message).await {
            Ok(outcome) => outcome,
            Err(error) => return error.into_call_result(),
        };
        Ok(text_result(format!(
            "User response: <action: {}, content: {}>",
            action_name(&outcome),
            content_json(&outcome)
        )))
    }

    #[tool(description = "Asks for a form with a default for every primitive type (SEP-1034)")]
    async fn test_elicitation_sep1034_defaults(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        match ask.form::<DefaultsForm>().await {
            Ok(outcome) => Ok(completed(&outcome)),
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(description = "Asks for a form with every enum shape of the spec (SEP-1330)")]
    async fn test_elicitation_sep1330_enums(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let schema = with_legacy_enum_names(EnumsForm::requested_schema(), "legacyEnum");
        match ask.form::<EnumsForm>().with_schema(schema).await {
            Ok(outcome) => Ok(completed(&outcome)),
            Err(error) => error.into_call_result(),
        }
    }

    // --- 2026-07-28: the input-required scenarios, under the keys the suite expects -----------

    #[tool(description = "Asks for the user's name")]
    async fn test_input_required_result_elicitation(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let outcome = ask.form::<UserName>().await?;
        Ok(text_result(format!("user_name {}", outcome_text(&outcome))))
    }

    #[tool(description = "Asks the client's model for the capital of France")]
    async fn test_input_required_result_sampling(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let question = sampling("What is the capital of France?", 100);
        let answer = ask.sample("capital_question", question).await?;
        Ok(text_result(format!(
            "the model answered: {}",
            sampled_text(&answer)
        )))
    }

    #[allow(deprecated)] // rmcp deprecates roots (SEP-2577); 2026-07-28 still has it.
    #[tool(description = "Asks for the client's roots")]
    async fn test_input_required_result_list_roots(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let roots = ask.roots("client_roots").await?;
        let uris: Vec<&str> = roots.roots.iter().map(|root| root.uri.as_str()).collect();
        Ok(text_result(format!("roots: {}", uris.join(", "))))
    }

    #[tool(description = "Asks for a confirmation, carrying requestState between rounds")]
    async fn test_input_required_result_request_state(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        confirm(&ask).await
    }

    #[tool(description = "Asks for a confirmation; a tampered requestState is refused")]
    async fn test_input_required_result_tampered_state(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        confirm(&ask).await
    }

    #[allow(deprecated)]
    #[tool(description = "Asks for a name, a sampled greeting and the roots in one round")]
    async fn test_input_required_result_multiple_inputs(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        // Awaited together, the three go out in one round.
        let (name, greeting, roots) = tokio::join!(
            ask.form::<UserName>().into_future(),
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

    #[tool(description = "Asks for a name, then for a colour, in two rounds")]
    async fn test_input_required_result_multi_round(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let name = ask.form::<StepName>().await?;
        let color = ask.form::<StepColor>().await?;
        Ok(text_result(format!(
            "step1 {}; step2 {}",
            outcome_text(&name),
            outcome_text(&color)
        )))
    }

    /// Asks only for what the client declared in the request's `_meta`.
    #[allow(deprecated)]
    #[tool(description = "Asks only for what the client declared it can answer")]
    async fn test_input_required_result_capabilities(
        &self,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let client = ask.client_capabilities().unwrap_or_default();
        let mut parts = Vec::new();
        if client.elicitation.is_some() {
            let outcome = ask.form::<UserName>().await?;
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

    // --- 2026-07-28: the tools of the client scenario `sep-2322-client-request-state` ---------

    #[tool(
        description = "Asks for a confirmation with a sealed requestState, which the retry must echo"
    )]
    async fn test_mrtr_echo_state(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        let outcome = ask.form::<ContinueConfirmation>().await?;
        Ok(text_result(format!(
            "echo-state-ok, confirm {}",
            outcome_text(&outcome)
        )))
    }

    /// The ephemeral flow: an input request without `requestState`, the retry carrying only
    /// the answer. Written with rmcp's own extractors; the `Elicitation` passes a response that is
    /// already complete through as it is.
    #[tool(description = "Asks for a confirmation without requestState (the ephemeral flow)")]
    async fn test_mrtr_no_state(
        &self,
        InputResponses(responses): InputResponses,
        ask: Ask,
    ) -> Result<CallToolResponse, ErrorData> {
        let key = ContinueConfirmation::INPUT_KEY;
        if let Some(response) = responses.as_ref().and_then(|r| r.get(key)) {
            let result = ElicitResult::deserialize(response)
                .map_err(|e| ErrorData::invalid_params(format!("`{key}`: {e}"), None))?;
            let outcome = ContinueConfirmation::from_result(&result)
                .map_err(|e| ErrorData::from(ElicitError::InvalidContent(e)))?;
            return Ok(
                text_result(format!("no-state-ok, confirm {}", outcome_text(&outcome))).into(),
            );
        }
        let declared = ask
            .client_capabilities()
            .as_ref()
            .and_then(|client| client.elicitation.as_ref())
            .map(ElicitationCapability::from);
        ElicitationCapability::require(declared.as_ref(), ElicitMode::Form)
            .map_err(|missing| ErrorData::from(ElicitError::from(missing)))?;
        let request = ElicitRequestFormParams::new(
            "Please confirm to continue (no state test)",
            ContinueConfirmation::requested_schema(),
        );
        let params = rmcp::model::ElicitRequestParams::try_from(&request)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let ask = InputRequest::Elicitation(rmcp::model::ElicitRequest::new(params));
        let requests: InputRequests = [(key.to_owned(), ask)].into_iter().collect();
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }

    #[tool(description = "Completes at once; a requestState from another tool's flow is refused")]
    async fn test_mrtr_unrelated(&self) -> CallToolResult {
        text_result("unrelated-ok".to_owned())
    }

    #[tool(description = "Completes at once, its result typed `complete`")]
    async fn test_mrtr_no_result_type(&self) -> CallToolResult {
        text_result("no-result-type-test-ok".to_owned())
    }
}

async fn confirm(ask: &Ask) -> Result<CallToolResult, ErrorData> {
    let outcome = ask.form::<Confirmation>().await?;
    Ok(text_result(format!(
        "state-ok, confirm {}",
        outcome_text(&outcome)
    )))
}

#[prompt_router]
impl ConformanceServer {
    /// Asks for the context before giving the prompt.
    #[prompt(name = "test_input_required_result_prompt")]
    async fn test_input_required_result_prompt(
        &self,
        ask: Ask,
    ) -> Result<GetPromptResult, ErrorData> {
        let context = ask.form::<PromptContext>().await?;
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
}

// Every revision rmcp knows: 2025-11-25 sessions over `initialize`, 2026-07-28 requests found
// by `server/discover`; the same tools and prompt, listed the same, on both. The tasks
// extension, `tasks/*` and the prompt's rounds come from the `Elicitation` serving it.
#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
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
    }
}

/// The derived schema with the titled single-select `property` rewritten in the deprecated
/// `enum` + `enumNames` shape: the same values, the titles as names. Typed, like the rest.
fn with_legacy_enum_names(derived: &'static RequestedSchema, property: &str) -> RequestedSchema {
    let mut schema = derived.clone();
    let properties = schema.properties.to_mut();
    for entry in properties.iter_mut().filter(|entry| entry.name == property) {
        if let PrimitiveSchema::TitledSingleSelect(titled) = &entry.schema {
            let mut legacy = LegacyTitledEnumSchema::new(titled.options.iter().cloned());
            legacy.title = titled.title.clone();
            legacy.description = titled.description.clone();
            legacy.default = titled.default.clone();
            entry.schema = PrimitiveSchema::LegacyTitled(legacy);
        }
    }
    schema
}

const USAGE: &str = "usage: conformance_server [--redis URL | --redis-cluster URL,URL... [--prefix NAME]] [--max-body-bytes BYTES] [--ask-timeout SECONDS] [--session-idle SECONDS] [ADDRESS]";

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let Some(arguments) = ReplicaOptions::parse(USAGE)? else {
        return Ok(());
    };
    let options = &arguments.server;
    // The sealing keys of ELICIT_STATE_KEYS (the same on every replica), or a key of its own
    // made at start; one task runtime (a task outlives the request and the session that
    // created it), shared by every session.
    let seal = keys::state_seal()?;
    let listener = options.listen().await?;
    let origin: Arc<str> = format!("http://{}", listener.local_addr()?).into();
    let (elicitation, page) = match arguments.store().await? {
        None => (
            ConformanceServer::elicitation(seal, Tasks::new()),
            axum::Router::new(),
        ),
        // Replicas: each state opens once across them, URL-mode elicitations and tasks are
        // theirs, so any replica answers any request.
        Some(store) => {
            let replica = ElicitationId::random()?.as_str()[..12].to_owned();
            eprintln!(
                "replica {replica}, sharing Redis under `{}`",
                arguments.prefix()
            );
            let tasks = Tasks::new()
                .shared(store.clone(), replica.clone())
                .with_lease(arguments.task_lease());
            let tracker = Arc::new(ElicitationTracker::with_store(
                store.clone(),
                UrlPolicy::development(),
            ));
            // URL mode binds each elicitation to a user: the development identity (a bearer
            // NAME, or the demo user for a client that sends none, as the suite's do).
            let elicitation = ConformanceServer::elicitation(seal.with_replay_guard(store), tasks)
                .with_replica(replica)
                .with_authentication(http::development_user_or_demo)
                .with_url_mode(tracker.clone());
            let page = url_step::page(tracker, elicitation.clone());
            (elicitation, page)
        }
    };
    let elicitation = options.elicitation(elicitation);
    let has_page = arguments.redis().is_some();
    // The line `.ci/conformance` waits for: the URL to test.
    println!("listening on {origin}/mcp");
    let server = move || match has_page {
        true => ConformanceServer::new().with_page(origin.clone()),
        false => ConformanceServer::new(),
    };
    http::serve(listener, &elicitation, server, page, options).await
}
