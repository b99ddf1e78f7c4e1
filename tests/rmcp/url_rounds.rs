//! URL mode through `Ask::url`, one handler on both revisions, over rmcp's in-memory duplex:
//! on 2025-11-25 an `elicitation/create` request with its `elicitationId`, the handler waiting
//! for the tracker's completion; on 2026-07-28 an input request with the same id, consent on the
//! retry, state-only rounds while the out-of-band step goes on, and the completion collected
//! from the tracker through the sealed `requestState`. A "browser" task completes the
//! elicitation through the tracker, as the server's connect page would.
//!
//! Also: `Ask::sample` and `Ask::roots` refuse, on 2025-11-25, a client that did not declare
//! `sampling` or `roots`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use elicit_mcp::rmcp::{Ask, ElicitError, Elicitation, UrlCompleted};
use elicit_mcp::server::{
    CompletedElicitation, CompletionError, ElicitationStore, ElicitationTracker, Inserted,
    MemoryStore, PendingEntry, RedisStore, StoreError, UrlPolicy, UserId,
};
use elicit_mcp::wire::ElicitationCapability;
use elicit_mcp::{Elicit, ElicitOutcome};
use elicit_test_support::clock::TestClock;
use elicit_test_support::rmcp::{
    capital, capital_question, client_info, completed_text, error_of, input_required, seal, serve,
    text, work_root,
};
use elicit_test_support::{self as support, redis_server};
use rmcp::model as sdk;
use rmcp::service::{Peer, RequestContext, RoleClient, RoleServer, RunningService, ServiceError};
use rmcp::{ClientHandler, ServerHandler};
use serde_json::{Value, json};
use tokio::sync::mpsc;

// ---------------------------------------------------------------------------------------------
// The server

type Tracker<S = MemoryStore> = ElicitationTracker<S>;

/// How long an elicitation stays pending (the tracker's default).
const TTL: Duration = Tracker::<MemoryStore>::DEFAULT_TTL;

#[derive(Elicit, Debug)]
#[elicit(message = "Name the connection")]
struct Label {
    label: String,
}

struct UrlServer<S = MemoryStore> {
    /// The server's own handle to the tracker, as its connect page holds it.
    tracker: Arc<Tracker<S>>,
    /// The URL, `{id}` standing for the elicitation id.
    url: Arc<str>,
    calls: Arc<AtomicUsize>,
}

/// The URL step the connect tools ask: the URL (`{id}` standing for the elicitation id).
struct ConnectStep {
    url: Arc<str>,
}

impl ConnectStep {
    /// Asks the user to connect the Example account.
    async fn ask(&self, ask: &Ask) -> Result<ElicitOutcome<UrlCompleted>, ElicitError> {
        ask.url("Connect your Example account.", |id| {
            self.url.replace("{id}", id.as_str())
        })
        .await
    }
}

/// The tool, written once: connect an account, and say how it went.
async fn connect(ask: Ask, step: ConnectStep) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let outcome = step.ask(&ask).await;
    Ok(match outcome {
        Ok(ElicitOutcome::Accepted(done)) => text(format!("connected {}", done.id())),
        Ok(ElicitOutcome::Declined) => text("declined"),
        Ok(ElicitOutcome::Cancelled) => text("cancelled"),
        // A client without URL mode: -32021, as the spec has the server answer.
        Err(error) => return error.into_call_result(),
    })
}

/// Connect, then a form: the rounds after the completion replay the URL step from the state.
async fn connect_then_label(
    ask: Ask,
    step: ConnectStep,
) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let outcome = step.ask(&ask).await?;
    let ElicitOutcome::Accepted(done) = outcome else {
        return Ok(text("not connected"));
    };
    let id = done.id();
    Ok(match ask.form::<Label>().await? {
        ElicitOutcome::Accepted(Label { label }) => text(format!("{label}: {id}")),
        _ => text(format!("unlabelled: {id}")),
    })
}

/// A form and the URL awaited together: both go out in the first round.
async fn label_and_connect(
    ask: Ask,
    step: ConnectStep,
) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    let (label, connected) = tokio::join!(ask.form::<Label>(), step.ask(&ask));
    Ok(match (label?, connected?) {
        (ElicitOutcome::Accepted(Label { label }), ElicitOutcome::Accepted(done)) => {
            text(format!("{label}: {}", done.id()))
        }
        _ => text("not connected"),
    })
}

