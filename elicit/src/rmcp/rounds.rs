//! One handler for both protocol revisions: [`Rounds`] runs a tool (or prompt, or resource)
//! handler that asks for forms through [`Ask`]. On a 2025-11-25 session each form goes out as
//! `elicitation/create`; on a 2026-07-28 request the handler is replayed, round after round,
//! with the answers so far, and the forms it still waits for go out as an
//! `InputRequiredResult` whose `requestState` is sealed by [`RequestStateSeal`].

use std::collections::{BTreeMap, HashMap};
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::Poll;
use std::time::{Duration, SystemTime};

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rmcp::convert::InvalidResultError;
use crate::rmcp::input::form_input_request;
use crate::rmcp::peer::{ElicitError, ElicitPeer, elicit_form_on};
use crate::server::UserId;
use crate::wire::{ElicitOutcome, ElicitResult, ElicitationCapability};
use crate::{Elicit, HasMessage};

mod replay;
mod url;

pub use replay::ReplayGuard;
use url::UrlFlow;
pub use url::UrlOutcome;

/// The JSON-RPC code of 2026-07-28's `MissingRequiredClientCapabilityError`.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;

/// How long a sealed `requestState` stays valid unless [`RequestStateSeal::ttl`] says otherwise.
pub const DEFAULT_STATE_TTL: Duration = Duration::from_secs(10 * 60);

/// Seals and opens the `requestState` of the input-required flow.
///
/// The client echoes `requestState` back, so the server must treat it as attacker input (the
/// MRTR page of 2026-07-28). The seal is rmcp's [`RequestStateCodec`](sdk::RequestStateCodec)
/// (HMAC-SHA256, key rotation through its keyring, a TTL in the token), and the state is
/// bound, as associated data, to the method, the tool, prompt or resource, its arguments
/// (compared as JSON values, whatever the key order), and the authenticated user when there is
/// one. Forged, tampered, expired, foreign or (with [`single_use`](Self::single_use)) replayed
/// state is refused with -32602, one message for every cause.
///
/// The state carries the user's earlier answers: it is signed, not encrypted, so a form whose
/// answers must stay secret from the client's side should keep them server-side instead.
///
/// ```
/// use elicit_mcp::rmcp::RequestStateSeal;
/// use rmcp::model::RequestStateCodec;
/// use std::time::Duration;
///
/// // Every replica gets the same keys; `new` signs, `old` still opens tokens in flight.
/// let codec = RequestStateCodec::new_with_keyring(
///     "new",
///     [("old", b"an-old-key-of-at-least-32-bytes!!".as_slice()), ("new", b"the-new-key-of-at-least-32-bytes!".as_slice())],
/// )
/// .unwrap();
/// let seal = RequestStateSeal::new(codec).ttl(Duration::from_secs(120)).single_use();
/// # let _ = seal;
/// ```
#[derive(Clone, Debug)]
pub struct RequestStateSeal {
    codec: sdk::RequestStateCodec,
    ttl: Duration,
    /// Where the states already opened are recorded; `Some` makes every state single-use.
    used: Option<replay::Guard>,
}

impl RequestStateSeal {
    /// A seal with `codec`'s keys and the [`DEFAULT_STATE_TTL`].
    pub fn new(codec: sdk::RequestStateCodec) -> Self {
        RequestStateSeal {
            codec,
            ttl: DEFAULT_STATE_TTL,
            used: None,
        }
    }

    /// States expire `ttl` after they are sealed.
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Each state opens once: a replayed retry is refused. The record of used states is kept
    /// in this process (clones of the seal share it), until the states expire. Replicas behind
    /// a load balancer share one record with [`single_use_in`](Self::single_use_in) instead.
    pub fn single_use(mut self) -> Self {
        self.used = Some(replay::Guard(Arc::new(replay::InProcess::default())));
        self
    }

