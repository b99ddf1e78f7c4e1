//! One handler, both protocol revisions: tools written once against `elicit_mcp::rmcp::Ask`, run
//! through an `Elicitation`, served to an rmcp client over an in-memory duplex on a 2025-11-25 session
//! (`elicitation/create` requests) and on 2026-07-28 (input-required results and retries, with a
//! sealed `requestState`). The client answers each form with elicit's `accept_form` from the
//! schema it receives, scripted by the form's message.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_mcp::client::accept_form;
use elicit_mcp::rmcp::{Ask, ElicitError, Elicitation, RequestStateSeal};
use elicit_mcp::server::{RedisStore, UserId};
use elicit_mcp::wire::{ElicitRequestParams, ElicitResult, ElicitationCapability};
use elicit_mcp::{Elicit, ElicitOutcome};
use elicit_test_support::rmcp::{
    capital, capital_question, client_info, completed_text, error_of, input_required, seal, serve,
    text, work_root,
};
use elicit_test_support::{self as support, redis_server};
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::InputResponses;
use rmcp::model as sdk;
use rmcp::service::{Peer, RequestContext, RoleClient, RoleServer, RunningService, ServiceError};
use rmcp::{
    ClientHandler, ServerHandler, prompt, prompt_handler, prompt_router, tool, tool_handler,
    tool_router,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::future::IntoFuture;

// ---------------------------------------------------------------------------------------------
// The forms

#[derive(Elicit, Debug, PartialEq)]
#[elicit(message = "Book a table", rename_all = "camelCase")]
struct Booking {
    #[elicit(min_length = 1, max_length = 40)]
    name: String,
    #[elicit(format = "date")]
    date: String,
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
}

/// A boolean without a default, which some hosts leave out when its box is unticked.
#[derive(Elicit, Debug)]
#[elicit(message = "Subscribe?")]
struct Subscription {
    #[elicit(format = "email")]
    email: String,
    newsletter: bool,
}

#[derive(Elicit, Debug)]
#[elicit(message = "Who travels?")]
struct Traveller {
    name: String,
}

#[derive(Elicit, Debug)]
#[elicit(message = "How do you pay?")]
struct Payment {
    #[elicit(pattern = "^[0-9]{4}$")]
    last4: String,
}

#[derive(Elicit, Debug)]
#[elicit(message = "Which city?")]
struct City {
    city: String,
}

/// Asked with a message that depends on the previous answer.
#[derive(Elicit, Debug)]
struct Nights {
    #[elicit(minimum = 1, maximum = 30)]
    nights: u8,
}

#[derive(Elicit, Debug)]
#[elicit(message = "Confirm the stay?")]
struct Confirm {
    confirm: bool,
}

/// The same form before and after a rename of its type: the key attribute keeps its input key.
mod before {
    use elicit_mcp::Elicit;

    #[derive(Elicit, Debug)]
    #[elicit(message = "Who is the guest?", key = "guest")]
    pub struct GuestName {
        pub name: String,
    }
}

mod after {
    use elicit_mcp::Elicit;

    #[derive(Elicit, Debug)]
    #[elicit(message = "Who is the guest?", key = "guest")]
    pub struct RenamedGuest {
        pub name: String,
    }
}

// ---------------------------------------------------------------------------------------------
// The tools, written once

async fn book(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    Ok(match ask.form::<Booking>().await {
        Ok(ElicitOutcome::Accepted(booking)) => text(format!("{booking:?}")),
        Ok(ElicitOutcome::Declined) => text("declined"),
        Ok(ElicitOutcome::Cancelled) => text("cancelled"),
        Err(error) => error.to_tool_result(),
    })
}

/// Two forms in one round.
async fn trip(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let (traveller, payment) = ask.forms::<Traveller, Payment>().await?;
    Ok(match (traveller, payment) {
        (ElicitOutcome::Accepted(traveller), ElicitOutcome::Accepted(payment)) => text(format!(
            "{} pays with the card ending {}",
            traveller.name, payment.last4
        )),
        _ => text("no trip"),
    })
}

/// Three rounds, each depending on the one before.
async fn stay(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let Some(City { city }) = ask.form::<City>().await?.accepted() else {
        return Ok(text("no city"));
    };
    let message = format!("How many nights in {city}?");
    let Some(Nights { nights }) = ask.form_with_message::<Nights>(message).await?.accepted() else {
        return Ok(text("no nights"));
    };
    Ok(match ask.form::<Confirm>().await?.accepted() {
        Some(Confirm { confirm: true }) => text(format!("{nights} nights in {city}")),
        _ => text("not confirmed"),
    })
}

/// A form, a sampling request and the roots, asked at once: they go out in one round.
#[allow(deprecated)] // rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 has them.
async fn mixed(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let (traveller, sampled, roots) = tokio::join!(
        ask.form::<Traveller>().with_key("user_name").into_future(),
        ask.sample("capital", capital_question()),
        ask.roots("client_roots"),
    );
    let name = traveller?.accepted().map(|t| t.name).unwrap_or_default();
    let sampled = serde_json::to_value(sampled?).unwrap();
    let roots: Vec<String> = roots?.roots.into_iter().map(|root| root.uri).collect();
    Ok(text(format!(
        "{name}; model said {}; roots {roots:?}",
        sampled["content"]["text"]
    )))
}

/// Asks until the answer is valid (the default): field errors go back in the message, the
/// right answers are kept, and the guests default to 4 at run time.
async fn reask(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    match ask
        .form::<Booking>()
        .with_defaults(|d| d.guests.set(4))
        .await
    {
        Ok(ElicitOutcome::Accepted(booking)) => Ok(text(format!("{booking:?}"))),
        Ok(_) => Ok(text("no booking")),
        Err(error) => error.into_call_result(),
    }
}

/// Two different forms under one key.
async fn same_key(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    if let Err(error) = ask.form::<Traveller>().with_key("who").await {
        return error.into_call_result();
    }
    match ask.form::<City>().with_key("who").await {
        Ok(_) => Ok(text("both asked")),
        Err(error) => error.into_call_result(),
    }
}

/// A run-time default the field refuses (a field the form does not have does not compile).
async fn bad_default(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let asked = ask
        .form::<Booking>()
        .with_defaults(|d| d.guests.set(40))
        .await;
    match asked {
        Ok(_) => Ok(text("asked")),
        Err(error) => error.into_call_result(),
    }
}

/// A client that cannot show forms: the tool decides what to do, on both revisions.
async fn fallback(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    match ask.form::<Booking>().await {
        Ok(_) => Ok(text("asked the user")),
        Err(ElicitError::ModeNotSupported(_)) => Ok(text("asking the model instead")),
        Err(error) => error.into_call_result(),
    }
}

/// A prompt asks like a tool.
async fn booking_prompt(ask: Ask) -> Result<sdk::GetPromptResult, sdk::ErrorData> {
    let booking = ask.form::<Booking>().await?.accepted();
    let text = match booking {
        Some(booking) => format!("Write to {} about {}", booking.name, booking.date),
        None => "Write to nobody".to_owned(),
    };
    Ok(sdk::GetPromptResult::new(vec![
        sdk::PromptMessage::new_text(sdk::Role::User, text),
    ]))
}

/// The tools and the prompt above as rmcp users write them: `#[tool]` and `#[prompt]` methods
/// that take an `Ask`, the server served through an `Elicitation`.
#[derive(Clone)]
struct TestServer {
    tool_router: ToolRouter<TestServer>,
    prompt_router: PromptRouter<TestServer>,
    /// The `tools/call` requests received.
    calls: Arc<AtomicUsize>,
    /// Whether this build of the server has renamed the guest form's type.
    renamed: bool,
    /// How each call of `book_watched` ended, as the server saw it.
    watched: Arc<Mutex<Vec<String>>>,
}

/// Records how a tool call ended on the server, including when rmcp drops it unfinished.
struct Watch {
    ended: Arc<Mutex<Vec<String>>>,
    outcome: Option<String>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let outcome = self.outcome.take().unwrap_or_else(|| "dropped".to_owned());
        self.ended.lock().unwrap().push(outcome);
    }
}

