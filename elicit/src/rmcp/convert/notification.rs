//! Completion notification: `notifications/elicitation/complete`.

use std::fmt;

use ::rmcp::model as sdk;
use serde::Deserialize;

use crate::wire::{ElicitationCompleteNotification, ElicitationCompleteParams};

impl From<&ElicitationCompleteNotification> for sdk::CustomNotification {
    /// `notifications/elicitation/complete`, which rmcp 3 has no type for: sent as a custom
    /// notification, it goes out as the spec writes it, `{"jsonrpc": "2.0", "method":
    /// "notifications/elicitation/complete", "params": {"elicitationId": ".."}}`.
    fn from(notification: &ElicitationCompleteNotification) -> Self {
        sdk::CustomNotification::new(
            ElicitationCompleteNotification::METHOD,
            serde_json::to_value(&notification.params).ok(),
        )
    }
}

impl From<&ElicitationCompleteNotification> for sdk::ServerNotification {
    fn from(notification: &ElicitationCompleteNotification) -> Self {
        sdk::ServerNotification::CustomNotification(notification.into())
    }
}

/// A notification that is not a well-formed `notifications/elicitation/complete`.
///
/// rmcp 3 has no type for that notification, so an rmcp client receives it in
/// `ClientHandler::on_custom_notification` and reads it with `TryFrom`:
///
/// ```
/// use elicit_mcp::rmcp::NotElicitationCompleteError;
/// use elicit_mcp::wire::{ElicitationCompleteNotification, ElicitationId};
/// use rmcp::model::CustomNotification;
///
/// // What a server sends (`ElicitPeer::notify_elicitation_complete` does this).
/// let sent = ElicitationCompleteNotification::new(ElicitationId::new("550e8400"));
/// let received = CustomNotification::from(&sent);
///
/// // In the client's `on_custom_notification`:
/// let notification = ElicitationCompleteNotification::try_from(&received).unwrap();
/// assert_eq!(notification.elicitation_id().as_str(), "550e8400");
/// // then `UrlElicitationWatch::on_complete(&notification)` says which calls to retry.
///
/// // Any other custom notification is not one.
/// let other = CustomNotification::new("notifications/other", None);
/// let error: NotElicitationCompleteError =
///     ElicitationCompleteNotification::try_from(&other).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     r#"method is "notifications/other", not "notifications/elicitation/complete""#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotElicitationCompleteError {
    reason: String,
}

impl fmt::Display for NotElicitationCompleteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for NotElicitationCompleteError {}

impl TryFrom<&sdk::CustomNotification> for ElicitationCompleteNotification {
    type Error = NotElicitationCompleteError;

    /// Reads the completion notification an rmcp client receives in
    /// `ClientHandler::on_custom_notification`.
    fn try_from(
        notification: &sdk::CustomNotification,
    ) -> Result<Self, NotElicitationCompleteError> {
        if notification.method != ElicitationCompleteNotification::METHOD {
            return Err(NotElicitationCompleteError {
                reason: format!(
                    "method is \"{}\", not \"{}\"",
                    notification.method,
                    ElicitationCompleteNotification::METHOD
                ),
            });
        }
        let params = notification
            .params
            .as_ref()
            .ok_or_else(|| NotElicitationCompleteError {
                reason: "`params` with `elicitationId` is required".to_owned(),
            })?;
        let params = ElicitationCompleteParams::deserialize(params).map_err(|e| {
            NotElicitationCompleteError {
                reason: format!("invalid `params`: {e}"),
            }
        })?;
        Ok(ElicitationCompleteNotification { params })
    }
}