    /// Each state opens once, across every replica whose seal records in `guard`: a retry
    /// replayed to another replica is refused too. `RedisStore` (feature `redis`) is such a
    /// record. If the record cannot be reached, the retry fails with an internal error rather
    /// than open a state that may have been used.
    ///
    /// ```no_run
    /// # #[cfg(feature = "redis")]
    /// # async fn example(codec: rmcp::model::RequestStateCodec) -> Result<(), Box<dyn std::error::Error>> {
    /// use elicit_mcp::rmcp::{RequestStateSeal, Rounds};
    /// use elicit_mcp::server::RedisStore;
    ///
    /// let store = RedisStore::connect("redis://127.0.0.1/").await?;
    /// let rounds = Rounds::new(RequestStateSeal::new(codec).single_use_in(store));
    /// # let _ = rounds;
    /// # Ok(())
    /// # }
    /// ```
    pub fn single_use_in(mut self, guard: impl ReplayGuard) -> Self {
        self.used = Some(replay::Guard(Arc::new(guard)));
        self
    }

    fn seal(&self, state: &SealedState, bound_to: &[u8]) -> Result<String, sdk::ErrorData> {
        let options = sdk::SealOptions::new()
            .associated_data(bound_to)
            .ttl(self.ttl);
        self.codec.seal_json_with(state, &options).map_err(|e| {
            sdk::ErrorData::internal_error(format!("cannot seal requestState: {e}"), None)
        })
    }

    async fn open(&self, sealed: &str, bound_to: &[u8]) -> Result<SealedState, sdk::ErrorData> {
        // One client-facing message whatever failed, as rmcp's codec asks: the detail would
        // tell an attacker which check to work on.
        let refused = || {
            sdk::ErrorData::invalid_params(
                "requestState is invalid, expired, already used, or belongs to another request",
                None,
            )
        };
        let state: SealedState = self
            .codec
            .open_json_with(sealed, bound_to)
            .map_err(|_| refused())?;
        if let Some(replay::Guard(used)) = &self.used {
            // Remembered as long as the token could still open: after that it expires anyway.
            let until = SystemTime::now() + self.ttl;
            let first = used.first_open(&state.nonce, until).await.map_err(|e| {
                sdk::ErrorData::internal_error(
                    format!("cannot check that requestState is used once: {e}"),
                    None,
                )
            })?;
            if !first {
                return Err(refused());
            }
        }
        Ok(state)
    }
}

/// What the sealed `requestState` holds between rounds.
#[derive(Serialize, Deserialize, Debug, Default)]
struct SealedState {
    /// The answers of the earlier rounds, by input key (the client sends only the last
    /// round's).
    answers: BTreeMap<String, Answered>,
    /// Random, so that single-use can tell states apart.
    nonce: String,
    /// The URL-mode elicitations asked ([`Ask::url`]), by input key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    flows: BTreeMap<String, UrlFlow>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct Answered {
    /// What was asked (the form's type, or the method), to catch a handler that asks in
    /// another order on replay.
    form: String,
    /// The client's result (for a form, the `ElicitResult`, parsed by the form's derived
    /// parser each time it is asked).
    result: Value,
}

/// The input key of form `T` when the handler does not name one: the type's name in
/// snake case (`UserName` is asked under `user_name`, `HttpsProxy` and `HTTPSProxy` under
/// `https_proxy`).
fn default_key<T>() -> String {
    let path = std::any::type_name::<T>();
    let name = path.split('<').next().unwrap_or(path);
    snake_case(name.rsplit("::").next().unwrap_or(name))
}

fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut key = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let previous = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            // A word starts after a lowercase letter or digit, or at the last capital of an
            // acronym followed by a lowercase letter (`HTTPSProxy`: `https`, `proxy`).
            if previous.is_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_uppercase() && next_is_lower)
            {
                key.push('_');
            }
        }
        key.extend(c.to_lowercase());
    }
    key
}

/// The handle a handler asks for forms through; see [`Rounds`].
///
/// Cheap to clone; clones ask in the same run.
#[derive(Clone)]
pub struct Ask {
    inner: Arc<AskInner>,
}

