//! [`Ask`]: the one way a handler asks the user, the same on both revisions, and
//! [`FormAsk`], a form's ask with its options.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer};
use serde_json::{Map, Value};

use super::seal::{Answered, UrlFlows};
use crate::rmcp::AskableForm;
use crate::rmcp::convert::InvalidResultError;
use crate::rmcp::error::ElicitError;
use crate::rmcp::input::form_input_request;
use crate::rmcp::session::elicit_schema_on;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitOutcome, ElicitResult, ElicitationCapability};
use crate::{Elicit, HasMessage};

/// The kind an answer is recorded under, for a form.
const FORM: &str = "elicitation/create";

/// The handle a handler asks the user through, on either protocol revision.
///
/// A `#[tool]` (or `#[prompt]`) method takes it as a parameter next to its `Parameters<T>`,
/// once the server's router is wrapped by [`Rounds::tools`](super::Rounds::tools) (see
/// [`Rounds`](super::Rounds)). It asks as if each answer came back at once:
/// - [`form::<T>()`](Ask::form) and [`form_with_message::<T>(message)`](Ask::form_with_message) give a
///   [`FormAsk`] to await, after setting its key, runtime defaults, a re-ask or a timeout;
/// - [`forms::<A, B>()`](Ask::forms) asks for two forms in the same round;
/// - [`url`](Ask::url) sends the user to a URL (URL mode) and goes on once the out-of-band
///   step is done;
/// - [`sample`](Ask::sample) and [`roots`](Ask::roots) ask the client's model or roots.
///
/// On 2025-11-25 each ask is a request to the client (`elicitation/create`); on 2026-07-28 it
/// is an input request of the call's `InputRequiredResult`. The outcomes and the errors are
/// the same on both.
///
/// Cheap to clone; clones ask in the same call.
#[derive(Clone)]
pub struct Ask {
    pub(super) inner: Arc<AskInner>,
}

impl std::fmt::Debug for Ask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let flow = match &self.inner.flow {
            Flow::Requests { .. } => "requests (2025-11-25)",
            Flow::Rounds { .. } => "rounds (2026-07-28)",
        };
        f.debug_struct("Ask").field("flow", &flow).finish()
    }
}

pub(super) enum Flow {
    /// 2025-11-25: `elicitation/create` on the session, each ask waiting at most `timeout`
    /// unless it says otherwise.
    Requests {
        peer: Peer<RoleServer>,
        timeout: Option<Duration>,
    },
    /// 2026-07-28: answers from the sealed state and the retry, or an input request. The
    /// capabilities the client declared in the request's `_meta`.
    Rounds {
        client: Option<sdk::ClientCapabilities>,
        /// How long a retry waits for a URL-mode elicitation to complete.
        #[cfg_attr(not(feature = "url-mode"), allow(dead_code))]
        url_hold: Duration,
    },
}

pub(super) struct AskInner {
    pub flow: Flow,
    /// Whether a method took this ask as its parameter.
    pub taken: AtomicBool,
    /// How many times one form may be asked in one call.
    pub most_asks: u32,
    pub run: Mutex<Run>,
}

#[derive(Default)]
pub(super) struct Run {
    /// Each base key asked in this run: who owns it, and how many times it was asked, so
    /// that a form asked twice gets `key-2` the second time, the same on every replay.
    pub keys: HashMap<String, KeyUse>,
    /// The answers of the earlier rounds, from the sealed state, and those read from this
    /// request's `inputResponses` so far.
    pub answers: BTreeMap<String, Answered>,
    /// This request's `inputResponses`, read when the handler asks under their key: a
    /// response the handler never asks for is ignored.
    pub responses: sdk::InputResponses,
    /// The input requests of this round, by key.
    pub asking: sdk::InputRequests,
    /// The URL-mode elicitations asked, from the sealed state and as they went on this round.
    pub flows: UrlFlows,
    /// A URL-mode elicitation is still waiting for its out-of-band step: the round ends with
    /// the state alone.
    pub still_waiting: bool,
    /// The request is refused (a URL-mode elicitation in the state is not the user's, expired,
    /// or was already used).
    pub refused: Option<sdk::ErrorData>,
    /// Calls to the tracker's store in flight: the round does not end in the middle of one,
    /// so that what the store did (an elicitation stored, a completion collected) is in the
    /// state the round seals.
    pub in_store: usize,
    /// The content of each form's last answer that did not validate, by base key: what a
    /// re-ask ([`FormAsk::again`]) fills in.
    pub rejected: HashMap<String, Map<String, Value>>,
}

pub(super) struct KeyUse {
    /// What asks under the key: a form's type, or the kind of request.
    owner: &'static str,
    uses: u32,
}

