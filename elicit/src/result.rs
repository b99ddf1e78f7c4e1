//! The client's answer to `elicitation/create`, and the typed outcome a server works with.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What the user did with the elicitation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user submitted the form, or consented to open the URL.
    Accept,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request without choosing (the default: no choice made).
    #[default]
    Cancel,
}

/// The result of `elicitation/create`, as the client sends it.
///
/// ```
/// use elicit::{ElicitAction, ElicitResult};
/// let result: ElicitResult =
///     serde_json::from_str(r#"{"action":"accept","content":{"name":"octocat"}}"#).unwrap();
/// assert_eq!(result.action, ElicitAction::Accept);
/// assert_eq!(result.content.unwrap()["name"], "octocat");
/// ```
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted form data: present on a form-mode accept, absent otherwise. `null` is read
    /// as absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
    /// `_meta`, passed through untouched.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ElicitResult {
    /// An accept carrying this content.
    pub fn accept(content: Map<String, Value>) -> Self {
        ElicitResult {
            action: ElicitAction::Accept,
            content: Some(content),
            meta: None,
        }
    }

    /// A decline.
    pub fn decline() -> Self {
        ElicitResult {
            action: ElicitAction::Decline,
            ..Default::default()
        }
    }

    /// A cancel.
    pub fn cancel() -> Self {
        ElicitResult {
            action: ElicitAction::Cancel,
            ..Default::default()
        }
    }
}

/// The typed outcome of a form elicitation: the parsed value, or what the user did instead.
///
/// What [`Elicit::from_result`](crate::Elicit::from_result) gives for a result whose content
/// is valid. Decline and cancel are answers, not errors: the user chose not to say.
///
/// ```
/// use elicit::{Elicit, ElicitOutcome, ElicitResult};
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
/// assert_eq!(reply(&ElicitResult::accept(Default::default())), "the answer was invalid:\n`confirm`: is required");
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

    /// Maps the accepted value.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ElicitOutcome<U> {
        match self {
            ElicitOutcome::Accepted(value) => ElicitOutcome::Accepted(f(value)),
            ElicitOutcome::Declined => ElicitOutcome::Declined,
            ElicitOutcome::Cancelled => ElicitOutcome::Cancelled,
        }
    }
}