#[tool_router]
impl TestServer {
    fn new(renamed: bool) -> Self {
        TestServer {
            tool_router: Self::tool_router(),
            prompt_router: Self::prompt_router(),
            calls: Arc::default(),
            renamed,
            watched: Arc::default(),
        }
    }

    #[tool(description = "Books a table, recording how the call ended on the server")]
    async fn book_watched(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let mut watch = Watch {
            ended: self.watched.clone(),
            outcome: None,
        };
        let result = book(ask).await?;
        watch.outcome = Some(result.content[0].as_text().unwrap().text.clone());
        Ok(result)
    }

    #[tool(description = "Asks until the booking is valid")]
    async fn reask(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        reask(ask).await
    }

    #[tool(description = "Asks for an email and whether to send the newsletter")]
    async fn subscribe(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        match ask.form::<Subscription>().await {
            Ok(ElicitOutcome::Accepted(Subscription { email, newsletter })) => {
                Ok(text(format!("{email}, newsletter {newsletter}")))
            }
            Ok(_) => Ok(text("not subscribed")),
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(description = "Asks for a booking whose date defaults, at run time, to New Year's Eve")]
    async fn dated(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        match ask
            .form::<Booking>()
            .with_defaults(|d| d.date.set("2025-12-31"))
            .await
        {
            Ok(ElicitOutcome::Accepted(booking)) => Ok(text(format!("{booking:?}"))),
            Ok(_) => Ok(text("no booking")),
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(description = "Asks for a traveller under `booking-2`, then for a booking")]
    async fn collide(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        if let Err(error) = ask.form::<Traveller>().with_key("booking-2").await {
            return error.into_call_result();
        }
        match ask.form::<Booking>().await {
            Ok(_) => Ok(text("both asked")),
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(
        description = "Asks for the city first on odd runs, for the traveller first on even ones"
    )]
    async fn fickle(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let run = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        let asked = if run % 2 == 1 {
            ask.forms::<City, Traveller>().await.map(|_| ())
        } else {
            ask.forms::<Traveller, City>().await.map(|_| ())
        };
        match asked {
            Ok(()) => Ok(text("asked")),
            Err(error) => error.into_call_result(),
        }
    }

    /// Takes rmcp's extractor beside its `Ask`, and says which keys each saw.
    #[tool(description = "Asks for a booking and says which answers rmcp's extractor saw")]
    async fn book_and_peek(
        &self,
        InputResponses(responses): InputResponses,
        ask: Ask,
    ) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let mut seen: Vec<String> = responses.into_iter().flat_map(|r| r.into_keys()).collect();
        seen.sort();
        let booking = match ask.form::<Booking>().await {
            Ok(ElicitOutcome::Accepted(booking)) => booking.name,
            Ok(_) => "none".to_owned(),
            Err(error) => return error.into_call_result(),
        };
        Ok(text(format!(
            "extractor saw {seen:?}; booked for {booking}"
        )))
    }

    /// Written in the 2026-07-28 style, with rmcp's own extractor: an input request of its
    /// own, the answer read from the retry's `inputResponses`.
    #[tool(description = "Asks who travels with an InputRequiredResult of its own")]
    async fn own_rounds(
        &self,
        InputResponses(responses): InputResponses,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if let Some(answer) = responses.as_ref().and_then(|r| r.get("who")) {
            let result = ElicitResult::deserialize(answer)
                .map_err(|e| sdk::ErrorData::invalid_params(e.to_string(), None))?;
            let name = Traveller::from_result(&result)
                .map_err(|e| sdk::ErrorData::from(ElicitError::InvalidContent(e)))?
                .accepted()
                .map(|t| t.name)
                .unwrap_or_default();
            return Ok(text(format!("travelling: {name}")).into());
        }
        let params =
            sdk::ElicitRequestParams::try_from(&elicit_mcp::wire::ElicitRequestFormParams::new(
                "Who travels?",
                Traveller::requested_schema(),
            ))
            .map_err(|e| sdk::ErrorData::internal_error(e.to_string(), None))?;
        let request = sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(params));
        let requests: sdk::InputRequests = [("who".to_owned(), request)].into_iter().collect();
        Ok(sdk::InputRequiredResult::from_input_requests(requests).into())
    }

    #[tool(description = "Asks two forms under one key")]
    async fn same_key(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        same_key(ask).await
    }

    #[tool(description = "Asks with defaults the form refuses")]
    async fn bad_default(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        bad_default(ask).await
    }

    #[tool(description = "Asks, or falls back when the client cannot show forms")]
    async fn fallback(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        fallback(ask).await
    }

    #[tool(description = "Asks for the guest, with the form's type as this build names it")]
    async fn guest(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let name = if self.renamed {
            ask.form::<after::RenamedGuest>()
                .await?
                .accepted()
                .map(|g| g.name)
        } else {
            ask.form::<before::GuestName>()
                .await?
                .accepted()
                .map(|g| g.name)
        };
        Ok(text(format!("guest {}", name.unwrap_or_default())))
    }

    #[tool(description = "Books a table")]
    async fn book(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        book(ask).await
    }

    #[tool(description = "Two forms in one round")]
    async fn trip(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        trip(ask).await
    }

    #[tool(description = "Three rounds")]
    async fn stay(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        stay(ask).await
    }

    #[tool(description = "A form, sampling and roots at once")]
    async fn mixed(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        mixed(ask).await
    }
}

#[prompt_router]
impl TestServer {
    #[prompt(
        name = "booking",
        description = "Asks for a booking, then writes the prompt"
    )]
    async fn booking(&self, ask: Ask) -> Result<sdk::GetPromptResult, sdk::ErrorData> {
        booking_prompt(ask).await
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for TestServer {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::InitializeResult::new(
            sdk::ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .build(),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// The client: answers scripted by the form's message.

#[derive(Clone, Debug)]
enum Answer {
    /// Fill the form with this, the client adding defaults and checking it before sending.
    Fill(Value),
    /// Send this as it is, as a client that checks nothing would.
    SendUnchecked(Value),
    /// The user dismissed the form without choosing.
    Cancel,
    /// The user never answers: the client holds the form open.
    Never,
    /// Send these as they are, one for each time the form is asked.
    InTurn(Arc<Mutex<Vec<Value>>>),
}

#[derive(Clone)]
struct TestClient {
    declared: Option<ElicitationCapability>,
    protocol: sdk::ProtocolVersion,
    script: Arc<HashMap<String, Answer>>,
    /// The message of each form received.
    received: Arc<Mutex<Vec<String>>>,
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("test content must be an object, not {other}"),
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> sdk::ClientConfig {
        // Sampling and roots, always; elicitation as the test says.
        client_info(
            "elicit-rounds-client",
            self.protocol.clone(),
            self.declared.as_ref(),
            true,
        )
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
        let ElicitRequestParams::Form(form) = ElicitRequestParams::try_from(&request)? else {
            return Err(sdk::ErrorData::invalid_params("not a form", None));
        };
        self.received.lock().unwrap().push(form.message.clone());
        // A re-ask (the errors after the form's message) is scripted as "MESSAGE (again)".
        let scripted = match form.message.split_once("\n\nPlease correct:\n") {
            Some((message, _)) => format!("{message} (again)"),
            None => form.message.clone(),
        };
        let result = match self.script.get(&scripted) {
            Some(Answer::Fill(content)) => {
                accept_form(&form.requested_schema, object(content.clone()))
                    .map_err(|e| sdk::ErrorData::from(&e))?
            }
            Some(Answer::SendUnchecked(content)) => ElicitResult::accept(object(content.clone())),
            Some(Answer::Cancel) => ElicitResult::cancel(),
            Some(Answer::Never) => std::future::pending().await,
            Some(Answer::InTurn(answers)) => {
                let next = answers.lock().unwrap().remove(0);
                ElicitResult::accept(object(next))
            }
            None => ElicitResult::decline(),
        };
        Ok(sdk::ElicitResult::from(&result))
    }

    #[allow(deprecated)]
    async fn create_message(
        &self,
        _params: sdk::CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::CreateMessageResult, sdk::ErrorData> {
        self.received.lock().unwrap().push("sampling".to_owned());
        Ok(capital())
    }

    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ListRootsResult, sdk::ErrorData> {
        self.received.lock().unwrap().push("roots".to_owned());
        Ok(work_root())
    }
}

// ---------------------------------------------------------------------------------------------
// The harness

fn script() -> HashMap<String, Answer> {
    let fill = |message: &str, content: Value| (message.to_owned(), Answer::Fill(content));
    HashMap::from([
        fill("Book a table", json!({"name": "Ada", "date": "2025-12-24"})),
        fill("Who travels?", json!({"name": "Grace"})),
        fill("How do you pay?", json!({"last4": "4242"})),
        fill("Which city?", json!({"city": "Lyon"})),
        fill("How many nights in Lyon?", json!({"nights": 3})),
        fill("Confirm the stay?", json!({"confirm": true})),
    ])
}

struct Session {
    client: RunningService<RoleClient, TestClient>,
    handler: TestClient,
    server: TestServer,
    _server_peer: Peer<RoleServer>,
}

impl Session {
    fn received(&self) -> Vec<String> {
        self.handler.received.lock().unwrap().clone()
    }

    fn calls(&self) -> usize {
        self.server.calls.load(Ordering::SeqCst)
    }

    async fn call(&self, tool: &str) -> Result<String, ServiceError> {
        support::rmcp::call(&self.client, tool).await
    }
}

struct Setup {
    protocol: sdk::ProtocolVersion,
    declared: Option<ElicitationCapability>,
    script: HashMap<String, Answer>,
    seal: RequestStateSeal,
    limits: fn(Elicitation) -> Elicitation,
    renamed: bool,
    /// Every request's user, as over stdio; none when `None`.
    user: Option<&'static str>,
}

impl Setup {
    fn new(protocol: sdk::ProtocolVersion) -> Self {
        Setup {
            protocol,
            declared: Some(ElicitationCapability::form()),
            script: script(),
            seal: seal(),
            limits: |elicitation| elicitation,
            renamed: false,
            user: None,
        }
    }

    fn limits(mut self, limits: fn(Elicitation) -> Elicitation) -> Self {
        self.limits = limits;
        self
    }

    fn user(mut self, user: &'static str) -> Self {
        self.user = Some(user);
        self
    }

    fn renamed(mut self) -> Self {
        self.renamed = true;
        self
    }

    fn declared(mut self, declared: Option<ElicitationCapability>) -> Self {
        self.declared = declared;
        self
    }

    fn answer(mut self, message: &str, answer: Answer) -> Self {
        self.script.insert(message.to_owned(), answer);
        self
    }

    fn seal(mut self, seal: RequestStateSeal) -> Self {
        self.seal = seal;
        self
    }

    async fn start(self) -> Session {
        let server = TestServer::new(self.renamed);
        let mut elicitation = (self.limits)(Elicitation::new(self.seal));
        if let Some(user) = self.user {
            elicitation = elicitation.with_local_user(UserId::from_verified_subject(user).unwrap());
        }
        let handler = TestClient {
            declared: self.declared,
            protocol: self.protocol.clone(),
            script: Arc::new(self.script),
            received: Arc::default(),
        };
        let (peer, client) =
            serve(&elicitation, server.clone(), handler.clone(), self.protocol).await;
        Session {
            client,
            handler,
            server,
            _server_peer: peer,
        }
    }
}

fn v2025() -> Setup {
    Setup::new(sdk::ProtocolVersion::V_2025_11_25)
}

fn v2026() -> Setup {
    Setup::new(sdk::ProtocolVersion::V_2026_07_28)
}

/// One `tools/call` without rmcp's retry loop: the server's raw answer.
async fn once(
    session: &Session,
    request: sdk::CallToolRequestParams,
) -> Result<sdk::CallToolResponse, ServiceError> {
    session.client.call_tool_once(request).await
}

/// The first round of `tool`, which must ask for input.
async fn first_round(session: &Session, tool: &str) -> sdk::InputRequiredResult {
    input_required(
        once(session, sdk::CallToolRequestParams::new(tool.to_owned()))
            .await
            .unwrap(),
    )
}

/// The retry of `book` with `state`, answering the booking form.
fn book_retry(state: impl Into<String>) -> sdk::CallToolRequestParams {
    sdk::CallToolRequestParams::new("book")
        .with_input_responses(booking_answer())
        .with_request_state(state.into())
}

fn booking_answer() -> sdk::InputResponses {
    sdk::InputResponses::from([(
        "booking".to_owned(),
        json!({"action": "accept", "content": {"name": "Ada", "date": "2025-12-24"}}),
    )])
}

// ---------------------------------------------------------------------------------------------
// The same tool on both revisions

#[tokio::test]
async fn the_same_tool_gives_the_same_typed_value_on_both_revisions() {
    let old = v2025().start().await;
    let new = v2026().start().await;
    let expected = format!(
        "{:?}",
        Booking {
            name: "Ada".into(),
            date: "2025-12-24".into(),
            guests: 2,
        }
    );
    assert_eq!(old.call("book").await.unwrap(), expected);
    assert_eq!(new.call("book").await.unwrap(), expected);
    assert_eq!(old.received(), ["Book a table"]);
    assert_eq!(new.received(), ["Book a table"]);
    // 2025-11-25: one call, the form as a request inside it. 2026-07-28: the call and its retry.
    assert_eq!(old.calls(), 1);
    assert_eq!(new.calls(), 2);
}

#[tokio::test]
async fn on_2026_07_28_the_form_goes_out_in_an_input_required_result() {
    let session = v2026().start().await;
    let first = first_round(&session, "book").await;
    let json = serde_json::to_value(&first).unwrap();
    assert_eq!(json["resultType"], "input_required");
    let requests = json["inputRequests"].as_object().unwrap();
    // The key is the form's type in snake case.
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["booking"]);
    assert_eq!(requests["booking"]["method"], "elicitation/create");
    assert_eq!(requests["booking"]["params"]["message"], "Book a table");
    assert_eq!(
        requests["booking"]["params"]["requestedSchema"]["properties"]["guests"]["default"],
        2
    );
    assert!(json["requestState"].as_str().unwrap().len() > 20);
    assert!(
        session.received().is_empty(),
        "nothing was sent as a request"
    );
}

#[tokio::test]
async fn invalid_content_gives_every_field_error_on_both_revisions() {
    // Re-asks off: the field errors come back to the handler.
    let bad = Answer::SendUnchecked(json!({"name": "", "date": "soon", "guests": 40}));
    let once = |elicitation: Elicitation| elicitation.with_reask(false);
    let old = v2025()
        .answer("Book a table", bad.clone())
        .limits(once)
        .start()
        .await;
    let new = v2026()
        .answer("Book a table", bad)
        .limits(once)
        .start()
        .await;
    let from_old = old.call("book").await.unwrap();
    let from_new = new.call("book").await.unwrap();
    assert_eq!(from_old, from_new);
    assert!(
        from_old.starts_with("the submitted form is invalid:"),
        "{from_old}"
    );
    for field in ["`name`", "`date`", "`guests`"] {
        assert!(from_old.contains(field), "{field} missing from {from_old}");
    }
}

#[tokio::test]
async fn a_decline_is_the_same_outcome_on_both_revisions() {
    // With no answer scripted for the form, the client declines.
    for mut setup in [v2025(), v2026()] {
        setup.script.remove("Book a table");
        let session = setup.start().await;
        assert_eq!(session.call("book").await.unwrap(), "declined");
        assert_eq!(session.received(), ["Book a table"]);
    }
}

#[tokio::test]
async fn a_cancel_is_the_same_outcome_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let session = setup.answer("Book a table", Answer::Cancel).start().await;
        assert_eq!(session.call("book").await.unwrap(), "cancelled");
        assert_eq!(session.received(), ["Book a table"]);
    }
}

#[tokio::test]
async fn a_prompt_asks_like_a_tool_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let session = setup.start().await;
        let prompt = session
            .client
            .get_prompt(sdk::GetPromptRequestParams::new("booking"))
            .await
            .unwrap();
        let json = serde_json::to_value(&prompt.messages[0]).unwrap();
        assert_eq!(json["content"]["text"], "Write to Ada about 2025-12-24");
        assert_eq!(session.received(), ["Book a table"]);
    }
    // On 2026-07-28 the first answer is an input-required result, bound to `prompts/get`.
    let session = v2026().start().await;
    let first = session
        .client
        .get_prompt_once(sdk::GetPromptRequestParams::new("booking"))
        .await
        .unwrap();
    let sdk::GetPromptResponse::InputRequired(first) = first else {
        panic!("expected an input-required result, got {first:?}");
    };
    // Its state does not open on a tool of the same name.
    let retry = sdk::CallToolRequestParams::new("booking")
        .with_input_responses(booking_answer())
        .with_request_state(first.request_state.unwrap());
    assert_eq!(
        error_of(once(&session, retry).await).code,
        sdk::ErrorCode::INVALID_PARAMS
    );
}