enum Flow {
    /// 2025-11-25: `elicitation/create` on the session.
    Requests(Peer<RoleServer>),
    /// 2026-07-28: answers from the sealed state and the retry, or an input request. The
    /// capabilities the client declared in the request's `_meta`.
    Rounds {
        client: Option<sdk::ClientCapabilities>,
        /// How long a retry waits for a URL-mode elicitation to complete.
        url_hold: Duration,
    },
}

struct AskInner {
    flow: Flow,
    run: Mutex<Run>,
}

#[derive(Default)]
struct Run {
    /// How many times each key was asked in this run, so that a form asked twice gets
    /// `key-2` the second time, the same on every replay.
    keys: HashMap<String, u32>,
    /// The answers of the earlier rounds, from the sealed state, and those read from this
    /// request's `inputResponses` so far.
    answers: BTreeMap<String, Answered>,
    /// This request's `inputResponses`, read when the handler asks under their key: a
    /// response the handler never asks for is ignored.
    responses: sdk::InputResponses,
    /// The input requests of this round, by key.
    asking: sdk::InputRequests,
    /// The capabilities asked for that the client did not declare, as `requiredCapabilities`.
    missing: serde_json::Map<String, Value>,
    /// The URL-mode elicitations asked, from the sealed state and as they went on this round.
    flows: BTreeMap<String, UrlFlow>,
    /// A URL-mode elicitation is still waiting for its out-of-band step: the round ends with
    /// the state alone.
    still_waiting: bool,
    /// The request is refused (a URL-mode elicitation in the state is not the user's, expired,
    /// or was already used).
    refused: Option<sdk::ErrorData>,
    /// Calls to the tracker's store in flight: the round does not end in the middle of one,
    /// so that what the store did (an elicitation stored, a completion collected) is in the
    /// state the round seals.
    in_store: usize,
}

impl Ask {
    fn lock(&self) -> MutexGuard<'_, Run> {
        self.inner
            .run
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks for form `T` with the message of its `#[elicit(message = "..")]`: the typed
    /// outcome, or every field error of an invalid answer, on either revision.
    pub async fn form<T>(&self) -> Result<ElicitOutcome<T>, ElicitError>
    where
        T: HasMessage + Send,
    {
        self.form_with::<T>(<T as HasMessage>::MESSAGE).await
    }

    /// Asks for form `T` with `message`.
    pub async fn form_with<T>(
        &self,
        message: impl Into<String>,
    ) -> Result<ElicitOutcome<T>, ElicitError>
    where
        T: Elicit + Send,
    {
        let message = message.into();
        let client = match &self.inner.flow {
            Flow::Requests(peer) => return elicit_form_on::<T, _>(peer, message, None).await,
            Flow::Rounds { client, .. } => elicitation_of(client),
        };
        let key = self.take_key(default_key::<T>());
        match self.answer_or_ask::<T>(&key, client.as_ref(), message)? {
            Some(outcome) => outcome,
            None => wait_for_next_round().await,
        }
    }

    /// Asks for forms `A` and `B` at once: on 2026-07-28 both go out in one round (and come
    /// back on one retry); on 2025-11-25 one after the other.
    pub async fn forms<A, B>(&self) -> Result<(ElicitOutcome<A>, ElicitOutcome<B>), ElicitError>
    where
        A: HasMessage + Send,
        B: HasMessage + Send,
    {
        let client = match &self.inner.flow {
            Flow::Requests(_) => return Ok((self.form::<A>().await?, self.form::<B>().await?)),
            Flow::Rounds { client, .. } => elicitation_of(client),
        };
        let (first, second) = (
            self.take_key(default_key::<A>()),
            self.take_key(default_key::<B>()),
        );
        let a =
            self.answer_or_ask::<A>(&first, client.as_ref(), <A as HasMessage>::MESSAGE.into())?;
        let b =
            self.answer_or_ask::<B>(&second, client.as_ref(), <B as HasMessage>::MESSAGE.into())?;
        match (a, b) {
            (Some(a), Some(b)) => Ok((a?, b?)),
            _ => wait_for_next_round().await,
        }
    }

