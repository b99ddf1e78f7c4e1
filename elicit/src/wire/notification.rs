//! `notifications/elicitation/complete`: the server's word that a URL-mode elicitation is done.

use serde::de::Deserializer;
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::jsonrpc::check_envelope;
use super::url::ElicitationId;

/// The params of `notifications/elicitation/complete`: the id of the elicitation that completed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitationCompleteParams {
    /// The id established in the original `elicitation/create` (or -32042 error).
    pub elicitation_id: ElicitationId,
    /// `_meta`, passed through untouched.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ElicitationCompleteParams {
    /// The params saying that the elicitation with this id completed.
    pub fn new(elicitation_id: ElicitationId) -> Self {
        ElicitationCompleteParams {
            elicitation_id,
            meta: None,
        }
    }

    /// The same params with `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }
}

/// The whole `notifications/elicitation/complete` notification:
/// `{"jsonrpc": "2.0", "method", "params": {"elicitationId"}}`.
///
/// A server gets one, addressed to the client connection that started the elicitation, from
/// `elicit_mcp::server::ElicitationTracker::complete`. A client passes the ones it receives to
/// `elicit_mcp::client::UrlElicitationWatch::on_complete`, which ignores unknown and
/// already-completed ids as the spec requires (both with `url-mode`).
///
/// ```
/// use elicit_mcp::wire::{ElicitationCompleteNotification, ElicitationId};
/// let n = ElicitationCompleteNotification::new(ElicitationId::new("550e8400"));
/// assert_eq!(serde_json::to_value(&n).unwrap(), serde_json::json!({
///     "jsonrpc": "2.0",
///     "method": "notifications/elicitation/complete",
///     "params": {"elicitationId": "550e8400"}
/// }));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitationCompleteNotification {
    /// The params.
    pub params: ElicitationCompleteParams,
}

impl ElicitationCompleteNotification {
    /// The JSON-RPC method: `notifications/elicitation/complete`.
    pub const METHOD: &'static str = "notifications/elicitation/complete";

    /// The notification that the elicitation with this id completed.
    pub fn new(elicitation_id: ElicitationId) -> Self {
        ElicitationCompleteNotification {
            params: ElicitationCompleteParams::new(elicitation_id),
        }
    }

    /// The id of the elicitation that completed.
    pub fn elicitation_id(&self) -> &ElicitationId {
        &self.params.elicitation_id
    }
}

impl Serialize for ElicitationCompleteNotification {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("method", Self::METHOD)?;
        map.serialize_entry("params", &self.params)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for ElicitationCompleteNotification {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Wire {
            jsonrpc: String,
            method: String,
            params: ElicitationCompleteParams,
        }
        let wire = Wire::deserialize(deserializer)?;
        check_envelope::<D::Error>(&wire.jsonrpc, &wire.method, Self::METHOD)?;
        Ok(ElicitationCompleteNotification {
            params: wire.params,
        })
    }
}