#[allow(deprecated)] // rmcp deprecates sampling and roots (SEP-2577).
async fn sample(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    Ok(match ask.sample("capital", capital_question()).await {
        Ok(result) => text(serde_json::to_value(result).unwrap()["content"]["text"].to_string()),
        Err(error) => error.to_tool_result(),
    })
}

#[allow(deprecated)]
async fn roots(ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
    Ok(match ask.roots("roots").await {
        Ok(result) => text(result.roots[0].uri.clone()),
        Err(error) => sdk::CallToolResult::error(vec![sdk::ContentBlock::text(format!(
            "{error} {}",
            sdk::ErrorData::from(&error).data.unwrap()
        ))]),
    })
}

// By hand: a derive would ask `S: Clone`.
impl<S> Clone for UrlServer<S> {
    fn clone(&self) -> Self {
        UrlServer {
            tracker: self.tracker.clone(),
            url: self.url.clone(),
            calls: self.calls.clone(),
        }
    }
}

impl<S: ElicitationStore + 'static> ServerHandler for UrlServer<S> {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::InitializeResult::new(sdk::ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: sdk::CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let step = ConnectStep {
            url: self.url.clone(),
        };
        // A hand-written handler: the call's `Ask` is where the `Elicitation` put it.
        let ask = Ask::current()?;
        let result = match request.name.as_ref() {
            "connect" => connect(ask, step).await,
            "connect_then_label" => connect_then_label(ask, step).await,
            "label_and_connect" => label_and_connect(ask, step).await,
            "sample" => sample(ask).await,
            "roots" => roots(ask).await,
            other => Err(sdk::ErrorData::invalid_params(
                format!("no tool `{other}`"),
                None,
            )),
        };
        result.map(sdk::CallToolResponse::Complete)
    }
}

// ---------------------------------------------------------------------------------------------
// The client

#[derive(Clone, Copy, Debug)]
enum Consent {
    Accept,
    Decline,
    Cancel,
}

/// A URL request as the client got it: its URL and its `elicitationId` (`None` when absent).
type Received = (String, Option<String>);

#[derive(Clone)]
struct UrlClient {
    protocol: sdk::ProtocolVersion,
    declared: Option<ElicitationCapability>,
    sampling_and_roots: bool,
    consent: Consent,
    /// Each URL request received.
    received: Arc<Mutex<Vec<Received>>>,
    /// Where a consented URL goes: the user's browser.
    browser: mpsc::UnboundedSender<String>,
}

impl ClientHandler for UrlClient {
    fn get_info(&self) -> sdk::ClientConfig {
        client_info(
            "elicit-url-client",
            self.protocol.clone(),
            self.declared.as_ref(),
            self.sampling_and_roots,
        )
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
        // The request as it came on the wire, to see whether it had an id.
        let wire = serde_json::to_value(&request).unwrap();
        let sdk::ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            return Err(sdk::ErrorData::invalid_params("not a URL request", None));
        };
        let id = wire["elicitationId"]
            .as_str()
            .filter(|id| !id.is_empty())
            .map(str::to_owned);
        self.received.lock().unwrap().push((url.clone(), id));
        Ok(sdk::ElicitResult::new(match self.consent {
            Consent::Accept => {
                self.browser.send(url).unwrap();
                sdk::ElicitationAction::Accept
            }
            Consent::Decline => sdk::ElicitationAction::Decline,
            Consent::Cancel => sdk::ElicitationAction::Cancel,
        }))
    }

    #[allow(deprecated)]
    async fn create_message(
        &self,
        _params: sdk::CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::CreateMessageResult, sdk::ErrorData> {
        Ok(capital())
    }

    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ListRootsResult, sdk::ErrorData> {
        Ok(work_root())
    }
}

// ---------------------------------------------------------------------------------------------
// The harness

const URL: &str = "https://mcp.example.com/connect?elicitationId={id}";

fn alice() -> UserId {
    UserId::from_verified_subject("alice").unwrap()
}

fn mallory() -> UserId {
    UserId::from_verified_subject("mallory").unwrap()
}

