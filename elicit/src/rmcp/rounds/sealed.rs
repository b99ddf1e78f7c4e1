//! What the sealed `requestState` carries from one round of a call to the next: only what the
//! handler reads. A file of its own, so that the state's shape is in one place and nothing
//! else is sealed by accident; [`RoundState`](super::state::RoundState) is what reads and writes
//! it.

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use std::collections::BTreeMap;
use std::fmt;

use ::rmcp::model as sdk;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::wire::ElicitResult;

/// What the sealed `requestState` holds between rounds.
#[derive(Serialize, Deserialize, Debug, Default)]
pub(super) struct SealedState {
    /// The answers of the earlier rounds, by input key (the client sends only the last
    /// round's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub answers: BTreeMap<String, Answer>,
    /// For a form asked in the last round, the defaults it showed beyond its own: run-time
    /// defaults and the answers a re-ask kept. An answer that leaves such a field out takes
    /// the value shown, whenever the answer comes back.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub shown: BTreeMap<String, Map<String, Value>>,
    /// Every ask of the call, in the order the handler made them: a run that asks in another
    /// order is the handler's mistake, and is named as such.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asked: Vec<AskedUnder>,
    /// Random, so that single-use can tell states apart.
    pub nonce: String,
    /// The URL-mode elicitations asked ([`Ask::url`](super::Ask::url)), by input key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flows: BTreeMap<String, UrlFlow>,
    /// How many rounds of this call asked the client for input. Rounds that only wait for a
    /// URL-mode elicitation's out-of-band step do not count: the elicitation's expiry bounds
    /// them.
    #[serde(default)]
    pub rounds: u32,
}

/// One answer of an earlier round, as the handler reads it.
#[derive(Serialize, Deserialize, Debug, Clone)]
#[serde(tag = "kind", content = "result", rename_all = "snake_case")]
pub(super) enum Answer {
    /// `elicitation/create`: the action and, for a form, only the fields it reads (those the
    /// answer left out filled with the defaults the form showed). No `_meta`.
    Elicitation(ElicitResult),
    /// `sampling/createMessage`: the client's result as rmcp's model reads it.
    Sampling(Box<sdk::CreateMessageResult>),
    /// `roots/list`: the client's result as rmcp's model reads it.
    Roots(sdk::ListRootsResult),
}

impl Answer {
    pub fn kind(&self) -> Kind {
        match self {
            Answer::Elicitation(_) => Kind::Elicitation,
            Answer::Sampling(_) => Kind::Sampling,
            Answer::Roots(_) => Kind::Roots,
        }
    }
}

/// What kind of request an ask sends: the method it goes out as.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum Kind {
    Elicitation,
    Sampling,
    Roots,
}

impl Kind {
    pub fn method(self) -> &'static str {
        match self {
            Kind::Elicitation => "elicitation/create",
            Kind::Sampling => "sampling/createMessage",
            Kind::Roots => "roots/list",
        }
    }
}

/// What kind of ask went under a key, as the state carries it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum AskKind {
    Form,
    Url,
    Sampling,
    Roots,
}

impl fmt::Display for AskKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AskKind::Form => "a form",
            AskKind::Url => "`Ask::url`",
            AskKind::Sampling => "`Ask::sample`",
            AskKind::Roots => "`Ask::roots`",
        })
    }
}

/// One ask of a call: the input key it went under, and what kind of ask it was.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub(super) struct AskedUnder {
    pub key: String,
    pub kind: AskKind,
}

impl fmt::Display for AskedUnder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` ({})", self.key, self.kind)
    }
}

/// A URL-mode elicitation asked on 2026-07-28, as the sealed state carries it between rounds.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub(super) struct UrlFlow {
    /// The tracker's id: only here, never in the request the client sees.
    pub id: String,
    pub message: String,
    pub url: String,
    /// When the tracker lets it expire: a retry after that is told it expired, as on
    /// 2025-11-25, rather than refused.
    #[serde(with = "unix_seconds")]
    pub expires_at: std::time::SystemTime,
    pub status: UrlStatus,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum UrlStatus {
    /// Sent; the client's answer (consent or not) comes with the retry.
    Asked,
    /// The user consented; the out-of-band step goes on.
    Consented,
    Completed,
    Declined,
    Cancelled,
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
            .ok_or_else(|| serde::de::Error::custom("a time out of range"))
    }
}

pub(super) fn nonce() -> Result<String, sdk::ErrorData> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        sdk::ErrorData::internal_error(format!("no randomness for requestState: {e}"), None)
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