// ---------------------------------------------------------------------------------------------
// Several forms in one round, several rounds

#[tokio::test]
async fn two_forms_in_one_round() {
    let old = v2025().start().await;
    let new = v2026().start().await;
    let expected = "Grace pays with the card ending 4242";
    assert_eq!(old.call("trip").await.unwrap(), expected);
    assert_eq!(new.call("trip").await.unwrap(), expected);
    assert_eq!(old.received(), ["Who travels?", "How do you pay?"]);
    let mut received = new.received();
    received.sort();
    assert_eq!(received, ["How do you pay?", "Who travels?"]);
    // Both forms in the first round, both answers on the one retry.
    assert_eq!(new.calls(), 2);

    let first = first_round(&new, "trip").await;
    let keys: Vec<_> = first.input_requests.unwrap().into_keys().collect();
    assert_eq!(keys, ["payment", "traveller"]);
}

#[tokio::test]
async fn three_rounds_whose_forms_depend_on_the_answers() {
    let old = v2025().start().await;
    let new = v2026().start().await;
    assert_eq!(old.call("stay").await.unwrap(), "3 nights in Lyon");
    assert_eq!(new.call("stay").await.unwrap(), "3 nights in Lyon");
    let asked = [
        "Which city?",
        "How many nights in Lyon?",
        "Confirm the stay?",
    ];
    assert_eq!(old.received(), asked);
    assert_eq!(new.received(), asked);
    // Three rounds of input, then the result.
    assert_eq!(new.calls(), 4);
}