impl Ask {
    /// An ask on a 2025-11-25 session, outside [`Rounds`](super::Rounds).
    pub(crate) fn on_session(peer: Peer<RoleServer>) -> Self {
        let flow = Flow::Requests {
            peer,
            timeout: None,
        };
        Self::new(flow, super::Rounds::DEFAULT_MOST_ASKS, Run::default())
    }

    pub(super) fn new(flow: Flow, most_asks: u32, run: Run) -> Self {
        Ask {
            inner: Arc::new(AskInner {
                flow,
                taken: AtomicBool::new(false),
                most_asks,
                run: Mutex::new(run),
            }),
        }
    }

    /// This ask, given to a method as its parameter.
    pub(super) fn taken(&self) -> Ask {
        self.inner.taken.store(true, Ordering::Relaxed);
        self.clone()
    }

    pub(super) fn was_taken(&self) -> bool {
        self.inner.taken.load(Ordering::Relaxed)
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Run> {
        self.inner
            .run
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks for form `T` with the message of its `#[elicit(message = "..")]`; await it, or
    /// set options on it first.
    ///
    /// Gives the typed outcome, or every field error of an answer that does not match the
    /// form ([`ElicitError::InvalidContent`]), on either revision.
    pub fn form<T>(&self) -> FormAsk<'_, T>
    where
        T: AskableForm + Send,
    {
        self.form_with_message::<T>(<T as HasMessage>::MESSAGE)
    }

    /// Asks for form `T` with `message`, for a message known only at run time.
    pub fn form_with_message<T>(&self, message: impl Into<String>) -> FormAsk<'_, T>
    where
        T: Elicit + Send,
    {
        FormAsk {
            ask: self,
            message: message.into(),
            key: None,
            defaults: Map::new(),
            again: None,
            timeout: None,
            schema: None,
            form: PhantomData,
        }
    }

    /// Asks for forms `A` and `B` at once: on 2026-07-28 both go out in one round (and come
    /// back on one retry); on 2025-11-25 one after the other. Their keys must differ.
    pub async fn forms<A, B>(&self) -> Result<(ElicitOutcome<A>, ElicitOutcome<B>), ElicitError>
    where
        A: AskableForm + Send,
        B: AskableForm + Send,
    {
        if let Flow::Requests { .. } = &self.inner.flow {
            return Ok((self.form::<A>().await?, self.form::<B>().await?));
        }
        let a = self.form::<A>().answer_or_ask()?;
        let b = self.form::<B>().answer_or_ask()?;
        match (a, b) {
            (Some(a), Some(b)) => Ok((a?, b?)),
            _ => wait_for_next_round().await,
        }
    }

    /// `base` for its first use in this call, `base-N` for its N-th; an error when another
    /// form (or kind of request) already asks under `base`, or `base` was asked too often.
    pub(super) fn take_key(&self, base: &str, owner: &'static str) -> Result<String, ElicitError> {
        let mut run = self.lock();
        let used = run
            .keys
            .entry(base.to_owned())
            .or_insert(KeyUse { owner, uses: 0 });
        if used.owner != owner {
            return Err(ElicitError::DuplicateKey {
                key: base.to_owned(),
                first: used.owner,
                second: owner,
            });
        }
        if used.uses >= self.inner.most_asks {
            return Err(ElicitError::TooManyAsks {
                key: base.to_owned(),
                limit: self.inner.most_asks,
            });
        }
        used.uses += 1;
        Ok(match used.uses {
            1 => base.to_owned(),
            n => format!("{base}-{n}"),
        })
    }

    /// Queues `request` under `key` for this round.
    pub(super) fn ask_for(&self, key: &str, request: sdk::InputRequest) {
        self.lock().asking.insert(key.to_owned(), request);
    }

    /// The client's result under `key` for a request of `kind` (from an earlier round, or in
    /// this request's `inputResponses` when it reads as `R`); `None` when there is none yet.
    /// `keep` trims what is recorded of a new answer to what the asker reads.
    pub(super) fn answered<R: serde::de::DeserializeOwned>(
        &self,
        key: &str,
        kind: &str,
        keep: impl FnOnce(Value) -> Value,
    ) -> Result<Option<R>, ElicitError> {
        let mut run = self.lock();
        if !run.answers.contains_key(key)
            && let Some(response) = run.responses.get(key)
            && R::deserialize(response).is_ok()
        {
            let answered = Answered {
                kind: kind.to_owned(),
                result: keep(response.clone()),
            };
            run.answers.insert(key.to_owned(), answered);
        }
        let Some(answered) = run.answers.get(key) else {
            return Ok(None);
        };
        if answered.kind != kind {
            return Err(ElicitError::InvalidResult(InvalidResultError::new(
                format!(
                    "`{key}` was answered for a `{}` request, but the handler now asks for `{kind}` \
                 under it: a handler must ask for the same things in the same order on every \
                 round",
                    answered.kind
                ),
            )));
        }
        R::deserialize(&answered.result).map(Some).map_err(|e| {
            ElicitError::InvalidResult(InvalidResultError::new(format!(
                "the answer under `{key}` is not a `{kind}` result: {e}"
            )))
        })
    }

    /// The capabilities the client declared (at `initialize` on 2025-11-25, in this
    /// request's `_meta` on 2026-07-28), for a tool that adapts what it asks to what the
    /// client can answer.
    pub fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        match &self.inner.flow {
            Flow::Requests { peer, .. } => peer.peer_info().map(|info| info.capabilities.clone()),
            Flow::Rounds { client, .. } => client.clone(),
        }
    }

    /// The `elicitation` capability the client declared, `None` if it declared none.
    pub(super) fn client_elicitation(&self) -> Option<ElicitationCapability> {
        self.client_capabilities()
            .as_ref()
            .and_then(ElicitationCapability::of_rmcp_client)
    }

    pub(super) fn waits_for_input(&self) -> bool {
        let run = self.lock();
        run.in_store == 0 && (!run.asking.is_empty() || run.still_waiting || run.refused.is_some())
    }
}

/// Never resolves: the run is dropped once the handler cannot go further this round.
pub(super) async fn wait_for_next_round<T>() -> T {
    std::future::pending().await
}

/// One form's ask, from [`Ask::form`] or [`Ask::form_with_message`]: await it as it is, or set its
/// options first.
///
/// ```no_run
/// use elicit_mcp::rmcp::{Ask, ElicitError};
/// use elicit_mcp::{Elicit, ElicitOutcome};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(message = "When do you arrive?")]
/// struct Arrival {
///     #[elicit(format = "date")]
///     date: String,
///     #[elicit(minimum = 1, maximum = 30)]
///     nights: u8,
/// }
///
/// async fn arrival(ask: &Ask, today: &str) -> Result<ElicitOutcome<Arrival>, ElicitError> {
///     // A default known only at run time, checked against the form before it is sent.
///     let mut asking = ask.form::<Arrival>().default("date", today);
///     loop {
///         match asking.await {
///             // Field errors: ask again, the errors in the message and the user's valid
///             // answers filled in. A form is asked at most `Rounds::most_asks` times.
///             Err(error @ ElicitError::InvalidContent(_)) => {
///                 asking = ask.form::<Arrival>().again(&error);
///             }
///             done => return done,
///         }
///     }
/// }
/// ```
#[must_use = "an ask does nothing until it is awaited"]
pub struct FormAsk<'a, T> {
    ask: &'a Ask,
    message: String,
    key: Option<String>,
    defaults: Map<String, Value>,
    /// The field errors of the answer that this ask follows.
    again: Option<String>,
    timeout: Option<Duration>,
    /// What to send instead of `T`'s own schema.
    schema: Option<RequestedSchema>,
    form: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for FormAsk<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FormAsk")
            .field("form", &std::any::type_name::<T>())
            .field("message", &self.message)
            .field("key", &self.key)
            .field("defaults", &self.defaults)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl<'a, T: Elicit + Send> FormAsk<'a, T> {
    /// Asks under `key` on 2026-07-28 rather than the form's
    /// [`INPUT_KEY`](Elicit::INPUT_KEY) (on 2025-11-25 there are no keys): for a client or
    /// a test suite that expects a given key.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Fills in field `field` (its name on the wire) with `value` when the form is shown,
    /// for a default known only at run time (today's date, a setting's current value). The
    /// value is checked against the field's schema before anything is sent: a field the form
    /// does not have, or a value it would refuse, is [`ElicitError::InvalidDefault`].
    pub fn default(mut self, field: &str, value: impl Into<Value>) -> Self {
        self.defaults.insert(field.to_owned(), value.into());
        self
    }

    /// Asks again after `error`, the field errors of the previous answer to this form: the
    /// errors go in the message, and the fields the user got right are filled in.
    pub fn again(mut self, error: &ElicitError) -> Self {
        if let Some(content) = error.content_error() {
            self.again = Some(content.to_string());
        }
        self
    }

    /// Sends `schema` rather than `T`'s own: for a schema that admits the same answers in
    /// another shape (the deprecated `enum` + `enumNames` single-select, say). The answer is
    /// still read by `T`'s parser, and defaults are set on `schema`.
    pub fn schema(mut self, schema: RequestedSchema) -> Self {
        self.schema = Some(schema);
        self
    }

    /// On 2025-11-25, gives up after `timeout` ([`ElicitError::TimedOut`], and the request is
    /// cancelled) instead of the server's [`Rounds::timeout`](super::Rounds::timeout). On
    /// 2026-07-28 the client holds the form, and the state's TTL bounds the wait.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    async fn run(self) -> Result<ElicitOutcome<T>, ElicitError> {
        if let Flow::Requests { peer, timeout } = &self.ask.inner.flow {
            let key = self.take_key()?;
            let (schema, message) = self.schema_and_message(&key)?;
            let timeout = self.timeout.or(*timeout);
            let result = elicit_schema_on(peer, schema, message, timeout).await?;
            return self.parsed(&result);
        }
        match self.answer_or_ask()? {
            Some(outcome) => outcome,
            None => wait_for_next_round().await,
        }
    }

