//! The params of a URL-mode `elicitation/create`, and the elicitation id they carry.

use std::borrow::Borrow;
use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::mode::ElicitMode;

#[cfg(feature = "url-mode")]
mod random;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use random::RandomnessUnavailableError;

/// The id of a URL-mode elicitation: opaque to the client, unguessable when the server makes it.
///
/// `ElicitationId::random` (with `url-mode`) draws `ElicitationId::RANDOM_BITS` bits from the
/// operating system, so an id seen by no one cannot be guessed. An id received from a peer is
/// wrapped with [`ElicitationId::new`] and treated as an opaque string.
///
/// ```
/// # #[cfg(feature = "url-mode")] {
/// use elicit_mcp::wire::ElicitationId;
/// let id = ElicitationId::random().unwrap();
/// assert_eq!(id.as_str().len(), 32); // 128 bits, hex
/// assert_ne!(id, ElicitationId::random().unwrap());
/// # }
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ElicitationId(String);

impl ElicitationId {
    /// An id as received from a peer, kept as the opaque string it is.
    pub fn new(id: impl Into<String>) -> Self {
        ElicitationId(id.into())
    }

    /// The id as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ElicitationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ElicitationId({:?})", self.0)
    }
}

impl fmt::Display for ElicitationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

// Hash and Eq of the newtype are those of the string, so maps keyed by id can be probed with a
// `&str` taken from a query string without allocating.
impl Borrow<str> for ElicitationId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for ElicitationId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// The params of a URL-mode `elicitation/create`: `mode: "url"`, `message`, `url` and
/// `elicitationId`.
///
/// Read one from the wire with serde. In code, a server builds one only from a URL that passed
/// its URL policy (`elicit_mcp::server::CheckedUrl::into_params`, with the `url-mode` feature);
/// the usual way is `ElicitationTracker::start`, which also binds it to the user.
///
/// ```
/// use elicit_mcp::wire::ElicitRequestUrlParams;
/// let params: ElicitRequestUrlParams = serde_json::from_str(r#"{
///     "mode": "url",
///     "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
///     "url": "https://mcp.example.com/ui/set_api_key",
///     "message": "Please provide your API key to continue."
/// }"#).unwrap();
/// assert_eq!(params.url(), "https://mcp.example.com/ui/set_api_key");
///
/// let no_id = r#"{"mode": "url", "url": "https://example.com/", "message": "m"}"#;
/// let err = serde_json::from_str::<ElicitRequestUrlParams>(no_id).unwrap_err();
/// assert!(err.to_string().contains("elicitationId"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitRequestUrlParams {
    message: String,
    url: String,
    elicitation_id: ElicitationId,
    meta: Option<Map<String, Value>>,
}

impl ElicitRequestUrlParams {
    /// The params from their members. Only the server's URL policy calls this with a URL it
    /// built (`CheckedUrl::into_params`), so no unchecked URL becomes a request in code; the
    /// deserializers call it with what a peer sent.
    pub(crate) fn from_parts(
        message: String,
        url: String,
        elicitation_id: ElicitationId,
        meta: Option<Map<String, Value>>,
    ) -> Self {
        ElicitRequestUrlParams {
            message,
            url,
            elicitation_id,
            meta,
        }
    }

    /// The same params with `_meta`.
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Why the server needs the interaction.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The URL the user should navigate to, as sent. A client reviews it with
    /// `elicit_mcp::client::UrlReview` (with `url-mode`) before asking for consent.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The id of the elicitation.
    pub fn elicitation_id(&self) -> &ElicitationId {
        &self.elicitation_id
    }

    /// `_meta`, passed through untouched.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }
}

impl Serialize for ElicitRequestUrlParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("mode", "url")?;
        map.serialize_entry("elicitationId", &self.elicitation_id)?;
        map.serialize_entry("url", &self.url)?;
        map.serialize_entry("message", &self.message)?;
        if let Some(meta) = &self.meta {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ElicitRequestUrlParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire {
            mode: String,
            message: String,
            url: String,
            elicitation_id: ElicitationId,
            #[serde(rename = "_meta", default)]
            meta: Option<Map<String, Value>>,
        }
        let wire = Wire::deserialize(deserializer)?;
        // Unlike form mode, URL mode is never implied: `mode` must say "url".
        if wire.mode != ElicitMode::Url.as_str() {
            return Err(de::Error::custom(format_args!(
                "URL-mode params with mode \"{}\"; it must be \"url\"",
                wire.mode
            )));
        }
        Ok(ElicitRequestUrlParams::from_parts(
            wire.message,
            wire.url,
            wire.elicitation_id,
            wire.meta,
        ))
    }
}