    /// Asks for form `T` under the input key `key` (on 2026-07-28; on 2025-11-25 there are
    /// no keys), with the message of its `#[elicit(message = "..")]`: for a client or a test
    /// suite that expects a given key. Other asks use the type's name in snake case.
    pub async fn form_as<T>(&self, key: &str) -> Result<ElicitOutcome<T>, ElicitError>
    where
        T: HasMessage + Send,
    {
        let message = <T as HasMessage>::MESSAGE.to_owned();
        let client = match &self.inner.flow {
            Flow::Requests(peer) => return elicit_form_on::<T, _>(peer, message, None).await,
            Flow::Rounds { client, .. } => elicitation_of(client),
        };
        let key = self.take_key(key.to_owned());
        match self.answer_or_ask::<T>(&key, client.as_ref(), message)? {
            Some(outcome) => outcome,
            None => wait_for_next_round().await,
        }
    }

    /// `base`, or `base-N` for its N-th use in this run.
    fn take_key(&self, base: String) -> String {
        let mut run = self.lock();
        let uses = run.keys.entry(base.clone()).or_insert(0);
        *uses += 1;
        match *uses {
            1 => base,
            n => format!("{base}-{n}"),
        }
    }

    /// The parsed answer under `key` when there is one (from an earlier round, or in this
    /// request's `inputResponses`); otherwise the ask is queued for this round's
    /// `InputRequiredResult` (or the missing capability noted) and `None`. A response that is
    /// not an elicitation result counts as none, so the form is asked again.
    #[allow(clippy::type_complexity)]
    fn answer_or_ask<T: Elicit>(
        &self,
        key: &str,
        client: Option<&ElicitationCapability>,
        message: String,
    ) -> Result<Option<Result<ElicitOutcome<T>, ElicitError>>, ElicitError> {
        let form = std::any::type_name::<T>();
        if let Some(result) = self.answered::<ElicitResult>(key, form)? {
            return Ok(Some(
                T::from_result(&result).map_err(ElicitError::InvalidContent),
            ));
        }
        let request = match form_input_request::<T>(client, message) {
            Ok(request) => Ok(request),
            Err(ElicitError::ModeNotSupported(e)) => {
                Err(("elicitation", serde_json::json!({ e.mode.as_str(): {} })))
            }
            Err(other) => return Err(other),
        };
        self.ask_for(key, request);
        Ok(None)
    }