#[tokio::test]
async fn a_form_sampling_and_roots_in_one_round() {
    let expected = r#"Grace; model said "Paris"; roots ["file:///work"]"#;
    for setup in [v2025(), v2026()] {
        let session = setup.start().await;
        assert_eq!(session.call("mixed").await.unwrap(), expected);
        let mut received = session.received();
        received.sort();
        assert_eq!(received, ["Who travels?", "roots", "sampling"]);
    }
    let session = v2026().start().await;
    let first = first_round(&session, "mixed").await;
    let json = serde_json::to_value(first.input_requests.unwrap()).unwrap();
    assert_eq!(json["user_name"]["method"], "elicitation/create");
    assert_eq!(json["capital"]["method"], "sampling/createMessage");
    assert_eq!(json["client_roots"]["method"], "roots/list");
    assert_eq!(session.calls(), 1);
}

// ---------------------------------------------------------------------------------------------
// requestState is attacker input

#[tokio::test]
async fn tampered_state_is_refused() {
    let session = v2026().start().await;
    let first = first_round(&session, "book").await;
    let state = first.request_state.unwrap();
    // Each character of the token changed in turn is refused (the token is base64url; a change
    // in the last character may only touch padding bits, so change two).
    let mut tampered = state.clone().into_bytes();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    for bad in [
        tampered,
        format!("{state}x"),
        "rs2.forged".to_owned(),
        String::new(),
    ] {
        let retry = book_retry(bad.clone());
        let error = error_of(once(&session, retry).await);
        assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS, "{bad}");
    }
    // The untouched state still works.
    let retry = book_retry(state);
    assert!(matches!(
        once(&session, retry).await.unwrap(),
        sdk::CallToolResponse::Complete(_)
    ));
}

