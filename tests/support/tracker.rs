//! What the tests of URL mode's tracker share: users, and starting an elicitation.

use elicit_mcp::server::{ElicitationStore, ElicitationTracker, Initiator, StartError, UserId};
use elicit_mcp::wire::{ElicitationCapability, ElicitationId};

use crate::connect_page::connect_url;

/// The user an identity provider verified as `subject`.
pub fn user(subject: &str) -> UserId {
    UserId::from_verified_subject(subject).unwrap()
}

/// Starts a URL elicitation on `tracker` for `initiator`, whose client declared URL mode: its
/// id, or why the tracker refused.
pub async fn start<S: ElicitationStore>(
    tracker: &ElicitationTracker<S>,
    initiator: &Initiator,
) -> Result<ElicitationId, StartError> {
    let pending = tracker
        .start(
            initiator,
            Some(&ElicitationCapability::url()),
            "Connect your Example Co account",
            connect_url,
        )
        .await?;
    Ok(pending.id().clone())
}