/// The elicitation id in the URL of the input request under `"url"`.
fn url_id(requests: &sdk::InputRequests) -> String {
    let request = serde_json::to_value(&requests["url"]).unwrap();
    id_in(request["params"]["url"].as_str().unwrap())
}

/// The elicitation id in a URL made from [`URL`].
fn id_in(url: &str) -> String {
    url.split_once("elicitationId=").unwrap().1.to_owned()
}

struct Setup {
    protocol: sdk::ProtocolVersion,
    declared: Option<ElicitationCapability>,
    sampling_and_roots: bool,
    consent: Consent,
    url: &'static str,
    hold: Duration,
    max_pending: usize,
    max_rounds: u32,
}

struct Session<S = MemoryStore> {
    client: RunningService<RoleClient, UrlClient>,
    handler: UrlClient,
    server: UrlServer<S>,
    /// What serves the server: URL mode on its tracker, every request alice's.
    elicitation: Elicitation,
    clock: TestClock,
    _server_peer: Peer<RoleServer>,
    /// The consented URLs, as the user's browser gets them.
    browser: mpsc::UnboundedReceiver<String>,
}

fn setup(protocol: sdk::ProtocolVersion) -> Setup {
    Setup {
        protocol,
        declared: Some(ElicitationCapability::form_and_url()),
        sampling_and_roots: true,
        consent: Consent::Accept,
        url: URL,
        hold: Duration::from_millis(20),
        max_pending: Tracker::<MemoryStore>::DEFAULT_MAX_PENDING_PER_USER,
        max_rounds: Elicitation::DEFAULT_MAX_ROUNDS,
    }
}

fn v2025() -> Setup {
    setup(sdk::ProtocolVersion::V_2025_11_25)
}

fn v2026() -> Setup {
    setup(sdk::ProtocolVersion::V_2026_07_28)
}

impl Setup {
    async fn start(self) -> Session {
        self.start_with(MemoryStore::new()).await
    }

    async fn start_with<S: ElicitationStore + 'static>(self, store: S) -> Session<S> {
        let clock = TestClock::default();
        let tracker = ElicitationTracker::with_store(store, UrlPolicy::production())
            .with_clock(clock.clone())
            .with_max_pending_per_user(self.max_pending);
        let server = UrlServer {
            tracker: Arc::new(tracker),
            url: self.url.into(),
            calls: Arc::default(),
        };
        let elicitation = Elicitation::new(seal())
            .with_url_hold(self.hold)
            .with_max_rounds(self.max_rounds)
            .with_url_mode(server.tracker.clone())
            .with_local_user(alice());
        let (browser_sender, browser) = mpsc::unbounded_channel();
        let handler = UrlClient {
            protocol: self.protocol.clone(),
            declared: self.declared,
            sampling_and_roots: self.sampling_and_roots,
            consent: self.consent,
            received: Arc::default(),
            browser: browser_sender,
        };
        let (server_peer, client) =
            serve(&elicitation, server.clone(), handler.clone(), self.protocol).await;
        Session {
            client,
            handler,
            server,
            elicitation,
            clock,
            _server_peer: server_peer,
            browser,
        }
    }
}

impl Session {
    fn pending(&self) -> usize {
        self.server.tracker.store().len()
    }
}

impl<S: ElicitationStore + 'static> Session<S> {
    fn received(&self) -> Vec<Received> {
        self.handler.received.lock().unwrap().clone()
    }

    fn calls(&self) -> usize {
        self.server.calls.load(Ordering::SeqCst)
    }

    /// The connect page: Alice, signed in, completes the elicitation `id`.
    async fn complete(&self, id: &str) -> Result<CompletedElicitation, CompletionError> {
        self.server.tracker.complete(id, &alice()).await
    }

    /// The whole call, rmcp's client answering and retrying as it does.
    async fn call(&self, tool: &str) -> Result<String, ServiceError> {
        support::rmcp::call(&self.client, tool).await
    }

    /// One request, without rmcp's retry loop.
    async fn once(
        &self,
        tool: &str,
        responses: Option<Value>,
        state: Option<&str>,
    ) -> Result<sdk::CallToolResponse, ServiceError> {
        once(&self.client, tool, responses, state).await
    }

    /// A client of the same server (its tracker, its seal) whose requests are `user`'s.
    async fn as_user(&self, user: UserId) -> RunningService<RoleClient, UrlClient> {
        let elicitation = self.elicitation.clone().with_local_user(user);
        let protocol = self.handler.protocol.clone();
        serve(
            &elicitation,
            self.server.clone(),
            self.handler.clone(),
            protocol,
        )
        .await
        .1
    }
}