    fn take_key(&self) -> Result<String, ElicitError> {
        let base = self.key.as_deref().unwrap_or(T::INPUT_KEY);
        self.ask.take_key(base, std::any::type_name::<T>())
    }

    /// The key this form's asks share (`booking` for `booking-2`), under which its rejected
    /// answers are kept.
    fn base(&self) -> &str {
        self.key.as_deref().unwrap_or(T::INPUT_KEY)
    }

    /// The parsed answer (from an earlier round, or in this request's `inputResponses`), or
    /// `None` once the form is queued for this round's `InputRequiredResult`.
    #[allow(clippy::type_complexity)]
    pub(super) fn answer_or_ask(
        self,
    ) -> Result<Option<Result<ElicitOutcome<T>, ElicitError>>, ElicitError> {
        let key = self.take_key()?;
        let schema = T::requested_schema();
        let keep = |result| only_what_the_form_reads(result, schema);
        if let Some(result) = self.ask.answered::<ElicitResult>(&key, FORM, keep)? {
            return Ok(Some(self.parsed(&result)));
        }
        let (schema, message) = self.schema_and_message(&key)?;
        let client = self.ask.client_elicitation();
        let request = form_input_request(schema, client.as_ref(), message)?;
        self.ask.ask_for(&key, request);
        Ok(None)
    }

