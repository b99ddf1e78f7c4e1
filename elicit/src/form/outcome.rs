//! The typed outcome a server works with, one for every kind of ask: a form's parsed value, or
//! the user's consent to open a URL; read from the client's [`ElicitResult`].

use std::fmt;

use crate::wire::{ElicitAction, ElicitResult};

/// The typed outcome of an elicitation: what an accept gives, or what the user did instead.
///
/// # One family of outcomes
///
/// Every elicitation ends in accept, decline or cancel; only what an accept gives differs
/// with the kind of ask, so there is one outcome type, `ElicitOutcome<T>`, and one small type
/// `T` per meaning of an accept:
///
/// - a form: the form's value, parsed (`ElicitOutcome<MyForm>`, from
///   [`Elicit::from_result`](crate::Elicit::from_result) or `Ask::form`);
/// - URL mode, the client's answer: [`UrlConsent`], the user agreed to open the URL and the
///   interaction goes on out of band (`ElicitOutcome<UrlConsent>`, from
///   [`UrlConsent::from_result`]);
/// - URL mode through rmcp's `Ask::url`: `rmcp::UrlCompleted`, the out-of-band step is done
///   and the tracker completed the elicitation (`ElicitOutcome<UrlCompleted>`).
///
/// A consent and a completion are different types, so that one cannot be taken for the
/// other. A new meaning of an accept is one more such type: a struct named after what the
/// accept proves, with private fields (or `#[non_exhaustive]`) and accessors for what it
/// carries. The helpers are the same for all: [`action`](Self::action) (the [`ElicitAction`]
/// the user took), [`is_accepted`](Self::is_accepted), [`is_declined`](Self::is_declined),
/// [`is_cancelled`](Self::is_cancelled), [`accepted`](Self::accepted) and [`map`](Self::map).
///
/// Decline and cancel are answers, not errors: the user chose not to say. For a form, what
/// [`Elicit::from_result`](crate::Elicit::from_result) gives for a result whose content is
/// valid:
///
/// ```
/// use elicit_mcp::wire::ElicitResult;
/// use elicit_mcp::{Elicit, ElicitOutcome};
///
/// #[derive(Elicit, Debug)]
/// struct Confirm {
///     confirm: bool,
/// }
///
/// fn reply(result: &ElicitResult) -> String {
///     match Confirm::from_result(result) {
///         Ok(ElicitOutcome::Accepted(Confirm { confirm: true })) => "done".into(),
///         Ok(ElicitOutcome::Accepted(_) | ElicitOutcome::Declined) => "left as it was".into(),
///         Ok(ElicitOutcome::Cancelled) => "asked again later".into(),
///         Err(errors) => format!("the answer was invalid:\n{errors}"),
///     }
/// }
///
/// let yes = serde_json::json!({"confirm": true});
/// assert_eq!(reply(&ElicitResult::accept(yes.as_object().unwrap().clone())), "done");
/// assert_eq!(reply(&ElicitResult::cancel()), "asked again later");
/// assert_eq!(
///     reply(&ElicitResult::accept(Default::default())),
///     "the answer was invalid:\n`confirm`: is required"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ElicitOutcome<T> {
    /// The user accepted: for a form, with valid content; what `T` holds says what the accept
    /// means for the kind of ask.
    Accepted(T),
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the request.
    Cancelled,
}

impl<T> ElicitOutcome<T> {
    /// The accepted value, if any.
    pub fn accepted(self) -> Option<T> {
        match self {
            ElicitOutcome::Accepted(value) => Some(value),
            _ => None,
        }
    }

    /// What the user did.
    pub fn action(&self) -> ElicitAction {
        match self {
            ElicitOutcome::Accepted(_) => ElicitAction::Accept,
            ElicitOutcome::Declined => ElicitAction::Decline,
            ElicitOutcome::Cancelled => ElicitAction::Cancel,
        }
    }

    /// Whether the user accepted.
    pub fn is_accepted(&self) -> bool {
        self.action() == ElicitAction::Accept
    }

    /// Whether the user explicitly declined.
    pub fn is_declined(&self) -> bool {
        self.action() == ElicitAction::Decline
    }

    /// Whether the user dismissed the request.
    pub fn is_cancelled(&self) -> bool {
        self.action() == ElicitAction::Cancel
    }

    /// Maps the accepted value.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ElicitOutcome<U> {
        match self {
            ElicitOutcome::Accepted(value) => ElicitOutcome::Accepted(f(value)),
            ElicitOutcome::Declined => ElicitOutcome::Declined,
            ElicitOutcome::Cancelled => ElicitOutcome::Cancelled,
        }
    }
}

/// What an accept means in URL mode, read from the client's [`ElicitResult`]: the user
/// consented to open the URL. The interaction goes on out of band; it is done only when the
/// server completes it (with `url-mode`, `ElicitationTracker::complete` in
/// [`server`](crate::server)).
///
/// One of the [family of outcomes](ElicitOutcome#one-family-of-outcomes):
/// [`UrlConsent::from_result`] gives `ElicitOutcome<UrlConsent>`.
///
/// ```
/// use elicit_mcp::UrlConsent;
/// use elicit_mcp::wire::{ElicitAction, ElicitResult};
///
/// let accept: ElicitResult = serde_json::from_str(r#"{"action": "accept"}"#).unwrap();
/// assert!(UrlConsent::from_result(&accept).unwrap().is_accepted());
/// let decline: ElicitResult = serde_json::from_str(r#"{"action": "decline"}"#).unwrap();
/// assert_eq!(UrlConsent::from_result(&decline).unwrap().action(), ElicitAction::Decline);
///
/// // In URL mode no data but the URL passes the client: content is refused.
/// let content = r#"{"action": "accept", "content": {"apiKey": "sk-123"}}"#;
/// let with_content: ElicitResult = serde_json::from_str(content).unwrap();
/// assert_eq!(UrlConsent::from_result(&with_content).unwrap_err().keys, ["apiKey"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct UrlConsent;

/// A URL-mode result that carries form content: in URL mode no data but the URL passes the
/// client, so content there is a client bug the server should not act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnexpectedContentError {
    /// The keys of the content sent.
    pub keys: Vec<String>,
}

impl fmt::Display for UnexpectedContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a URL-mode result must carry no content, found keys {:?}",
            self.keys
        )
    }
}

impl std::error::Error for UnexpectedContentError {}

impl UrlConsent {
    /// Reads a URL-mode result. Absent, `null` and empty `content` are accepted; content with
    /// any key is refused.
    pub fn from_result(
        result: &ElicitResult,
    ) -> Result<ElicitOutcome<UrlConsent>, UnexpectedContentError> {
        if let Some(content) = result.content.as_ref().filter(|c| !c.is_empty()) {
            return Err(UnexpectedContentError {
                keys: content.keys().cloned().collect(),
            });
        }
        Ok(match result.action {
            ElicitAction::Accept => ElicitOutcome::Accepted(UrlConsent),
            ElicitAction::Decline => ElicitOutcome::Declined,
            ElicitAction::Cancel => ElicitOutcome::Cancelled,
        })
    }
}