    /// Queues `request` under `key` for this round, or notes the capability it needs.
    fn ask_for(&self, key: &str, request: Result<sdk::InputRequest, (&'static str, Value)>) {
        let mut run = self.lock();
        match request {
            Ok(request) => {
                run.asking.insert(key.to_owned(), request);
            }
            Err((capability, required)) => {
                // Both modes of `elicitation` when a round needs both.
                match (run.missing.get_mut(capability), required) {
                    (Some(Value::Object(known)), Value::Object(more)) => known.extend(more),
                    (_, required) => {
                        run.missing.insert(capability.to_owned(), required);
                    }
                }
            }
        }
    }

    /// The client's result under `key` for a request of `kind` (from an earlier round, or in
    /// this request's `inputResponses` when it reads as `R`); `None` when there is none yet.
    fn answered<R: serde::de::DeserializeOwned>(
        &self,
        key: &str,
        kind: &str,
    ) -> Result<Option<R>, ElicitError> {
        let mut run = self.lock();
        if !run.answers.contains_key(key)
            && let Some(response) = run.responses.get(key)
            && R::deserialize(response).is_ok()
        {
            let answered = Answered {
                form: kind.to_owned(),
                result: response.clone(),
            };
            run.answers.insert(key.to_owned(), answered);
        }
        let Some(answered) = run.answers.get(key) else {
            return Ok(None);
        };
        if answered.form != kind {
            return Err(ElicitError::InvalidResult(InvalidResultError::new(
                format!(
                    "`{key}` was answered for `{}`, but the handler now asks for `{kind}` under it: \
                 a handler must ask for the same things in the same order on every round",
                    answered.form
                ),
            )));
        }
        R::deserialize(&answered.result).map(Some).map_err(|e| {
            ElicitError::InvalidResult(InvalidResultError::new(format!(
                "the answer under `{key}` is not a `{kind}` result: {e}"
            )))
        })
    }

    /// Asks the client's model to sample a message (`sampling/createMessage`), answered under
    /// `key` on 2026-07-28; the client must have declared `sampling` (otherwise -32021 on
    /// 2026-07-28, [`ElicitError::CapabilityNotDeclared`] on 2025-11-25, and nothing is
    /// sent). rmcp marks sampling
    /// deprecated (SEP-2577); the 2026-07-28 suite still asks for it.
    // rmcp deprecates sampling (SEP-2577), but 2026-07-28 still has it as an input request.
    #[allow(deprecated)]
    pub async fn sample(
        &self,
        key: &str,
        params: sdk::CreateMessageRequestParams,
    ) -> Result<sdk::CreateMessageResult, ElicitError> {
        let client = match &self.inner.flow {
            Flow::Requests(peer) => {
                declared(peer, "sampling", |c| c.sampling.is_some())?;
                return Ok(peer.create_message(params).await?);
            }
            Flow::Rounds { client, .. } => client.clone(),
        };
        let key = self.take_key(key.to_owned());
        if let Some(result) = self.answered(&key, "sampling/createMessage")? {
            return Ok(result);
        }
        let request = match client.as_ref().and_then(|c| c.sampling.as_ref()) {
            Some(_) => Ok(sdk::InputRequest::CreateMessage(
                sdk::CreateMessageRequest::new(params),
            )),
            None => Err(("sampling", serde_json::json!({}))),
        };
        self.ask_for(&key, request);
        wait_for_next_round().await
    }

    /// Asks for the client's roots (`roots/list`), answered under `key` on 2026-07-28; the
    /// client must have declared `roots` (otherwise -32021 on 2026-07-28,
    /// [`ElicitError::CapabilityNotDeclared`] on 2025-11-25, and nothing is sent).
    // rmcp deprecates roots (SEP-2577), but 2026-07-28 still has it as an input request.
    #[allow(deprecated)]
    pub async fn roots(&self, key: &str) -> Result<sdk::ListRootsResult, ElicitError> {
        let client = match &self.inner.flow {
            Flow::Requests(peer) => {
                declared(peer, "roots", |c| c.roots.is_some())?;
                return Ok(peer.list_roots().await?);
            }
            Flow::Rounds { client, .. } => client.clone(),
        };
        let key = self.take_key(key.to_owned());
        if let Some(result) = self.answered(&key, "roots/list")? {
            return Ok(result);
        }
        let request = match client.as_ref().and_then(|c| c.roots.as_ref()) {
            Some(_) => Ok(sdk::InputRequest::ListRoots(sdk::ListRootsRequest {
                method: Default::default(),
                extensions: Default::default(),
            })),
            None => Err(("roots", serde_json::json!({}))),
        };
        self.ask_for(&key, request);
        wait_for_next_round().await
    }

    /// The capabilities the client declared: on 2026-07-28 those in this request's `_meta`,
    /// for a tool that adapts what it asks to what the client can answer.
    pub fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        match &self.inner.flow {
            Flow::Requests(peer) => peer.peer_info().map(|info| info.capabilities.clone()),
            Flow::Rounds { client, .. } => client.clone(),
        }
    }

    fn waits_for_input(&self) -> bool {
        let run = self.lock();
        run.in_store == 0
            && (!run.asking.is_empty()
                || !run.missing.is_empty()
                || run.still_waiting
                || run.refused.is_some())
    }
}