    /// The form as it is sent: its schema with the defaults filled in, and the message.
    fn schema_and_message(
        &self,
        key: &str,
    ) -> Result<(Cow<'static, RequestedSchema>, String), ElicitError> {
        let mut defaults = Map::new();
        if self.again.is_some()
            && let Some(previous) = self.ask.lock().rejected.get(self.base())
        {
            defaults.extend(previous.clone());
        }
        defaults.extend(self.defaults.clone());
        let message = match &self.again {
            Some(errors) => format!("{}\n\nPlease correct:\n{errors}", self.message),
            None => self.message.clone(),
        };
        let schema = match &self.schema {
            Some(schema) if defaults.is_empty() => {
                return Ok((Cow::Owned(schema.clone()), message));
            }
            Some(schema) => schema,
            None if defaults.is_empty() => {
                return Ok((Cow::Borrowed(T::requested_schema()), message));
            }
            None => T::requested_schema(),
        };
        let schema =
            schema
                .with_defaults(&defaults)
                .map_err(|errors| ElicitError::InvalidDefault {
                    key: key.to_owned(),
                    errors,
                })?;
        Ok((Cow::Owned(schema), message))
    }

    /// The typed outcome of `result`; an answer that does not validate is kept, less its
    /// fields at fault, for a re-ask to fill in.
    fn parsed(&self, result: &ElicitResult) -> Result<ElicitOutcome<T>, ElicitError> {
        T::from_result(result).map_err(|errors| {
            let mut valid = result.content.clone().unwrap_or_default();
            valid.retain(|name, _| {
                errors.field(name).is_none() && T::requested_schema().property(name).is_some()
            });
            self.ask
                .lock()
                .rejected
                .insert(self.base().to_owned(), valid);
            ElicitError::InvalidContent(errors)
        })
    }
}

impl<'a, T: Elicit + Send + 'a> IntoFuture for FormAsk<'a, T> {
    type Output = Result<ElicitOutcome<T>, ElicitError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}

/// An accepted answer keeps only the fields the form has: what the client sent beyond them
/// is never read, so it is not carried (nor sealed) from round to round.
fn only_what_the_form_reads(mut result: Value, schema: &RequestedSchema) -> Value {
    if let Some(Value::Object(content)) = result.get_mut("content") {
        content.retain(|name, _| schema.property(name).is_some());
    }
    result
}
