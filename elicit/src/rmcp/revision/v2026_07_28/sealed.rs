//! What the sealed `requestState` carries from one round of a call to the next: only what the
//! handler reads. A file of its own, so that the state's shape is in one place and nothing
//! else is sealed by accident; [`RoundState`](super::state::RoundState) is what reads and writes
//! it.

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use std::collections::BTreeMap;

use ::rmcp::model as sdk;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rmcp::ask::keys::AskedUnder;
#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url_flow::UrlFlow;
use crate::rmcp::kind::Answer;
use crate::server::lower_hex;

/// What the sealed `requestState` holds between rounds.
#[derive(Serialize, Deserialize, Debug, Default)]
pub(crate) struct SealedState {
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
    /// The URL-mode elicitations asked (`Ask::url`), by input key.
    #[cfg(feature = "url-mode")]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub flows: BTreeMap<String, UrlFlow>,
    /// The results of the handler's steps ([`Ask::step`](crate::rmcp::Ask::step)), by step key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub steps: BTreeMap<String, Value>,
    /// How many rounds of this call asked the client for input. Rounds that only wait for a
    /// URL-mode elicitation's out-of-band step do not count: the elicitation's expiry bounds
    /// them.
    #[serde(default)]
    pub rounds: u32,
}

pub(super) fn nonce() -> Result<String, sdk::ErrorData> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        sdk::ErrorData::internal_error(format!("no randomness for requestState: {e}"), None)
    })?;
    // In hex, as states have always written it.
    Ok(lower_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::nonce;

    #[test]
    fn a_nonce_is_sixteen_random_bytes_in_lowercase_hex() {
        let (one, two) = (nonce().unwrap(), nonce().unwrap());
        for text in [&one, &two] {
            assert_eq!(text.len(), 32, "{text}");
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "{text}"
            );
        }
        assert_ne!(one, two);
    }
}