/// Never resolves: the run is dropped once the handler cannot go further this round.
async fn wait_for_next_round<T>() -> T {
    std::future::pending().await
}

/// Runs a handler written once for both protocol revisions.
///
/// The handler gets an [`Ask`] and asks for forms as if each came back at once. On a
/// 2025-11-25 session it is what happens: each form is an `elicitation/create` request. On a
/// 2026-07-28 request the server may not send requests, so the handler runs until it waits
/// for a form it has no answer for; that run is dropped, and the request is answered with an
/// `InputRequiredResult` holding every form it waits for (under the form type's name in snake
/// case, or the key given to [`Ask::form_as`]) and a sealed `requestState` with the answers of
/// the earlier rounds. The client's retry brings the
/// answers; the handler runs again from the start, the answered asks return at once, and it
/// goes one round further. So the handler must ask for the same forms in the same order on
/// each run (as with any replay), and do its side effects after its last ask. Asks awaited
/// together (`tokio::join!`, or [`Ask::forms`]) go out in the same round. A run is dropped as
/// soon as it waits for an answer it does not have, with whatever else it was awaiting.
///
/// A response missing from the retry, or one that is not an elicitation result, gets the
/// form asked again; keys the server does not ask for are ignored. A response is read when
/// the handler asks under its key, so a first request that already carries the answers (the
/// ephemeral flow, no `requestState`) completes at once. A client that did not
/// declare form mode gets -32021 with `requiredCapabilities`, and no input request.
///
/// ```no_run
/// use elicit_mcp::rmcp::{Ask, RequestStateSeal, Rounds};
/// use elicit_mcp::{Elicit, ElicitOutcome};
/// use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
///     ErrorData, RequestStateCodec};
/// use rmcp::service::{RequestContext, RoleServer};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(message = "Who is the booking for?")]
/// struct Booking {
///     name: String,
/// }
///
/// // The tool, written once.
/// async fn book(ask: Ask) -> Result<CallToolResult, ErrorData> {
///     let reply = match ask.form::<Booking>().await {
///         Ok(ElicitOutcome::Accepted(booking)) => format!("booked for {}", booking.name),
///         Ok(ElicitOutcome::Declined | ElicitOutcome::Cancelled) => "no booking".to_owned(),
///         Err(error) => return Ok(error.to_tool_result()),
///     };
///     Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
/// }
///
/// // In `ServerHandler::call_tool`:
/// async fn call_tool(
///     rounds: &Rounds,
///     request: CallToolRequestParams,
///     context: RequestContext<RoleServer>,
/// ) -> Result<CallToolResponse, ErrorData> {
///     rounds.call_tool(&request, &context, None, book).await
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Rounds {
    seal: RequestStateSeal,
    url_hold: Duration,
}

/// What a request is, for binding its state: the method, the tool, prompt or resource, and
/// its arguments.
struct Call<'a> {
    method: &'static str,
    name: &'a str,
    arguments: Option<&'a sdk::JsonObject>,
    input_responses: Option<&'a sdk::InputResponses>,
    request_state: Option<&'a str>,
}

impl Rounds {
    /// How long a retry waits, by default, for a URL-mode elicitation's out-of-band step
    /// before it answers "still waiting" ([`url_hold`](Self::url_hold)).
    pub const DEFAULT_URL_HOLD: Duration = Duration::from_secs(5);

    /// Rounds whose state `seal` protects.
    pub fn new(seal: RequestStateSeal) -> Self {
        Rounds {
            seal,
            url_hold: Self::DEFAULT_URL_HOLD,
        }
    }

    /// On 2026-07-28, how long a retry waits for the out-of-band step of a URL-mode
    /// elicitation ([`Ask::url`]) to complete before it answers with a state-only
    /// `InputRequiredResult` ("still waiting", and the client retries again). The spec lets
    /// the server block; holding the retry a while spares round trips, and makes a client's
    /// limit on rounds (rmcp's is 10 by default, with a back-off of at most 250 ms) last
    /// that many holds rather than a couple of seconds. Zero answers at once.
    pub fn url_hold(mut self, hold: Duration) -> Self {
        self.url_hold = hold;
        self
    }