#[tokio::test]
async fn the_state_carries_earlier_answers_that_the_client_cannot_read() {
    use base64::Engine as _;
    let session = v2026().start().await;
    let first = first_round(&session, "stay").await;
    let retry = sdk::CallToolRequestParams::new("stay")
        .with_input_responses(sdk::InputResponses::from([(
            "city".to_owned(),
            json!({"action": "accept", "content": {"city": "Lyon"}}),
        )]))
        .with_request_state(first.request_state.unwrap());
    let second = input_required(once(&session, retry).await.unwrap());
    let state = second.request_state.unwrap();
    // The answer is in the state (the next round reads it), yet no part of the token, as it
    // is or decoded, shows it.
    assert!(!state.contains("Lyon"), "{state}");
    let engines = [
        base64::engine::general_purpose::URL_SAFE_NO_PAD,
        base64::engine::general_purpose::STANDARD_NO_PAD,
    ];
    for part in state.split('.') {
        for engine in &engines {
            if let Ok(decoded) = engine.decode(part) {
                assert!(
                    !decoded.windows(4).any(|window| window == b"Lyon"),
                    "`{part}` decodes to the answer"
                );
            }
        }
    }
}

#[tokio::test]
async fn state_is_bound_to_the_tool_its_arguments_and_the_user() {
    // Two servers sealing with one key, as replicas do: alice's, and mallory's.
    let key = seal();
    let session = v2026().seal(key.clone()).user("alice").start().await;
    let mallory = v2026().seal(key).user("mallory").start().await;
    let arguments = object(json!({"table": 4, "where": {"a": 1, "b": 2}}));
    let first = input_required(
        once(
            &session,
            sdk::CallToolRequestParams::new("book").with_arguments(arguments.clone()),
        )
        .await
        .unwrap(),
    );
    let state = first.request_state.unwrap();
    let retry = |name: &str, arguments: Map<String, Value>| {
        sdk::CallToolRequestParams::new(name.to_owned())
            .with_arguments(arguments)
            .with_input_responses(booking_answer())
            .with_request_state(state.clone())
    };
    // Another tool, other arguments: refused.
    let error = error_of(once(&session, retry("trip", arguments.clone())).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    let other = object(json!({"table": 5, "where": {"a": 1, "b": 2}}));
    let error = error_of(once(&session, retry("book", other)).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    // Another user: refused.
    let error = error_of(once(&mallory, retry("book", arguments.clone())).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    // The same user, the same arguments with the keys in another order: accepted.
    let reordered = object(json!({"where": {"b": 2, "a": 1}, "table": 4}));
    assert!(matches!(
        once(&session, retry("book", reordered)).await.unwrap(),
        sdk::CallToolResponse::Complete(_)
    ));
}

#[tokio::test]
async fn expired_state_is_refused() {
    let session = v2026()
        .seal(seal().with_ttl(Duration::from_millis(50)).unwrap())
        .start()
        .await;
    let first = first_round(&session, "book").await;
    tokio::time::sleep(Duration::from_millis(120)).await;
    let retry = book_retry(first.request_state.unwrap());
    assert_eq!(
        error_of(once(&session, retry).await).code,
        sdk::ErrorCode::INVALID_PARAMS
    );
}

#[tokio::test]
async fn state_sealed_with_a_retired_key_is_refused_and_a_rotated_key_opens() {
    let old_key = b"the-old-key-of-at-least-32-bytes!".as_slice();
    let new_key = b"the-new-key-of-at-least-32-bytes!".as_slice();
    let old_only = RequestStateSeal::from_keyring("old", [("old", old_key)]).unwrap();
    let signer = v2026().seal(old_only).start().await;
    let state = first_round(&signer, "book").await.request_state.unwrap();
    let retry = || book_retry(state.clone());
    // A replica that signs with the new key and still holds the old one opens it.
    let rotated =
        RequestStateSeal::from_keyring("new", [("old", old_key), ("new", new_key)]).unwrap();
    let during = v2026().seal(rotated).start().await;
    assert!(matches!(
        once(&during, retry()).await.unwrap(),
        sdk::CallToolResponse::Complete(_)
    ));
    // Once the old key is retired, it is refused.
    let retired = RequestStateSeal::from_keyring("new", [("new", new_key)]).unwrap();
    let after = v2026().seal(retired).start().await;
    assert_eq!(
        error_of(once(&after, retry()).await).code,
        sdk::ErrorCode::INVALID_PARAMS
    );
}

#[tokio::test]
async fn single_use_state_cannot_be_replayed() {
    let session = v2026().seal(seal().single_use()).start().await;
    let state = first_round(&session, "book").await.request_state.unwrap();
    let retry = book_retry(state);
    assert!(matches!(
        once(&session, retry.clone()).await.unwrap(),
        sdk::CallToolResponse::Complete(_)
    ));
    assert_eq!(
        error_of(once(&session, retry).await).code,
        sdk::ErrorCode::INVALID_PARAMS
    );
}

/// Two replicas behind a load balancer record opened states in one Redis: a retry replayed to
/// the other replica is refused as on the first, and two replicas racing to open one state let
/// one through.
#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn single_use_in_redis_holds_across_replicas() {
    let test = "single_use_in_redis_holds_across_replicas";
    let redis = redis_server::Redis::for_test(test);
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("single-use");
    let replica = || async {
        let store = RedisStore::connect(&url)
            .await
            .expect("the Redis of REDIS_URL answers")
            .with_prefix(prefix.clone());
        v2026().seal(seal().with_replay_guard(store)).start().await
    };
    let (a, b) = (replica().await, replica().await);

    // Sealed on A, opened on B, replayed to A and to B: refused.
    let state = first_round(&a, "book").await.request_state.unwrap();
    assert!(matches!(
        once(&b, book_retry(state.clone())).await.unwrap(),
        sdk::CallToolResponse::Complete(_)
    ));
    for replica in [&a, &b] {
        assert_eq!(
            error_of(once(replica, book_retry(state.clone())).await).code,
            sdk::ErrorCode::INVALID_PARAMS
        );
    }

    // One state sent to both at once: exactly one opens it.
    let state = first_round(&a, "book").await.request_state.unwrap();
    let (on_a, on_b) = tokio::join!(
        once(&a, book_retry(state.clone())),
        once(&b, book_retry(state))
    );
    let completed = [on_a, on_b]
        .into_iter()
        .filter(|outcome| matches!(outcome, Ok(sdk::CallToolResponse::Complete(_))))
        .count();
    assert_eq!(completed, 1);
}

#[tokio::test]
async fn without_single_use_a_state_opens_again() {
    let session = v2026().start().await;
    let state = first_round(&session, "book").await.request_state.unwrap();
    let retry = book_retry(state);
    for _ in 0..2 {
        assert!(matches!(
            once(&session, retry.clone()).await.unwrap(),
            sdk::CallToolResponse::Complete(_)
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// Input responses

#[tokio::test]
async fn a_missing_or_malformed_response_asks_again_and_extra_keys_are_ignored() {
    let session = v2026().start().await;
    let state = first_round(&session, "book").await.request_state.unwrap();
    let responses = [
        // Nothing under the key asked, an answer under a key never asked.
        sdk::InputResponses::from([(
            "unrelated".to_owned(),
            json!({"action": "accept", "content": {"name": "Eve", "date": "2025-01-01"}}),
        )]),
        // Not an elicitation result.
        sdk::InputResponses::from([("booking".to_owned(), json!({"action": "maybe"}))]),
        sdk::InputResponses::new(),
    ];
    for responses in responses {
        let retry = sdk::CallToolRequestParams::new("book")
            .with_input_responses(responses.clone())
            .with_request_state(state.clone());
        let again = input_required(once(&session, retry).await.unwrap());
        let keys: Vec<_> = again.input_requests.unwrap().into_keys().collect();
        assert_eq!(keys, ["booking"], "{responses:?}");
    }
    // The right answer with extra keys beside it: complete, the extras ignored.
    let mut responses = booking_answer();
    responses.insert("unrelated".to_owned(), json!({"whatever": true}));
    let retry = sdk::CallToolRequestParams::new("book")
        .with_input_responses(responses)
        .with_request_state(state);
    let text = completed_text(once(&session, retry).await.unwrap());
    assert!(text.contains("Ada"), "{text}");
}

#[tokio::test]
async fn a_first_request_that_carries_the_answer_completes_at_once() {
    // The ephemeral flow: no requestState, the answer already in inputResponses.
    let session = v2026().start().await;
    let request = sdk::CallToolRequestParams::new("book").with_input_responses(booking_answer());
    let text = completed_text(once(&session, request).await.unwrap());
    assert!(text.contains("Ada"), "{text}");
}

#[tokio::test]
async fn answers_that_come_with_the_rounds_state_go_to_the_asks_not_to_rmcps_extractor() {
    let session = v2026().start().await;
    // A retry that carries the state: its answers are the asks', moved into the rounds.
    let first = first_round(&session, "book_and_peek").await;
    let retry = sdk::CallToolRequestParams::new("book_and_peek")
        .with_input_responses(booking_answer())
        .with_request_state(first.request_state.unwrap());
    let text = completed_text(once(&session, retry).await.unwrap());
    assert_eq!(text, "extractor saw []; booked for Ada");
    // Without a state (the ephemeral flow) the answers may be the method's own: rmcp's
    // extractor sees them, and the ask reads them too.
    let ephemeral =
        sdk::CallToolRequestParams::new("book_and_peek").with_input_responses(booking_answer());
    let text = completed_text(once(&session, ephemeral).await.unwrap());
    assert_eq!(text, "extractor saw [\"booking\"]; booked for Ada");
}

#[tokio::test]
async fn later_rounds_carry_the_earlier_answers_in_the_state() {
    let session = v2026().start().await;
    let first = first_round(&session, "stay").await;
    assert_eq!(
        first
            .input_requests
            .unwrap()
            .into_keys()
            .collect::<Vec<_>>(),
        ["city"]
    );
    let retry = |key: &str, content: Value, state: Option<String>| {
        let answer = sdk::InputResponses::from([(
            key.to_owned(),
            json!({"action": "accept", "content": content}),
        )]);
        let request = sdk::CallToolRequestParams::new("stay")
            .with_input_responses(answer)
            .with_request_state(state.unwrap());
        once(&session, request)
    };
    let second = input_required(
        retry("city", json!({"city": "Oslo"}), first.request_state)
            .await
            .unwrap(),
    );
    let requests = second.input_requests.unwrap();
    let json = serde_json::to_value(&requests).unwrap();
    assert_eq!(
        json["nights"]["params"]["message"],
        "How many nights in Oslo?"
    );
    // The third round needs only the nights: the city comes from the sealed state.
    let third = input_required(
        retry("nights", json!({"nights": 2}), second.request_state)
            .await
            .unwrap(),
    );
    let done = retry("confirm", json!({"confirm": true}), third.request_state)
        .await
        .unwrap();
    assert_eq!(completed_text(done), "2 nights in Oslo");
}

// ---------------------------------------------------------------------------------------------
// Capabilities

#[tokio::test]
async fn a_client_without_form_mode_gets_32021_and_no_input_request() {
    for declared in [None, Some(ElicitationCapability::url())] {
        let session = v2026().declared(declared.clone()).start().await;
        let error = error_of(once(&session, sdk::CallToolRequestParams::new("trip")).await);
        assert_eq!(error.code, sdk::ErrorCode(-32021), "{declared:?}");
        assert_eq!(
            error.data.unwrap(),
            json!({"requiredCapabilities": {"elicitation": {"form": {}}}})
        );
        assert!(session.received().is_empty());
    }
}

#[tokio::test]
async fn on_2025_11_25_a_client_without_form_mode_is_never_sent_the_form() {
    let session = v2025().declared(None).start().await;
    let text = session.call("book").await.unwrap();
    assert!(text.starts_with("cannot elicit"), "{text}");
    assert!(session.received().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Nothing the user said is lost

#[tokio::test]
async fn a_reask_keeps_the_right_answers_whatever_the_client_sends_back_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        // A client that sends back only the field it corrected, twice (legal: the app answers
        // what it likes); the guests the user chose (3) beat the run-time default (4).
        let answers = [
            json!({"name": "Ada", "date": "someday", "guests": 3}),
            json!({"date": "2025-13-45"}),
            json!({"date": "2025-12-24"}),
        ];
        let session = setup
            .answer(
                "Book a table",
                Answer::InTurn(Arc::new(Mutex::new(answers[..1].to_vec()))),
            )
            .answer(
                "Book a table (again)",
                Answer::InTurn(Arc::new(Mutex::new(answers[1..].to_vec()))),
            )
            .start()
            .await;
        let expected = format!(
            "{:?}",
            Booking {
                name: "Ada".into(),
                date: "2025-12-24".into(),
                guests: 3,
            }
        );
        assert_eq!(session.call("reask").await.unwrap(), expected);
        assert_eq!(session.received().len(), 3);
    }
}

#[tokio::test]
async fn a_field_left_out_takes_the_run_time_default_it_was_shown_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let session = setup
            .answer(
                "Book a table",
                Answer::SendUnchecked(json!({"name": "Ada"})),
            )
            .start()
            .await;
        let expected = format!(
            "{:?}",
            Booking {
                name: "Ada".into(),
                date: "2025-12-31".into(),
                guests: 2,
            }
        );
        assert_eq!(session.call("dated").await.unwrap(), expected);
    }
}

#[tokio::test]
async fn a_round_carries_neither_meta_nor_members_the_form_does_not_read() {
    let session = v2026().start().await;
    let state = first_round(&session, "stay").await.request_state.unwrap();
    let padding = "x".repeat(8 * 1024);
    let padded = json!({
        "action": "accept",
        "content": {"city": "Lyon", "unread": padding},
        "_meta": {"padding": padding},
        "extra": padding,
    });
    let retry = sdk::CallToolRequestParams::new("stay")
        .with_input_responses(sdk::InputResponses::from([("city".to_owned(), padded)]))
        .with_request_state(state.clone());
    let next = input_required(once(&session, retry).await.unwrap());
    let carried = next.request_state.unwrap();
    // The city and the action, sealed: far less than one copy of the padding.
    assert!(
        carried.len() < state.len() + 600,
        "{} bytes after {} bytes",
        carried.len(),
        state.len()
    );
}

#[tokio::test]
async fn an_explicit_key_a_reask_would_take_is_a_duplicate_key_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let session = setup
            .answer(
                "Book a table",
                Answer::SendUnchecked(json!({"name": "", "date": "2025-12-24"})),
            )
            .start()
            .await;
        let text = session.call("collide").await.unwrap();
        assert_eq!(
            text,
            "the form `rmcp::rounds::Traveller` and the form `rmcp::rounds::Booking` (its ask \
             number 2 under `booking`) both ask under the input key `booking-2` in one call; \
             give one of them another key (`#[elicit(key = \"..\")]`, `FormAsk::with_key`, or the \
             key of `Ask::sample`/`Ask::roots`)"
        );
        // The booking was asked once; its re-ask never went out.
        assert_eq!(session.received(), ["Who travels?", "Book a table"]);
    }
}

#[tokio::test]
async fn a_handler_that_asks_in_another_order_on_the_retry_is_told_so() {
    let session = v2026().start().await;
    let text = session.call("fickle").await.unwrap();
    assert_eq!(
        text,
        "the handler asked for `traveller` (a form) where its earlier run asked for `city` (a \
         form): a handler must ask for the same things in the same order on every run of a \
         call, and act only after its last ask"
    );
}

#[tokio::test]
async fn a_method_with_input_requests_of_its_own_serves_both_revisions() {
    for (setup, runs) in [(v2025(), 2), (v2026(), 2)] {
        let session = setup.start().await;
        assert_eq!(
            session.call("own_rounds").await.unwrap(),
            "travelling: Grace"
        );
        assert_eq!(session.received(), ["Who travels?"]);
        assert_eq!(session.calls(), runs);
    }
}

// ---------------------------------------------------------------------------------------------
// The front door: re-asks, run-time defaults, keys, and what a call may cost

#[tokio::test]
async fn a_form_is_asked_again_with_its_errors_and_the_right_answers_kept_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let session = setup
            // The name is right, the date is not; the client checks nothing.
            .answer(
                "Book a table",
                Answer::SendUnchecked(json!({"name": "Ada", "date": "someday"})),
            )
            // The re-ask: only the date, the client filling in the rest from the defaults.
            .answer(
                "Book a table (again)",
                Answer::Fill(json!({"date": "2025-12-24"})),
            )
            .start()
            .await;
        // The name comes from the previous answer, the guests from the run-time default.
        let expected = format!(
            "{:?}",
            Booking {
                name: "Ada".into(),
                date: "2025-12-24".into(),
                guests: 4,
            }
        );
        assert_eq!(session.call("reask").await.unwrap(), expected);
        let received = session.received();
        assert_eq!(received.len(), 2, "{received:?}");
        assert_eq!(received[0], "Book a table");
        assert!(
            received[1] == "Book a table\n\nPlease correct:\nDate must be a date like 2026-12-24",
            "{received:?}"
        );
    }
}

