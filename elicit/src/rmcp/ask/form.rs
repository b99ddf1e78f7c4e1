//! [`FormAsk`]: one form's ask with its options, asked again until the answer is right.

use std::borrow::Cow;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::Ask;
use super::keys::Asker;
use crate::ElicitOutcome;
use crate::form::error::{ContentError, Problem};
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::Answer;
use crate::rmcp::kind::form::Form;
use crate::schema::{PrimitiveSchema, RequestedSchema};
use crate::wire::ElicitResult;
use crate::{ClientForm, Elicit};

/// One form's ask, from [`Ask::form`] or [`Ask::form_with_message`]: await it as it is, or set
/// its options first.
///
/// # Defaults, one rule
///
/// A field the form shows with a default may be left out of the answer, and then takes the
/// value shown: whether the default comes from `#[elicit(default = ..)]`, from
/// [`with_defaults`](Self::with_defaults) at run time, or from the user's own earlier answer that
/// a re-ask keeps. The same on both revisions,
/// whenever the answer comes back.
///
/// # Booleans a host leaves out
///
/// Hosts draw a boolean as a box, and not all of them send a box left unticked: some send
/// `false`, some leave the field out, as an HTML form does. So a boolean left out of an
/// answer is read by one rule, on both revisions and inside tasks:
///
/// 1. the form showed it with a default: the default (the rule above);
/// 2. it is optional (`Option<bool>`): `None`;
/// 3. otherwise the form is asked again, naming it in words ("Newsletter was left out: tick it
///    for yes, or leave it unticked for no") and showing it with a default of `false`, so that
///    a host that leaves an unticked box out answers `false` by leaving it out again.
///
/// A host that leaves out a box the person unticked from a default of `true` cannot be told
/// from one that sent nothing: give a boolean whose answer matters no default, or `false`.
///
/// # Re-asks
///
/// An answer with field errors is asked again by itself: the errors go in the message, and the
/// fields the user got right are shown as defaults, so they are kept even if the client sends back
/// only the fields it corrected. A form is asked at most
/// [`Elicitation::with_max_asks`](crate::rmcp::Elicitation::with_max_asks) times in a call
/// ([`ElicitError::TooManyAsks`], with the last answer's errors, after that). A handler that wants
/// the field errors instead says so with [`with_reask(false)`](Self::with_reask), or for every ask
/// with [`Elicitation::with_reask`](crate::rmcp::Elicitation::with_reask).
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
///     // A default known only at run time, by field and type: a misspelt field or a value of
///     // another type does not compile. A wrong answer is asked again with its errors, the
///     // right fields kept.
///     ask.form::<Arrival>().with_defaults(|d| d.date.set(today)).await
/// }
/// ```
#[must_use = "an ask does nothing until it is awaited"]
pub struct FormAsk<'a, T> {
    ask: &'a Ask,
    message: String,
    key: Option<String>,
    defaults: Map<String, Value>,
    timeout: Option<Duration>,
    /// What to send instead of `T`'s own schema.
    schema: Option<RequestedSchema>,
    /// Whether an answer with field errors is asked again; `None`: as the `Elicitation` says.
    reask: Option<bool>,
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
            .field("reask", &self.reask)
            .finish()
    }
}

/// What an earlier answer to the form leaves for the next ask.
struct Rejected {
    /// Its field errors, for the message.
    errors: ContentError,
    /// The fields it got right, shown as defaults.
    right: Map<String, Value>,
}

impl<'a, T: ClientForm + Send> FormAsk<'a, T> {
    /// `ClientForm`, not only `Elicit`: a `FormAsk` sends `T`'s form to the client, which a
    /// form with a secret field must never be. Its only way in, so the other methods (and the
    /// awaiting) ask no more of `T` than `Elicit`, and a form with a secret field is refused
    /// once, at the ask.
    pub(crate) fn new(ask: &'a Ask, message: String) -> Self {
        FormAsk {
            ask,
            message,
            key: None,
            defaults: Map::new(),
            timeout: None,
            schema: None,
            reask: None,
            form: PhantomData,
        }
    }
}

