//! A URL-mode elicitation of one call as it is carried from run to run: its id, what it showed
//! the user, when it expires, and how far it got. Apart from the ask that drives it (`url`),
//! because every way of asking stores it (`way::Way::keep_flow`) and the ask holds the way.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::server::PendingUrlElicitation;

/// A URL-mode elicitation of a call, as a 2026-07-28 state carries it between rounds.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub(crate) struct UrlFlow {
    /// The tracker's id.
    pub id: String,
    pub message: String,
    pub url: String,
    /// When the tracker lets it expire: a retry after that is told it expired, as on
    /// 2025-11-25, rather than refused.
    #[serde(with = "unix_seconds")]
    pub expires_at: SystemTime,
    pub status: UrlStatus,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum UrlStatus {
    /// Sent; the client's answer (consent or not) comes with the retry.
    Asked,
    /// The user consented; the out-of-band step goes on.
    Consented,
    Completed,
    Declined,
    Cancelled,
}

impl UrlFlow {
    pub(super) fn asked(pending: &PendingUrlElicitation) -> Self {
        let params = pending.params();
        UrlFlow {
            id: pending.id().as_str().to_owned(),
            message: params.message().to_owned(),
            url: params.url().to_owned(),
            expires_at: pending.expires_at(),
            status: UrlStatus::Asked,
        }
    }
}

/// A time as whole seconds since the Unix epoch: what the state needs, in few bytes.
mod unix_seconds {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(time: &SystemTime, serializer: S) -> Result<S::Ok, S::Error> {
        let seconds = time
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        serializer.serialize_u64(seconds)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SystemTime, D::Error> {
        let seconds = u64::deserialize(deserializer)?;
        UNIX_EPOCH
            .checked_add(Duration::from_secs(seconds))
            .ok_or_else(|| serde::de::Error::custom("a time past what this system can hold"))
    }
}