#[tokio::test]
async fn a_box_left_out_is_asked_again_in_words_then_read_as_unticked_on_both_revisions() {
    // Left out again (unticked), or ticked on the re-ask; on each revision.
    let cases = [json!({}), json!({"newsletter": true})]
        .into_iter()
        .flat_map(|then| [(v2025(), then.clone()), (v2026(), then)]);
    for (setup, then) in cases {
        // A host that leaves an unticked box out, as an HTML form does.
        let again = {
            let mut again = json!({"email": "ada@example.com"});
            again.as_object_mut().unwrap().extend(object(then.clone()));
            again
        };
        let session = setup
            .answer(
                "Subscribe?",
                Answer::SendUnchecked(json!({"email": "ada@example.com"})),
            )
            .answer("Subscribe? (again)", Answer::SendUnchecked(again))
            .start()
            .await;
        let ticked = then.get("newsletter").is_some();
        assert_eq!(
            session.call("subscribe").await.unwrap(),
            format!("ada@example.com, newsletter {ticked}")
        );
        assert_eq!(
            session.received(),
            [
                "Subscribe?",
                "Subscribe?\n\nPlease correct:\nNewsletter was left out: tick it for yes, or \
                 leave it unticked for no"
            ]
        );
    }
}

#[tokio::test]
async fn a_form_is_asked_at_most_max_asks_times_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let wrong = json!({"name": "", "date": "never"});
        let session = setup
            .answer("Book a table", Answer::SendUnchecked(wrong.clone()))
            .answer("Book a table (again)", Answer::SendUnchecked(wrong))
            .limits(|elicitation| elicitation.with_max_asks(3))
            .start()
            .await;
        let text = session.call("reask").await.unwrap();
        assert_eq!(
            text,
            "the form `booking` was asked 3 times in this call, the most one call may: the \
             answers never completed it; the last answer:\n\
             `name`: must be at least 1 characters long, got 0\n\
             `date`: must be a date like 2026-12-24"
        );
        assert_eq!(session.received().len(), 3);
    }
}