    /// Answers `tools/call` with `handler`, on either revision. `user` is the authenticated
    /// user, when the server has one: a state opens only for the user it was sealed for.
    pub async fn call_tool<F, Fut>(
        &self,
        request: &sdk::CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        user: Option<&UserId>,
        handler: F,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData>
    where
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<sdk::CallToolResult, sdk::ErrorData>>,
    {
        let call = Call {
            method: "tools/call",
            name: &request.name,
            arguments: request.arguments.as_ref(),
            input_responses: request.input_responses.as_ref(),
            request_state: request.request_state.as_deref(),
        };
        self.run(call, context, user, handler).await
    }

    /// Answers `prompts/get` with `handler`, on either revision.
    pub async fn get_prompt<F, Fut>(
        &self,
        request: &sdk::GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
        user: Option<&UserId>,
        handler: F,
    ) -> Result<sdk::GetPromptResponse, sdk::ErrorData>
    where
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<sdk::GetPromptResult, sdk::ErrorData>>,
    {
        let call = Call {
            method: "prompts/get",
            name: &request.name,
            arguments: request.arguments.as_ref(),
            input_responses: request.input_responses.as_ref(),
            request_state: request.request_state.as_deref(),
        };
        self.run(call, context, user, handler).await
    }

    /// Answers `resources/read` with `handler`, on either revision.
    pub async fn read_resource<F, Fut>(
        &self,
        request: &sdk::ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
        user: Option<&UserId>,
        handler: F,
    ) -> Result<sdk::ReadResourceResponse, sdk::ErrorData>
    where
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<sdk::ReadResourceResult, sdk::ErrorData>>,
    {
        let call = Call {
            method: "resources/read",
            name: &request.uri,
            arguments: None,
            input_responses: request.input_responses.as_ref(),
            request_state: request.request_state.as_deref(),
        };
        self.run(call, context, user, handler).await
    }

    /// Runs `handler` for `call`: its result when it ends, or the next round's input requests
    /// (`Response` is the method's response, which is either).
    async fn run<R, Response, F, Fut>(
        &self,
        call: Call<'_>,
        context: &RequestContext<RoleServer>,
        user: Option<&UserId>,
        handler: F,
    ) -> Result<Response, sdk::ErrorData>
    where
        Response: From<R> + From<sdk::InputRequiredResult>,
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<R, sdk::ErrorData>>,
    {
        if context.server_requests_allowed() {
            let ask = Ask {
                inner: Arc::new(AskInner {
                    flow: Flow::Requests(context.peer.clone()),
                    run: Mutex::default(),
                }),
            };
            return handler(ask).await.map(Response::from);
        }
        let bound_to = binding(&call, user);
        let SealedState { answers, flows, .. } = match call.request_state {
            Some(sealed) => self.seal.open(sealed, &bound_to).await?,
            None => SealedState::default(),
        };
        let ask = Ask {
            inner: Arc::new(AskInner {
                flow: Flow::Rounds {
                    client: context.client_capabilities(),
                    url_hold: self.url_hold,
                },
                run: Mutex::new(Run {
                    answers,
                    flows,
                    responses: call.input_responses.cloned().unwrap_or_default(),
                    ..Run::default()
                }),
            }),
        };
        let mut running = pin!(handler(ask.clone()));
        let finished = poll_fn(|cx| match running.as_mut().poll(cx) {
            Poll::Ready(result) => Poll::Ready(Some(result)),
            Poll::Pending if ask.waits_for_input() => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        })
        .await;
        if let Some(result) = finished {
            return result.map(Response::from);
        }
        let run = std::mem::take(&mut *ask.lock());
        if let Some(refused) = run.refused {
            return Err(refused);
        }
        if !run.missing.is_empty() {
            return Err(missing_capabilities(run.missing));
        }
        let state = SealedState {
            answers: run.answers,
            nonce: nonce()?,
            flows: run.flows,
        };
        let sealed = self.seal.seal(&state, &bound_to)?;
        // No input requests: a URL-mode elicitation is still waiting, and the state alone
        // says so (the client retries with it).
        let asking = (!run.asking.is_empty()).then_some(run.asking);
        Ok(sdk::InputRequiredResult::new(asking, Some(sealed)).into())
    }
}

/// The associated data a state is sealed with: the request it belongs to and its user.
/// Arguments are compared as values, so a client that reorders an object's keys on retry is
/// still the same request.
fn binding(call: &Call<'_>, user: Option<&UserId>) -> Vec<u8> {
    let arguments = call
        .arguments
        .map(|a| canonical(&Value::Object(a.clone())))
        .unwrap_or(Value::Null);
    let user = user.map(UserId::as_str);
    serde_json::to_vec(&serde_json::json!([
        call.method,
        call.name,
        arguments,
        user
    ]))
    .unwrap_or_default()
}

/// `value` with every object's keys in sorted order (`preserve_order` keeps insertion order).
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<_> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), canonical(&map[key])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