impl<'a, T: Elicit + Send> FormAsk<'a, T> {
    /// Asks under `key` on 2026-07-28 rather than the form's
    /// [`INPUT_KEY`](Elicit::INPUT_KEY) (on 2025-11-25 there are no keys): for a client or
    /// a test suite that expects a given key. A re-ask goes under `key-2`, `key-3`, ….
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Shows fields with defaults known only at run time (today's date, a setting's current
    /// value), set by field on the form's defaults type ([`Elicit::Defaults`]): `|d|
    /// d.check_in.set(today)`. A field the form does not have, or a value of another type, is a
    /// compile error; an answer that leaves a field out takes the value shown. The values are
    /// checked against the form's rules (a range, a pattern) before anything is sent: one
    /// they refuse is [`ElicitError::InvalidDefault`]. Called again, the later values win.
    pub fn with_defaults(mut self, fill: impl FnOnce(&mut T::Defaults)) -> Self
    where
        T: Elicit,
    {
        self.defaults.extend(crate::defaults_of::<T>(fill));
        self
    }

    /// Whether an answer with field errors is asked again (the default, unless
    /// [`Elicitation::with_reask`](crate::rmcp::Elicitation::with_reask) says otherwise), or comes
    /// back as [`ElicitError::InvalidContent`] for the handler to deal with.
    pub fn with_reask(mut self, reask: bool) -> Self {
        self.reask = Some(reask);
        self
    }

    /// Sends `schema` rather than `T`'s own: for a schema that admits the same answers in
    /// another shape (the deprecated `enum` + `enumNames` single-select, say). The answer is
    /// still read by `T`'s parser, and defaults are set on `schema`.
    pub fn with_schema(mut self, schema: RequestedSchema) -> Self {
        self.schema = Some(schema);
        self
    }

    /// On 2025-11-25, gives up after `timeout` ([`ElicitError::TimedOut`], and the request is
    /// cancelled) instead of the server's
    /// [`Elicitation::with_timeout`](crate::rmcp::Elicitation::with_timeout). On 2026-07-28 the
    /// client holds the form, and the state's TTL bounds the wait. Inside a task, gives up after
    /// `timeout` too ([`ElicitError::TimedOut`], and the ask is withdrawn from the task's
    /// `inputRequests`); without one the task's TTL bounds the wait.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    async fn run(self) -> Result<ElicitOutcome<T>, ElicitError> {
        let base = self.key.as_deref().unwrap_or(T::INPUT_KEY);
        let reask = self.reask.unwrap_or(self.ask.reasks());
        let mut rejected: Option<Rejected> = None;
        loop {
            let key = match self.ask.take_key(base, Asker::form::<T>()) {
                Err(ElicitError::TooManyAsks { key, limit, .. }) if rejected.is_some() => {
                    let errors = rejected.map(|r| r.errors);
                    return Err(ElicitError::TooManyAsks { key, limit, errors });
                }
                taken => taken?,
            };
            let request = self.request(&key, rejected.as_ref())?;
            let answer = self
                .ask
                .way()
                .answer(&key, Box::new(request), self.timeout)
                .await?;
            let result = elicit_result(&key, answer)?;
            match T::from_result(&result) {
                Ok(outcome) => return Ok(outcome),
                Err(errors) if reask => {
                    rejected = Some(Rejected {
                        right: right_fields(&result, &errors),
                        errors,
                    });
                }
                Err(errors) => return Err(ElicitError::InvalidContent(errors)),
            }
        }
    }

    /// The form as it is sent under `key`: its schema with the defaults shown, and the
    /// message (with the errors of the answer it follows).
    fn request(&self, key: &str, rejected: Option<&Rejected>) -> Result<Form, ElicitError> {
        let mut shown = self.defaults.clone();
        let own: Cow<'static, RequestedSchema> = match &self.schema {
            Some(schema) => Cow::Owned(schema.clone()),
            None => Cow::Borrowed(T::requested_schema()),
        };
        let message = match rejected {
            Some(rejected) => {
                // The user's own answers win over the run-time defaults they replaced.
                shown.extend(rejected.right.clone());
                // Shown unticked, a box left out again is a "no" (see "Booleans a host leaves
                // out" above).
                for name in boxes_left_out(&own, &rejected.errors) {
                    shown.entry(name).or_insert(Value::Bool(false));
                }
                let corrections = corrections(&own, &rejected.errors);
                format!("{}\n\nPlease correct:\n{corrections}", self.message)
            }
            None => self.message.clone(),
        };
        let schema = if shown.is_empty() {
            own
        } else {
            let filled =
                own.with_defaults(&shown)
                    .map_err(|errors| ElicitError::InvalidDefault {
                        key: key.to_owned(),
                        errors,
                    })?;
            Cow::Owned(filled)
        };
        Ok(Form {
            schema,
            message,
            shown,
            reads: T::requested_schema(),
        })
    }
}

/// A rejected answer's errors as the person reads them again, a line each: the field by the
/// title the form shows it with (its wire name where it has none), then what is wrong.
fn corrections(schema: &RequestedSchema, errors: &ContentError) -> String {
    let lines: Vec<String> = errors
        .errors()
        .iter()
        .map(|error| {
            let title = schema
                .property(error.field())
                .and_then(|property| property.schema.title());
            let left_out_box = is_box_left_out(schema, error.field(), error.problem());
            match (title, left_out_box) {
                (Some(title), true) => format!("{title} {LEFT_OUT_BOX}"),
                (None, true) => format!("`{}` {LEFT_OUT_BOX}", error.field()),
                (Some(title), false) => format!("{title} {}", error.problem()),
                (None, false) => error.to_string(),
            }
        })
        .collect();
    lines.join("\n")
}

/// What a re-ask says of a boolean left out, after its name.
const LEFT_OUT_BOX: &str = "was left out: tick it for yes, or leave it unticked for no";

/// The required booleans an answer left out, by wire name.
fn boxes_left_out(schema: &RequestedSchema, errors: &ContentError) -> Vec<String> {
    errors
        .errors()
        .iter()
        .filter(|error| is_box_left_out(schema, error.field(), error.problem()))
        .map(|error| error.field().to_owned())
        .collect()
}

fn is_box_left_out(schema: &RequestedSchema, field: &str, problem: &Problem) -> bool {
    *problem == Problem::Missing
        && schema
            .property(field)
            .is_some_and(|property| matches!(property.schema, PrimitiveSchema::Boolean(_)))
}

/// The elicitation result an answer to a form must be (shared with the round that keeps it:
/// the form reads it borrowed).
fn elicit_result(key: &str, answer: Answer) -> Result<Arc<ElicitResult>, ElicitError> {
    match answer {
        Answer::Elicitation(result) => Ok(result),
        other => Err(ElicitError::AskedOutOfOrder {
            before: format!("a `{}` request under `{key}`", other.method()),
            now: "a form".to_owned(),
        }),
    }
}

/// The fields of an answer that are not at fault: what a re-ask keeps.
fn right_fields(result: &ElicitResult, errors: &ContentError) -> Map<String, Value> {
    let mut right = result.content.clone().unwrap_or_default();
    right.retain(|name, _| errors.field(name).is_none());
    right
}

impl<'a, T: Elicit + Send + 'a> IntoFuture for FormAsk<'a, T> {
    type Output = Result<ElicitOutcome<T>, ElicitError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
