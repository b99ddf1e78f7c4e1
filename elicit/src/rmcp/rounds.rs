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
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rmcp::convert::InvalidResult;
use crate::rmcp::input::form_input_request;
use crate::rmcp::peer::{ElicitError, ElicitPeer, elicit_form_on};
use crate::server::UserId;
use crate::wire::{ElicitMode, ElicitOutcome, ElicitResult, ElicitationCapability};
use crate::{Elicit, HasMessage};

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
/// use elicit::rmcp::RequestStateSeal;
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
    /// The nonces of states already opened, with the time (ms) their token expires; `Some` makes
    /// every state single-use.
    used: Option<Arc<Mutex<HashMap<String, u128>>>>,
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
    /// in this process (clones of the seal share it), until the states expire; replicas behind
    /// a load balancer need sticky routing for this guarantee.
    pub fn single_use(mut self) -> Self {
        self.used = Some(Arc::default());
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

    fn open(&self, sealed: &str, bound_to: &[u8]) -> Result<SealedState, sdk::ErrorData> {
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
        if let Some(used) = &self.used {
            let now = now_ms();
            let mut used = used.lock().unwrap_or_else(PoisonError::into_inner);
            used.retain(|_, expires| *expires > now);
            let expires = now + self.ttl.as_millis();
            if used.insert(state.nonce.clone(), expires).is_some() {
                return Err(refused());
            }
        }
        Ok(state)
    }
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

/// What the sealed `requestState` holds between rounds.
#[derive(Serialize, Deserialize, Debug, Default)]
struct SealedState {
    /// The answers so far, by the index of the ask in the handler's run.
    answers: BTreeMap<u32, Answered>,
    /// What the last round asked for: the form's type, by the index of the ask.
    asked: BTreeMap<u32, String>,
    /// Random, so that single-use can tell states apart.
    nonce: String,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct Answered {
    /// The type of the form answered, to catch a handler that asks in another order on replay.
    form: String,
    /// The client's `ElicitResult`, parsed by the form's derived parser each time it is asked.
    result: ElicitResult,
}

fn input_key(index: u32) -> String {
    format!("elicit-{index}")
}

fn index_of(key: &str) -> Option<u32> {
    key.strip_prefix("elicit-")?.parse().ok()
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
    /// 2026-07-28: answers from the sealed state and the retry, or an input request.
    Rounds {
        client: Option<ElicitationCapability>,
    },
}

struct AskInner {
    flow: Flow,
    run: Mutex<Run>,
}

#[derive(Default)]
struct Run {
    /// The index the next ask gets.
    next: u32,
    answers: BTreeMap<u32, Answered>,
    /// The input requests of this round, by index.
    asking: BTreeMap<u32, (String, sdk::InputRequest)>,
    /// The first mode the client did not declare.
    missing: Option<ElicitMode>,
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
            Flow::Rounds { client } => client.clone(),
        };
        let index = self.take_index();
        match self.answer_or_ask::<T>(index, client.as_ref(), message)? {
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
            Flow::Rounds { client } => client.clone(),
        };
        let (first, second) = (self.take_index(), self.take_index());
        let a =
            self.answer_or_ask::<A>(first, client.as_ref(), <A as HasMessage>::MESSAGE.into())?;
        let b =
            self.answer_or_ask::<B>(second, client.as_ref(), <B as HasMessage>::MESSAGE.into())?;
        match (a, b) {
            (Some(a), Some(b)) => Ok((a?, b?)),
            _ => wait_for_next_round().await,
        }
    }

    fn take_index(&self) -> u32 {
        let mut run = self.lock();
        let index = run.next;
        run.next += 1;
        index
    }

    /// The parsed answer to ask number `index` when it has one; otherwise the ask is queued
    /// for this round's `InputRequiredResult` (or the missing capability noted) and `None`.
    #[allow(clippy::type_complexity)]
    fn answer_or_ask<T: Elicit>(
        &self,
        index: u32,
        client: Option<&ElicitationCapability>,
        message: String,
    ) -> Result<Option<Result<ElicitOutcome<T>, ElicitError>>, ElicitError> {
        let form = std::any::type_name::<T>();
        let mut run = self.lock();
        if let Some(answered) = run.answers.get(&index) {
            if answered.form != form {
                return Err(ElicitError::InvalidResult(InvalidResult::new(format!(
                    "ask {index} was answered for form `{}`, but the handler now asks for `{form}`: \
                     a handler must ask for the same forms in the same order on every round",
                    answered.form
                ))));
            }
            return Ok(Some(
                T::from_result(&answered.result).map_err(ElicitError::InvalidContent),
            ));
        }
        if let Err(e) = ElicitationCapability::require(client, ElicitMode::Form) {
            run.missing.get_or_insert(e.mode);
            return Ok(None);
        }
        let request = form_input_request::<T>(client, message)?;
        run.asking.insert(index, (form.to_owned(), request));
        Ok(None)
    }

    fn waits_for_input(&self) -> bool {
        let run = self.lock();
        !run.asking.is_empty() || run.missing.is_some()
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
/// `InputRequiredResult` holding every form it waits for (under keys `elicit-0`, `elicit-1`,
/// ...) and a sealed `requestState` with the answers so far. The client's retry brings the
/// answers; the handler runs again from the start, the answered asks return at once, and it
/// goes one round further. So the handler must ask for the same forms in the same order on
/// each run (as with any replay), and do its side effects after its last ask.
///
/// A response missing from the retry, or one that is not an elicitation result, gets the
/// form asked again; keys the server did not ask for are ignored. A client that did not
/// declare form mode gets -32021 with `requiredCapabilities`, and no input request.
///
/// ```no_run
/// use elicit::rmcp::{Ask, RequestStateSeal, Rounds};
/// use elicit::{Elicit, ElicitOutcome};
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

/// A run's end: the handler's value, or the next round's input requests.
enum Ran<R> {
    Complete(R),
    InputRequired(sdk::InputRequiredResult),
}

impl Rounds {
    /// Rounds whose state `seal` protects.
    pub fn new(seal: RequestStateSeal) -> Self {
        Rounds { seal }
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
        Ok(match self.run(call, context, user, handler).await? {
            Ran::Complete(result) => result.into(),
            Ran::InputRequired(result) => result.into(),
        })
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
        Ok(match self.run(call, context, user, handler).await? {
            Ran::Complete(result) => result.into(),
            Ran::InputRequired(result) => result.into(),
        })
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
        Ok(match self.run(call, context, user, handler).await? {
            Ran::Complete(result) => result.into(),
            Ran::InputRequired(result) => result.into(),
        })
    }

    async fn run<R, F, Fut>(
        &self,
        call: Call<'_>,
        context: &RequestContext<RoleServer>,
        user: Option<&UserId>,
        handler: F,
    ) -> Result<Ran<R>, sdk::ErrorData>
    where
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
            return handler(ask).await.map(Ran::Complete);
        }
        let bound_to = binding(&call, user);
        let answers = match call.request_state {
            Some(sealed) => {
                let state = self.seal.open(sealed, &bound_to)?;
                answers_after_retry(state, call.input_responses)
            }
            None => BTreeMap::new(),
        };
        let ask = Ask {
            inner: Arc::new(AskInner {
                flow: Flow::Rounds {
                    client: context.client_elicitation(),
                },
                run: Mutex::new(Run {
                    answers,
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
            return result.map(Ran::Complete);
        }
        let run = std::mem::take(&mut *ask.lock());
        if let Some(mode) = run.missing {
            return Err(missing_capability(mode));
        }
        let mut requests = sdk::InputRequests::new();
        let mut asked = BTreeMap::new();
        for (index, (form, request)) in run.asking {
            requests.insert(input_key(index), request);
            asked.insert(index, form);
        }
        let state = SealedState {
            answers: run.answers,
            asked,
            nonce: nonce()?,
        };
        let sealed = self.seal.seal(&state, &bound_to)?;
        Ok(Ran::InputRequired(sdk::InputRequiredResult::new(
            Some(requests),
            Some(sealed),
        )))
    }
}

/// The answers of the earlier rounds, plus those of this retry to what the last round asked.
/// A response that is missing or not an elicitation result is left out, so the form is asked
/// again; keys the last round did not ask for are ignored.
fn answers_after_retry(
    state: SealedState,
    responses: Option<&sdk::InputResponses>,
) -> BTreeMap<u32, Answered> {
    let mut answers = state.answers;
    let responses = responses.into_iter().flatten();
    for (key, response) in responses {
        let Some(index) = index_of(key) else { continue };
        let Some(form) = state.asked.get(&index) else {
            continue;
        };
        if let Ok(result) = ElicitResult::deserialize(response) {
            answers.insert(
                index,
                Answered {
                    form: form.clone(),
                    result,
                },
            );
        }
    }
    answers
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

/// -32021: the request needs `mode` of elicitation, which the client did not declare.
fn missing_capability(mode: ElicitMode) -> sdk::ErrorData {
    let required = match mode {
        ElicitMode::Form => ElicitationCapability::form(),
        ElicitMode::Url => ElicitationCapability::url(),
    };
    let elicitation = serde_json::to_value(&required).unwrap_or_default();
    sdk::ErrorData::new(
        sdk::ErrorCode(MISSING_REQUIRED_CLIENT_CAPABILITY),
        format!(
            "this request needs the client capability `elicitation` with {} mode",
            mode.as_str()
        ),
        Some(serde_json::json!({
            "requiredCapabilities": { "elicitation": elicitation }
        })),
    )
}