/// One request of `client`, without rmcp's retry loop.
async fn once(
    client: &RunningService<RoleClient, UrlClient>,
    tool: &str,
    responses: Option<Value>,
    state: Option<&str>,
) -> Result<sdk::CallToolResponse, ServiceError> {
    let mut request = sdk::CallToolRequestParams::new(tool.to_owned());
    if let Some(responses) = responses {
        request = request.with_input_responses(serde_json::from_value(responses).unwrap());
    }
    if let Some(state) = state {
        request = request.with_request_state(state.to_owned());
    }
    client.call_tool_once(request).await
}

/// The whole `connect` call, the user's browser completing the elicitation after `delay`: the
/// tool's text and the elicitation id.
async fn connect_in_browser(session: &mut Session, delay: Duration) -> (String, String) {
    let browser = complete_after(session, delay);
    let text = session.call("connect").await.unwrap();
    (text, browser.await.unwrap())
}

/// The user's browser: opens each consented URL after `delay`, and the connect page completes
/// the elicitation for the signed-in user.
fn complete_after(session: &mut Session, delay: Duration) -> tokio::task::JoinHandle<String> {
    let tracker = session.server.tracker.clone();
    let (sender, mut urls) = mpsc::unbounded_channel();
    std::mem::swap(&mut session.browser, &mut urls);
    drop(sender);
    tokio::spawn(async move {
        let url = urls.recv().await.unwrap();
        tokio::time::sleep(delay).await;
        let id = id_in(&url);
        tracker.complete(&id, &alice()).await.unwrap();
        id
    })
}

fn accept() -> Value {
    json!({"url": {"action": "accept"}})
}

/// The first round and the consent round, by hand: the state of the first state-only round,
/// and the elicitation id (from the URL).
async fn consented<S: ElicitationStore + 'static>(session: &Session<S>) -> (String, String) {
    let first = input_required(session.once("connect", None, None).await.unwrap());
    let id = url_id(&first.input_requests.unwrap());
    let waiting = input_required(
        session
            .once("connect", Some(accept()), first.request_state.as_deref())
            .await
            .unwrap(),
    );
    assert!(waiting.input_requests.is_none(), "{waiting:?}");
    (waiting.request_state.unwrap(), id)
}

// ---------------------------------------------------------------------------------------------
// 2026-07-28

#[tokio::test]
async fn on_2026_07_28_consent_then_waiting_rounds_then_the_completion_reaches_the_handler() {
    let mut session = v2026().start().await;
    let (text, id) = connect_in_browser(&mut session, Duration::from_millis(300)).await;
    assert_eq!(text, format!("connected {id}"));
    // The first round, the consent, and state-only rounds while the user was at the page.
    assert!(session.calls() >= 3, "{} calls", session.calls());
    // The request carried the URL and the tracker's id, as on 2025-11-25.
    assert_eq!(
        session.received(),
        vec![(URL.replace("{id}", &id), Some(id.clone()))]
    );
    assert_eq!(session.pending(), 0);
}

