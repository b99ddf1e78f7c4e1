//! Result: the client's answer.

use std::fmt;

use ::rmcp::model as sdk;
use serde_json::Value;

use crate::wire::{ElicitAction, ElicitResult};

/// rmcp's `ElicitResult` carries `content` that is not a JSON object, or an action this crate
/// does not know.
///
/// ```
/// use elicit_mcp::wire::ElicitResult;
/// use elicit_mcp::rmcp::InvalidResultError;
///
/// let theirs: rmcp::model::ElicitResult =
///     serde_json::from_value(serde_json::json!({"action": "accept", "content": "yes"})).unwrap();
/// let error: InvalidResultError = ElicitResult::try_from(&theirs).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "invalid elicitation result: `content` must be an object, found a string"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidResultError {
    reason: String,
}

impl InvalidResultError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        InvalidResultError {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for InvalidResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid elicitation result: {}", self.reason)
    }
}

impl std::error::Error for InvalidResultError {}

impl From<&ElicitResult> for sdk::ElicitResult {
    fn from(result: &ElicitResult) -> Self {
        let mut converted = sdk::ElicitResult::new(match result.action {
            ElicitAction::Accept => sdk::ElicitationAction::Accept,
            ElicitAction::Decline => sdk::ElicitationAction::Decline,
            ElicitAction::Cancel => sdk::ElicitationAction::Cancel,
        });
        converted.content = result.content.clone().map(Value::Object);
        converted.meta = result.meta.clone().map(sdk::MetaObject);
        converted
    }
}

impl From<ElicitResult> for sdk::ElicitResult {
    fn from(result: ElicitResult) -> Self {
        sdk::ElicitResult::from(&result)
    }
}

impl TryFrom<&sdk::ElicitResult> for ElicitResult {
    type Error = InvalidResultError;

    /// The result in elicit's model: `null` content is read as absent, as on the wire.
    fn try_from(result: &sdk::ElicitResult) -> Result<Self, InvalidResultError> {
        let action = match result.action {
            sdk::ElicitationAction::Accept => ElicitAction::Accept,
            sdk::ElicitationAction::Decline => ElicitAction::Decline,
            sdk::ElicitationAction::Cancel => ElicitAction::Cancel,
            _ => {
                return Err(InvalidResultError::new(
                    "an action other than accept, decline and cancel",
                ));
            }
        };
        let content = match &result.content {
            None | Some(Value::Null) => None,
            Some(Value::Object(content)) => Some(content.clone()),
            Some(other) => {
                return Err(InvalidResultError::new(format!(
                    "`content` must be an object, found {}",
                    crate::schema::kind_of(other)
                )));
            }
        };
        Ok(ElicitResult {
            action,
            content,
            meta: result.meta.as_ref().map(|m| m.0.clone()),
        })
    }
}

impl TryFrom<sdk::ElicitResult> for ElicitResult {
    type Error = InvalidResultError;

    fn try_from(result: sdk::ElicitResult) -> Result<Self, InvalidResultError> {
        ElicitResult::try_from(&result)
    }
}
