//! The client's answer to `elicitation/create`, as the client sends it. The typed outcomes a
//! server reads from it are at the crate root ([`ElicitOutcome`](crate::ElicitOutcome),
//! [`UrlConsent`](crate::UrlConsent)).

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
/// use elicit_mcp::wire::{ElicitAction, ElicitResult};
/// let result: ElicitResult =
///     serde_json::from_str(r#"{"action":"accept","content":{"name":"octocat"}}"#).unwrap();
/// assert_eq!(result.action, ElicitAction::Accept);
/// assert_eq!(result.content.unwrap()["name"], "octocat");
/// ```
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
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

    /// The same result with `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }
}

impl ElicitResult {
    /// The accept of a URL-mode elicitation: the user consented to open the URL. It carries no
    /// content.
    ///
    /// ```
    /// use elicit_mcp::wire::ElicitResult;
    /// let json = serde_json::to_string(&ElicitResult::accept_url()).unwrap();
    /// assert_eq!(json, r#"{"action":"accept"}"#);
    /// ```
    pub fn accept_url() -> Self {
        ElicitResult {
            action: ElicitAction::Accept,
            content: None,
            meta: None,
        }
    }
}