#[tokio::test]
async fn on_2026_07_28_each_round_by_hand() {
    let session = v2026().start().await;
    let first = input_required(session.once("connect", None, None).await.unwrap());
    let requests = serde_json::to_value(first.input_requests.as_ref().unwrap()).unwrap();
    assert_eq!(requests["url"]["method"], "elicitation/create");
    assert_eq!(requests["url"]["params"]["mode"], "url");
    assert_eq!(
        requests["url"]["params"]["message"],
        "Connect your Example account."
    );
    // The URL request carries the tracker's id, the one in its URL: never an empty one.
    let id = id_in(requests["url"]["params"]["url"].as_str().unwrap());
    assert_eq!(requests["url"]["params"]["elicitationId"], id.as_str());
    assert_eq!(session.pending(), 1);

    // Consent is not completion: the answer is a state-only "still waiting".
    let waiting = input_required(
        session
            .once("connect", Some(accept()), first.request_state.as_deref())
            .await
            .unwrap(),
    );
    assert!(waiting.input_requests.is_none());
    let state = waiting.request_state.unwrap();
    // Still waiting on a state-only retry.
    let again = input_required(session.once("connect", None, Some(&state)).await.unwrap());
    assert!(again.input_requests.is_none());
    assert!(again.request_state.is_some());

    // The connect page completes it; 2026-07-28 has no notification to send.
    let completed = session.complete(&id).await.unwrap();
    assert!(
        !session
            .elicitation
            .notify_completed(&completed)
            .await
            .unwrap()
    );

    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), format!("connected {id}"));
    assert_eq!(session.pending(), 0);
}

#[tokio::test]
async fn a_missing_or_malformed_consent_asks_again_for_the_same_url() {
    let session = v2026().start().await;
    let first = input_required(session.once("connect", None, None).await.unwrap());
    let url = serde_json::to_value(&first.input_requests.unwrap()["url"]).unwrap()["params"]["url"]
        .clone();
    for responses in [None, Some(json!({"url": {"no": "action"}, "other": 1}))] {
        let again = input_required(
            session
                .once("connect", responses, first.request_state.as_deref())
                .await
                .unwrap(),
        );
        let request = serde_json::to_value(&again.input_requests.unwrap()["url"]).unwrap();
        assert_eq!(request["params"]["url"], url);
    }
    // The same elicitation, not a new one.
    assert_eq!(session.pending(), 1);
}

#[tokio::test]
async fn content_with_a_url_answer_is_an_error_and_discards_the_elicitation() {
    let session = v2026().start().await;
    let first = input_required(session.once("connect", None, None).await.unwrap());
    let answer = json!({"url": {"action": "accept", "content": {"apiKey": "secret"}}});
    let text = completed_text(
        session
            .once("connect", Some(answer), first.request_state.as_deref())
            .await
            .unwrap(),
    );
    assert_eq!(
        text,
        "a URL-mode result must carry no content, found keys [\"apiKey\"]"
    );
    assert_eq!(session.pending(), 0);
}

#[tokio::test]
async fn the_rounds_after_the_completion_replay_the_url_step_from_the_state() {
    let session = v2026().start().await;
    let first = input_required(
        session
            .once("connect_then_label", None, None)
            .await
            .unwrap(),
    );
    let id = url_id(&first.input_requests.unwrap());
    session.complete(&id).await.unwrap();
    // Consent, and the step is already done: the next round asks for the label.
    let label_round = input_required(
        session
            .once(
                "connect_then_label",
                Some(accept()),
                first.request_state.as_deref(),
            )
            .await
            .unwrap(),
    );
    assert!(label_round.input_requests.unwrap().contains_key("label"));
    let done = session
        .once(
            "connect_then_label",
            Some(json!({"label": {"action": "accept", "content": {"label": "work"}}})),
            label_round.request_state.as_deref(),
        )
        .await
        .unwrap();
    assert_eq!(completed_text(done), format!("work: {id}"));
}

/// A store whose every call waits a turn, as a store across the network does.
#[derive(Default)]
struct SlowStore(MemoryStore);

impl ElicitationStore for SlowStore {
    async fn insert(
        &self,
        entry: PendingEntry,
        max_per_user: usize,
    ) -> Result<Inserted, StoreError> {
        tokio::task::yield_now().await;
        self.0.insert(entry, max_per_user).await
    }

    async fn get(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        tokio::task::yield_now().await;
        self.0.get(id).await
    }

    async fn remove(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        tokio::task::yield_now().await;
        self.0.remove(id).await
    }

    async fn mark_completed(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        tokio::task::yield_now().await;
        self.0.mark_completed(id).await
    }

    async fn renew(&self, entry: &PendingEntry, until: SystemTime) -> Result<bool, StoreError> {
        tokio::task::yield_now().await;
        self.0.renew(entry, until).await
    }

    async fn remove_expired(&self, now: SystemTime) -> Result<usize, StoreError> {
        tokio::task::yield_now().await;
        self.0.remove_expired(now).await
    }
}