fn nonce() -> Result<String, sdk::ErrorData> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        sdk::ErrorData::internal_error(format!("no randomness for requestState: {e}"), None)
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// -32021: the request needs client capabilities the client did not declare.
fn missing_capabilities(required: serde_json::Map<String, Value>) -> sdk::ErrorData {
    let names: Vec<&str> = required.keys().map(String::as_str).collect();
    sdk::ErrorData::new(
        sdk::ErrorCode(MISSING_REQUIRED_CLIENT_CAPABILITY),
        format!(
            "this request needs the client capabilities it did not declare: {}",
            names.join(", ")
        ),
        Some(serde_json::json!({ "requiredCapabilities": required })),
    )
}

/// On 2025-11-25, refuses before sending when the client did not declare `capability` at
/// initialize, as a form in a mode it did not declare is refused.
fn declared(
    peer: &Peer<RoleServer>,
    capability: &'static str,
    has: impl FnOnce(&sdk::ClientCapabilities) -> bool,
) -> Result<(), ElicitError> {
    match peer.peer_info() {
        Some(info) if has(&info.capabilities) => Ok(()),
        _ => Err(ElicitError::CapabilityNotDeclared { capability }),
    }
}

fn elicitation_of(client: &Option<sdk::ClientCapabilities>) -> Option<ElicitationCapability> {
    client
        .as_ref()
        .and_then(ElicitationCapability::of_rmcp_client)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct UserName;
    struct Wrapper<T>(T);

    #[test]
    fn default_keys_are_the_type_names_in_snake_case() {
        assert_eq!(default_key::<UserName>(), "user_name");
        assert_eq!(default_key::<Wrapper<UserName>>(), "wrapper");
        assert_eq!(snake_case("HTTPSProxy"), "https_proxy");
        assert_eq!(snake_case("HttpsProxy"), "https_proxy");
        assert_eq!(snake_case("Step2Color"), "step2_color");
        assert_eq!(snake_case("A"), "a");
    }

    #[test]
    fn arguments_bind_as_values_whatever_their_key_order() {
        let call = |arguments: &sdk::JsonObject| {
            binding(
                &Call {
                    method: "tools/call",
                    name: "book",
                    arguments: Some(arguments),
                    input_responses: None,
                    request_state: None,
                },
                None,
            )
        };
        let one = serde_json::json!({"a": 1, "b": {"c": 2, "d": [{"e": 3, "f": 4}]}});
        let other = serde_json::json!({"b": {"d": [{"f": 4, "e": 3}], "c": 2}, "a": 1});
        let changed = serde_json::json!({"b": {"d": [{"f": 4, "e": 5}], "c": 2}, "a": 1});
        let one = call(one.as_object().unwrap());
        assert_eq!(one, call(other.as_object().unwrap()));
        assert_ne!(one, call(changed.as_object().unwrap()));
    }
}