#[tokio::test]
async fn a_call_that_never_gets_its_answer_stops_at_max_rounds() {
    let session = v2026()
        .limits(|elicitation| elicitation.with_max_rounds(2))
        .start()
        .await;
    let mut state = first_round(&session, "book").await.request_state;
    // A client that retries without the answer, as Codex did (openai/codex#41797).
    for _ in 0..1 {
        let retry = sdk::CallToolRequestParams::new("book").with_request_state(state.unwrap());
        state = input_required(once(&session, retry).await.unwrap()).request_state;
    }
    let retry = sdk::CallToolRequestParams::new("book").with_request_state(state.unwrap());
    let error = error_of(once(&session, retry).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_REQUEST);
    assert_eq!(
        error.message,
        "this call asked for input 2 times without finishing, the most one call may: the \
         client's answers never completed what it asks (still waiting for: `booking`)"
    );
}

#[tokio::test]
async fn two_forms_under_one_key_are_an_error_that_names_both() {
    for setup in [v2025(), v2026()] {
        let session = setup.start().await;
        let text = session.call("same_key").await.unwrap();
        assert_eq!(
            text,
            "the form `rmcp::rounds::Traveller` and the form `rmcp::rounds::City` both ask under \
             the input key `who` in one call; give one of them another key \
             (`#[elicit(key = \"..\")]`, `FormAsk::with_key`, or the key of `Ask::sample`/`Ask::roots`)"
        );
    }
}