#[tokio::test]
async fn a_form_and_the_url_awaited_together_go_out_in_one_round_over_a_slow_store() {
    let session = v2026().start_with(SlowStore::default()).await;
    let first = input_required(session.once("label_and_connect", None, None).await.unwrap());
    let requests = first.input_requests.unwrap();
    assert_eq!(
        requests.keys().collect::<Vec<_>>(),
        ["label", "url"],
        "both asks in the first round"
    );
    let id = url_id(&requests);
    assert_eq!(session.server.tracker.store().0.len(), 1);
    // Consent and the label; the step is done before the retry, which collects it.
    session.complete(&id).await.unwrap();
    let answers = json!({
        "url": {"action": "accept"},
        "label": {"action": "accept", "content": {"label": "work"}}
    });
    let done = session
        .once(
            "label_and_connect",
            Some(answers),
            first.request_state.as_deref(),
        )
        .await
        .unwrap();
    assert_eq!(completed_text(done), format!("work: {id}"));
    assert!(session.server.tracker.store().0.is_empty());
}

#[tokio::test]
async fn decline_and_cancel_come_back_as_such_and_discard_the_elicitation() {
    for (consent, expected) in [
        (Consent::Decline, "declined"),
        (Consent::Cancel, "cancelled"),
    ] {
        for setup in [v2025(), v2026()] {
            let protocol = setup.protocol.clone();
            let session = Setup { consent, ..setup }.start().await;
            assert_eq!(
                session.call("connect").await.unwrap(),
                expected,
                "{protocol}"
            );
            assert_eq!(session.pending(), 0, "{protocol}");
        }
    }
}

#[tokio::test]
async fn another_users_state_is_refused() {
    // The state is bound to its user: a server sealing with the same key and sharing the
    // tracker, whose requests are mallory's, refuses it; and the completion stays alice's.
    let session = v2026().start().await;
    let (state, id) = consented(&session).await;
    session.complete(&id).await.unwrap();
    let mallory = session.as_user(mallory()).await;
    let error = error_of(once(&mallory, "connect", None, Some(&state)).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), format!("connected {id}"));
}

#[tokio::test]
async fn a_completion_is_used_once() {
    let session = v2026().start().await;
    let (state, id) = consented(&session).await;
    // Completing twice: the second is refused.
    session.complete(&id).await.unwrap();
    assert!(matches!(
        session.complete(&id).await,
        Err(CompletionError::NotPending)
    ));
    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), format!("connected {id}"));
    // The waiting state replayed after the handler collected the completion: refused.
    let error = error_of(session.once("connect", None, Some(&state)).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
}

#[tokio::test]
async fn rounds_that_only_wait_for_the_step_do_not_count_toward_max_rounds() {
    // One round that asks (the URL); the consent and every "still waiting" round after it are
    // bounded by the elicitation's expiry, not by `max_rounds`.
    let session = Setup {
        max_rounds: 1,
        ..v2026()
    }
    .start()
    .await;
    let (mut state, id) = consented(&session).await;
    for _ in 0..4 {
        let waiting = input_required(session.once("connect", None, Some(&state)).await.unwrap());
        assert!(waiting.input_requests.is_none(), "{waiting:?}");
        state = waiting.request_state.unwrap();
    }
    session.complete(&id).await.unwrap();
    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), format!("connected {id}"));
}

#[tokio::test]
async fn an_elicitation_whose_call_stops_retrying_stops_counting_against_the_limit() {
    let session = Setup {
        max_pending: 1,
        ..v2026()
    }
    .start()
    .await;
    let (state, _id) = consented(&session).await;
    // The user's one pending elicitation: another call cannot start one.
    let refused = session.once("connect", None, None).await.unwrap();
    assert!(
        completed_text(refused).contains("pending"),
        "the limit holds while the first call retries"
    );
    // The first call's client goes away: one lease after its last retry, the elicitation no
    // longer counts, and another call starts one.
    session
        .clock
        .advance(Elicitation::DEFAULT_URL_LEASE + Duration::from_secs(1));
    let started = input_required(session.once("connect", None, None).await.unwrap());
    assert!(started.input_requests.unwrap().contains_key("url"));
    // A late retry of the first call: its elicitation expired.
    let late = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(
        completed_text(late),
        "the URL elicitation did not complete: the elicitation expired"
    );
}

