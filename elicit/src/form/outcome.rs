//! The typed outcomes a server works with: a form's parsed value, or what the user did with a
//! URL; read from the client's [`ElicitResult`].

use std::fmt;

use crate::wire::{ElicitAction, ElicitResult};

/// The typed outcome of a form elicitation: the parsed value, or what the user did instead.
///
/// # One family of outcomes
///
/// Every elicitation ends in accept, decline or cancel, but what an accept gives differs, so
/// there is one outcome type per kind of ask: `ElicitOutcome<T>` (`Accepted(T)`: the form's
/// value in hand), [`UrlElicitOutcome`] (`Consented`: the user agreed to open the URL, the
/// interaction is not done yet) and, with rmcp, `rmcp::UrlOutcome` (`Completed(id)`: the
/// out-of-band step is done). They are kept apart so that a consent cannot be mistaken for a
/// completion. What they share has one name on each: `action()` (the [`ElicitAction`] the user
/// took), `is_declined()` and `is_cancelled()`, next to the accept of each (`accepted()`,
/// `is_consented()`, `completed()`).
///
/// What [`Elicit::from_result`](crate::Elicit::from_result) gives for a result whose content
/// is valid. Decline and cancel are answers, not errors: the user chose not to say.
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
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitOutcome<T> {
    /// The user submitted valid content.
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

    /// Whether the user submitted valid content.
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

/// What the user did with a URL-mode elicitation, read from the client's [`ElicitResult`].
///
/// One of the [family of outcomes](ElicitOutcome#one-family-of-outcomes): `action()`,
/// `is_consented()`, `is_declined()`, `is_cancelled()`.
///
/// An accept means the user consented to open the URL, not that the interaction is done: that
/// is known only when the server completes it (with `url-mode`, see
/// `ElicitationTracker::complete` in [`server`](crate::server)).
///
/// ```
/// use elicit_mcp::UrlElicitOutcome;
/// use elicit_mcp::wire::ElicitResult;
/// let accept: ElicitResult = serde_json::from_str(r#"{"action": "accept"}"#).unwrap();
/// assert_eq!(UrlElicitOutcome::from_result(&accept), Ok(UrlElicitOutcome::Consented));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UrlElicitOutcome {
    /// The user consented to open the URL; the interaction goes on out of band.
    Consented,
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

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

impl UrlElicitOutcome {
    /// Reads a URL-mode result. Absent, `null` and empty `content` are accepted; content with
    /// any key is refused.
    pub fn from_result(result: &ElicitResult) -> Result<Self, UnexpectedContentError> {
        if let Some(content) = result.content.as_ref().filter(|c| !c.is_empty()) {
            return Err(UnexpectedContentError {
                keys: content.keys().cloned().collect(),
            });
        }
        Ok(match result.action {
            ElicitAction::Accept => UrlElicitOutcome::Consented,
            ElicitAction::Decline => UrlElicitOutcome::Declined,
            ElicitAction::Cancel => UrlElicitOutcome::Cancelled,
        })
    }

    /// What the user did.
    pub fn action(self) -> ElicitAction {
        match self {
            UrlElicitOutcome::Consented => ElicitAction::Accept,
            UrlElicitOutcome::Declined => ElicitAction::Decline,
            UrlElicitOutcome::Cancelled => ElicitAction::Cancel,
        }
    }

    /// Whether the user consented to open the URL (the interaction is not done yet).
    pub fn is_consented(self) -> bool {
        self == UrlElicitOutcome::Consented
    }

    /// Whether the user explicitly declined.
    pub fn is_declined(self) -> bool {
        self == UrlElicitOutcome::Declined
    }

    /// Whether the user dismissed the request without choosing.
    pub fn is_cancelled(self) -> bool {
        self == UrlElicitOutcome::Cancelled
    }
}