#[tokio::test]
async fn a_run_time_default_the_form_refuses_is_reported_before_anything_is_sent() {
    for setup in [v2025(), v2026()] {
        let session = setup.start().await;
        let text = session.call("bad_default").await.unwrap();
        assert_eq!(
            text,
            "cannot send the form `booking`: a default is invalid:\n\
             `guests`: must be at most 12, got 40"
        );
        assert!(session.received().is_empty());
    }
}

#[tokio::test]
async fn a_client_without_form_mode_reaches_the_tool_on_both_revisions() {
    for setup in [v2025(), v2026()] {
        let session = setup.declared(None).start().await;
        assert_eq!(
            session.call("fallback").await.unwrap(),
            "asking the model instead"
        );
        assert!(session.received().is_empty());
    }
}

#[tokio::test]
async fn a_state_sealed_before_a_form_type_was_renamed_opens_after_it() {
    let before = v2026().start().await;
    let first = first_round(&before, "guest").await;
    let keys: Vec<_> = first.input_requests.unwrap().into_keys().collect();
    assert_eq!(keys, ["guest"]);
    // The next build, its form type renamed with the key kept, gets the retry.
    let after = v2026().renamed().start().await;
    let answer = sdk::InputResponses::from([(
        "guest".to_owned(),
        json!({"action": "accept", "content": {"name": "Ada"}}),
    )]);
    let retry = sdk::CallToolRequestParams::new("guest")
        .with_input_responses(answer)
        .with_request_state(first.request_state.unwrap());
    assert_eq!(
        completed_text(once(&after, retry).await.unwrap()),
        "guest Ada"
    );
}

#[tokio::test]
async fn the_state_carries_only_what_the_form_reads_and_has_a_size_limit() {
    let session = v2026().start().await;
    let first = first_round(&session, "stay").await;
    let answer = |content: Value| {
        sdk::InputResponses::from([(
            "city".to_owned(),
            json!({"action": "accept", "content": content}),
        )])
    };
    // 1 MiB of fields the form does not have: not carried into the next state.
    let padding = "x".repeat(1 << 20);
    let retry = sdk::CallToolRequestParams::new("stay")
        .with_input_responses(answer(json!({"city": "Oslo", "padding": padding})))
        .with_request_state(first.request_state.clone().unwrap());
    let second = input_required(once(&session, retry).await.unwrap());
    let sealed = second.request_state.unwrap();
    assert!(sealed.len() < 2048, "{} bytes", sealed.len());

    // A city of 100 KB is the form's own field, so it would be carried: over the limit.
    let city = "O".repeat(100 * 1024);
    let retry = sdk::CallToolRequestParams::new("stay")
        .with_input_responses(answer(json!({ "city": city })))
        .with_request_state(first.request_state.unwrap());
    let error = error_of(once(&session, retry).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    assert!(
        error
            .message
            .ends_with("over this server's limit of 65536 bytes: answer with less text"),
        "{}",
        error.message
    );
}

/// A server served by rmcp alone, not through an `Elicitation`.
#[derive(Clone)]
struct Unwrapped {
    tool_router: ToolRouter<Unwrapped>,
}

#[tool_router]
impl Unwrapped {
    #[tool(description = "Books a table")]
    async fn book(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        book(ask).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Unwrapped {}

#[tokio::test]
async fn an_ask_on_a_server_not_served_through_an_elicitation_says_how_to_fix_it() {
    for protocol in [
        sdk::ProtocolVersion::V_2025_11_25,
        sdk::ProtocolVersion::V_2026_07_28,
    ] {
        let server = Unwrapped {
            tool_router: Unwrapped::tool_router(),
        };
        let handler = v2025().start().await.handler;
        let (_peer, client) = support::rmcp::serve_alone(server, handler, protocol.clone()).await;
        let error = error_of(support::rmcp::call(&client, "book").await);
        assert_eq!(error.code, sdk::ErrorCode::INTERNAL_ERROR, "{protocol}");
        assert_eq!(
            error.message,
            "this handler asks through an `Ask`, but it does not run in a call of a server \
             served through `elicit_mcp::rmcp::Elicitation`: serve the server with \
             `elicitation.serve(..)` or `elicit_mcp::http::Guard::serve(..)`, and ask in the \
             handler's own task"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A 2025-11-25 ask that the client never answers

#[tokio::test]
async fn on_2025_11_25_an_unanswered_ask_ends_at_its_timeout_with_a_clear_outcome() {
    let session = v2025()
        .limits(|elicitation| elicitation.with_timeout(Duration::from_millis(200)))
        .answer("Book a table", Answer::Never)
        .start()
        .await;
    assert_eq!(
        session.call("book").await.unwrap(),
        "the user did not answer within 200 ms; the request was cancelled"
    );
}

#[tokio::test]
async fn on_2025_11_25_the_waiting_ask_ends_with_the_session() {
    // The server's timeout (10 minutes by default) is not what ends it.
    let session = v2025().answer("Book a table", Answer::Never).start().await;
    let peer = session.client.peer().clone();
    let pending = tokio::spawn(async move {
        peer.call_tool(sdk::CallToolRequestParams::new("book_watched"))
            .await
    });
    while session.received().is_empty() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let watched = session.server.watched.clone();
    session.client.cancel().await.unwrap();
    // rmcp lets in-flight handlers finish for 5 s after the transport closes, then ends the
    // requests still pending: the ask ends then, not at its 10-minute timeout.
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(outcome) = watched.lock().unwrap().first() {
                return outcome.clone();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the ask ends when the session does");
    assert_eq!(
        ended,
        "the session ended while waiting for the user's answer"
    );
    assert!(pending.await.unwrap().is_err(), "the client went away");
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(
        Booking,
        Subscription,
        Traveller,
        Payment,
        City,
        Nights,
        Confirm,
        before::GuestName,
        after::RenamedGuest
    );
}