#[tokio::test]
async fn an_expired_elicitation_ends_the_ask_as_on_2025_11_25() {
    let expired = "the URL elicitation did not complete: the elicitation expired";
    let session = v2026().start().await;
    let (state, id) = consented(&session).await;
    session.clock.advance(TTL + Duration::from_secs(1));
    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), expired);
    // Too late for the connect page as well.
    assert!(session.complete(&id).await.is_err());

    // Completed in time but collected too late: expired too.
    let session = v2026().start().await;
    let (state, id) = consented(&session).await;
    session.complete(&id).await.unwrap();
    session.clock.advance(TTL + Duration::from_secs(1));
    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), expired);
}

#[tokio::test]
async fn a_url_the_policy_refuses_never_goes_out() {
    for protocol in [
        sdk::ProtocolVersion::V_2025_11_25,
        sdk::ProtocolVersion::V_2026_07_28,
    ] {
        // Plain HTTP to a public host, and the user's subject in the URL.
        for url in [
            "http://mcp.example.com/connect?elicitationId={id}",
            "https://mcp.example.com/connect?user=alice&elicitationId={id}",
        ] {
            let session = Setup {
                url,
                ..setup(protocol.clone())
            }
            .start()
            .await;
            let text = session.call("connect").await.unwrap();
            assert!(
                text.starts_with("refusing to send the elicitation URL"),
                "{protocol} {url}: {text}"
            );
            assert!(session.received().is_empty());
            assert_eq!(session.pending(), 0);
        }
    }
}

#[tokio::test]
async fn the_per_user_limit_holds() {
    let session = Setup {
        max_pending: 1,
        ..v2026()
    }
    .start()
    .await;
    input_required(session.once("connect", None, None).await.unwrap());
    // A second elicitation while the first is pending: refused, and nothing sent.
    let second = completed_text(session.once("connect", None, None).await.unwrap());
    assert!(
        second.starts_with("the user already has 1 pending URL elicitations"),
        "{second}"
    );
    assert_eq!(session.pending(), 1);
}

#[tokio::test]
async fn a_client_without_url_mode_gets_32021_and_no_input_request() {
    for declared in [None, Some(ElicitationCapability::form())] {
        let session = Setup {
            declared: declared.clone(),
            ..v2026()
        }
        .start()
        .await;
        let error = error_of(session.once("connect", None, None).await);
        assert_eq!(error.code, sdk::ErrorCode(-32021), "{declared:?}");
        assert_eq!(
            error.data.unwrap(),
            json!({"requiredCapabilities": {"elicitation": {"url": {}}}})
        );
        assert!(session.received().is_empty());
        assert_eq!(session.pending(), 0);
    }
}

// ---------------------------------------------------------------------------------------------
// 2025-11-25: the same tool

#[tokio::test]
async fn on_2025_11_25_the_same_tool_waits_for_the_completion() {
    let mut session = v2025().start().await;
    let (text, id) = connect_in_browser(&mut session, Duration::from_millis(200)).await;
    assert_eq!(text, format!("connected {id}"));
    // One request, with its `elicitationId`.
    assert_eq!(session.calls(), 1);
    assert_eq!(
        session.received(),
        vec![(URL.replace("{id}", &id), Some(id.clone()))]
    );
    assert_eq!(session.pending(), 0);
}

#[tokio::test]
async fn on_2025_11_25_an_elicitation_that_expires_while_waiting_is_an_error() {
    let mut session = v2025().start().await;
    let clock = session.clock.clone();
    let mut urls = std::mem::replace(&mut session.browser, mpsc::unbounded_channel().1);
    // The user never finishes; time passes.
    let expire = tokio::spawn(async move {
        urls.recv().await.unwrap();
        clock.advance(TTL + Duration::from_secs(1));
    });
    let text = session.call("connect").await.unwrap();
    expire.await.unwrap();
    assert!(
        text.starts_with("the URL elicitation did not complete"),
        "{text}"
    );
}

#[tokio::test]
async fn on_2025_11_25_a_url_ask_waiting_for_its_completion_ends_with_the_session() {
    let mut session = v2025().start().await;
    // The user consents, and never finishes on the page; the elicitation never expires.
    let mut urls = std::mem::replace(&mut session.browser, mpsc::unbounded_channel().1);
    let peer = session.client.peer().clone();
    let call = tokio::spawn(async move {
        peer.call_tool(sdk::CallToolRequestParams::new("connect"))
            .await
    });
    urls.recv().await.unwrap();
    assert_eq!(session.pending(), 1);
    let tracker = session.server.tracker.clone();
    session.client.cancel().await.unwrap();
    // rmcp closes the session's peer once in-flight handlers had 5 s to finish; the wait
    // looks every second, then discards the elicitation.
    tokio::time::timeout(Duration::from_secs(10), async {
        while !tracker.store().is_empty() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the wait ends with the session, and the elicitation is discarded");
    assert!(call.await.unwrap().is_err(), "the client went away");
}

#[tokio::test]
async fn on_2025_11_25_a_client_without_url_mode_is_never_sent_the_url() {
    let session = Setup {
        declared: Some(ElicitationCapability::form()),
        ..v2025()
    }
    .start()
    .await;
    // The same answer as on 2026-07-28: -32021 naming URL mode.
    let error = error_of(session.call("connect").await);
    assert_eq!(error.code, sdk::ErrorCode(-32021));
    assert_eq!(
        error.data.unwrap(),
        json!({"requiredCapabilities": {"elicitation": {"url": {}}}})
    );
    assert!(session.received().is_empty());
    assert_eq!(session.pending(), 0);
}

// ---------------------------------------------------------------------------------------------
// Sampling and roots on 2025-11-25

#[tokio::test]
async fn on_2025_11_25_sampling_and_roots_need_the_declared_capabilities() {
    let declared = v2025().start().await;
    assert_eq!(declared.call("sample").await.unwrap(), "\"Paris\"");
    assert_eq!(declared.call("roots").await.unwrap(), "file:///work");

    let undeclared = Setup {
        sampling_and_roots: false,
        ..v2025()
    }
    .start()
    .await;
    let text = undeclared.call("sample").await.unwrap();
    assert_eq!(
        text,
        "cannot ask the client: it did not declare the `sampling` capability"
    );
    let text = undeclared.call("roots").await.unwrap();
    assert_eq!(
        text,
        "cannot ask the client: it did not declare the `roots` capability \
         {\"requiredCapabilities\":{\"roots\":{}}}"
    );
    // The error a handler returns with `?` says the same.
    let error = ElicitError::CapabilityNotDeclared {
        capability: "sampling",
    };
    assert_eq!(
        sdk::ErrorData::from(&error).data.unwrap(),
        json!({"requiredCapabilities": {"sampling": {}}})
    );
}

// ---------------------------------------------------------------------------------------------
// Over Redis: two replicas

#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn over_redis_another_replica_completes_and_the_retry_collects_once() {
    let test = "over_redis_another_replica_completes_and_the_retry_collects_once";
    let redis = redis_server::Redis::for_test(test);
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("url-rounds");
    let store = || async {
        RedisStore::connect(&url)
            .await
            .expect("the Redis of REDIS_URL answers")
            .with_prefix(prefix.clone())
    };
    // At most one pending per user: the completion's record must get in all the same.
    let session = Setup {
        max_pending: 1,
        ..v2026()
    }
    .start_with(store().await)
    .await;
    let connect_page = ElicitationTracker::with_store(store().await, UrlPolicy::production());
    let (state, id) = consented(&session).await;
    let again = input_required(session.once("connect", None, Some(&state)).await.unwrap());
    assert!(again.input_requests.is_none());
    // Another user on the connect page: refused, and it stays pending.
    assert!(matches!(
        connect_page.complete(&id, &mallory()).await,
        Err(CompletionError::WrongUser)
    ));
    connect_page.complete(&id, &alice()).await.unwrap();
    let done = session.once("connect", None, Some(&state)).await.unwrap();
    assert_eq!(completed_text(done), format!("connected {id}"));
    let error = error_of(session.once("connect", None, Some(&state)).await);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    // Nothing is left pending for Alice: a new elicitation fits her limit of one.
    input_required(session.once("connect", None, None).await.unwrap());
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Label);
}
