//! The wire model of elicitation beyond the form's schema: the `elicitation/create` params of
//! both modes, the URL-mode params, the completion notification, the JSON-RPC error object and
//! the `URLElicitationRequiredError` (-32042).
//!
//! Every type serializes into exactly the spec's JSON (revision 2025-11-25) and reads it back.

use std::borrow::Borrow;
use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::capability::{ElicitationCapability, ModeNotSupported};
use crate::request::ElicitRequestFormParams;
use crate::result::{ElicitAction, ElicitResult};
use crate::schema::RequestedSchema;
use crate::server::CheckedUrl;

/// The two modes of elicitation.
///
/// ```
/// use elicit::ElicitMode;
/// assert_eq!(serde_json::to_string(&ElicitMode::Url).unwrap(), r#""url""#);
/// assert_eq!(ElicitMode::Form.as_str(), "form");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitMode {
    /// In-band structured data collection through a form the client renders.
    Form,
    /// Out-of-band interaction: the user opens a URL; nothing but the URL passes the client.
    Url,
}

impl ElicitMode {
    /// The mode's name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ElicitMode::Form => "form",
            ElicitMode::Url => "url",
        }
    }
}

impl fmt::Display for ElicitMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The id of a URL-mode elicitation: opaque to the client, unguessable when the server makes it.
///
/// [`ElicitationId::random`] draws [`ElicitationId::RANDOM_BITS`] bits from the operating
/// system, so an id seen by no one cannot be guessed. An id received from a peer is wrapped with
/// [`ElicitationId::new`] and treated as an opaque string.
///
/// ```
/// use elicit::ElicitationId;
/// let id = ElicitationId::random().unwrap();
/// assert_eq!(id.as_str().len(), 32); // 128 bits, hex
/// assert_ne!(id, ElicitationId::random().unwrap());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ElicitationId(String);

/// The operating system could not supply random bytes for an [`ElicitationId`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomnessUnavailable {
    reason: String,
}

impl fmt::Display for RandomnessUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the operating system's random source failed: {}",
            self.reason
        )
    }
}

impl std::error::Error for RandomnessUnavailable {}

impl ElicitationId {
    /// How many bits of OS randomness [`random`](ElicitationId::random) puts in an id.
    pub const RANDOM_BITS: usize = 128;

    /// An id as received from a peer, kept as the opaque string it is.
    pub fn new(id: impl Into<String>) -> Self {
        ElicitationId(id.into())
    }

    /// A fresh id of [`RANDOM_BITS`](ElicitationId::RANDOM_BITS) bits from the operating
    /// system's random source, as lowercase hex (URL-safe as it is).
    pub fn random() -> Result<Self, RandomnessUnavailable> {
        let mut bytes = [0u8; Self::RANDOM_BITS / 8];
        getrandom::fill(&mut bytes).map_err(|e| RandomnessUnavailable {
            reason: e.to_string(),
        })?;
        let mut hex = String::with_capacity(bytes.len() * 2);
        for byte in bytes {
            hex.push(char::from(HEX[usize::from(byte >> 4)]));
            hex.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
        Ok(ElicitationId(hex))
    }

    /// The id as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

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

/// A JSON-RPC request id: a string or an integer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl From<i64> for RequestId {
    fn from(id: i64) -> Self {
        RequestId::Number(id)
    }
}

impl From<String> for RequestId {
    fn from(id: String) -> Self {
        RequestId::String(id)
    }
}

impl From<&str> for RequestId {
    fn from(id: &str) -> Self {
        RequestId::String(id.to_owned())
    }
}

/// The params of a URL-mode `elicitation/create`: `mode: "url"`, `message`, `url` and
/// `elicitationId`.
///
/// Read one from the wire with serde. In code, one is built only from a [`CheckedUrl`], the
/// proof that the URL passed the server's [`UrlPolicy`](crate::server::UrlPolicy); the usual
/// way is [`ElicitationTracker::start`](crate::server::ElicitationTracker::start), which also
/// binds it to the user.
///
/// ```
/// use elicit::ElicitRequestUrlParams;
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
    /// Params sending the user to a checked URL under this id.
    pub fn new(message: impl Into<String>, url: CheckedUrl, elicitation_id: ElicitationId) -> Self {
        ElicitRequestUrlParams {
            message: message.into(),
            url: url.into_string(),
            elicitation_id,
            meta: None,
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
    /// [`UrlReview`](crate::client::UrlReview) before asking for consent.
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
        if wire.mode != "url" {
            return Err(de::Error::custom(format_args!(
                "URL-mode params with mode \"{}\"; it must be \"url\"",
                wire.mode
            )));
        }
        Ok(ElicitRequestUrlParams {
            message: wire.message,
            url: wire.url,
            elicitation_id: wire.elicitation_id,
            meta: wire.meta,
        })
    }
}

/// The params of `elicitation/create`, of either mode.
///
/// Reading them follows the spec: a request without `mode` is form mode, `"form"` is form mode,
/// `"url"` is URL mode (and then needs `message`, `url` and `elicitationId`), and any other mode
/// is an error. A client that must answer a bad request with -32602 uses
/// [`client::validate_request`](crate::client::validate_request) instead, which says what was
/// wrong in a typed error.
///
/// ```
/// use elicit::{ElicitMode, ElicitRequestParams};
/// let legacy: ElicitRequestParams = serde_json::from_str(r#"{
///     "message": "Your name?",
///     "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
/// }"#).unwrap();
/// assert_eq!(legacy.mode(), ElicitMode::Form);
///
/// let url: ElicitRequestParams = serde_json::from_str(r#"{"mode": "url",
///     "elicitationId": "42", "url": "https://example.com/", "message": "Connect"}"#).unwrap();
/// assert_eq!(url.mode(), ElicitMode::Url);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitRequestParams {
    /// A form-mode request.
    Form(ElicitRequestFormParams),
    /// A URL-mode request.
    Url(ElicitRequestUrlParams),
}

impl ElicitRequestParams {
    /// The request's mode.
    pub fn mode(&self) -> ElicitMode {
        match self {
            ElicitRequestParams::Form(_) => ElicitMode::Form,
            ElicitRequestParams::Url(_) => ElicitMode::Url,
        }
    }

    /// Why the server asks.
    pub fn message(&self) -> &str {
        match self {
            ElicitRequestParams::Form(form) => &form.message,
            ElicitRequestParams::Url(url) => url.message(),
        }
    }
}

impl From<ElicitRequestFormParams> for ElicitRequestParams {
    fn from(params: ElicitRequestFormParams) -> Self {
        ElicitRequestParams::Form(params)
    }
}

impl From<ElicitRequestUrlParams> for ElicitRequestParams {
    fn from(params: ElicitRequestUrlParams) -> Self {
        ElicitRequestParams::Url(params)
    }
}

impl Serialize for ElicitRequestParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ElicitRequestParams::Form(form) => form.serialize(serializer),
            ElicitRequestParams::Url(url) => url.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ElicitRequestParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // One pass over the input with every field optional: `mode` may come after
        // `requestedSchema`, and the schema is read straight from the input so that its
        // properties keep the order the server wrote them in.
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire {
            #[serde(default)]
            mode: Option<String>,
            #[serde(default)]
            message: Option<String>,
            #[serde(default)]
            requested_schema: Option<RequestedSchema>,
            #[serde(default)]
            url: Option<String>,
            #[serde(default)]
            elicitation_id: Option<ElicitationId>,
            #[serde(rename = "_meta", default)]
            meta: Option<Map<String, Value>>,
        }
        let wire = Wire::deserialize(deserializer)?;
        let message = wire
            .message
            .ok_or_else(|| de::Error::missing_field("message"))?;
        match wire.mode.as_deref() {
            // Clients MUST treat a request without `mode` as form mode.
            None | Some("form") => {
                let schema = wire
                    .requested_schema
                    .ok_or_else(|| de::Error::missing_field("requestedSchema"))?;
                let mut form = ElicitRequestFormParams::new(message, schema);
                form.meta = wire.meta;
                Ok(ElicitRequestParams::Form(form))
            }
            Some("url") => Ok(ElicitRequestParams::Url(ElicitRequestUrlParams {
                message,
                url: wire.url.ok_or_else(|| de::Error::missing_field("url"))?,
                elicitation_id: wire
                    .elicitation_id
                    .ok_or_else(|| de::Error::missing_field("elicitationId"))?,
                meta: wire.meta,
            })),
            Some(other) => Err(de::Error::custom(format_args!(
                "unknown elicitation mode \"{other}\" (expected \"form\" or \"url\")"
            ))),
        }
    }
}

/// A whole `elicitation/create` request: `{"jsonrpc": "2.0", "id", "method", "params"}`.
///
/// A server builds one with [`ElicitRequest::new`], which refuses a mode the client did not
/// declare, so a request the server must not send cannot be built. A client reads one with
/// serde and then checks it against what it declared with
/// [`client::validate_request`](crate::client::validate_request).
///
/// ```
/// use elicit::{ElicitRequest, ElicitRequestParams, ElicitationCapability, RequestId};
/// let params: ElicitRequestParams = serde_json::from_str(r#"{"mode": "url",
///     "elicitationId": "42", "url": "https://example.com/", "message": "Connect"}"#).unwrap();
///
/// let form_only = ElicitationCapability::form();
/// let err = ElicitRequest::new(RequestId::from(1), params.clone(), Some(&form_only)).unwrap_err();
/// assert_eq!(err.to_string(), "the client did not declare URL-mode elicitation");
///
/// let both = ElicitationCapability::form_and_url();
/// assert!(ElicitRequest::new(RequestId::from(1), params, Some(&both)).is_ok());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitRequest {
    id: RequestId,
    params: ElicitRequestParams,
}

impl ElicitRequest {
    /// The JSON-RPC method: `elicitation/create`.
    pub const METHOD: &'static str = "elicitation/create";

    /// A request with these params, if the client declared their mode. `client` is the
    /// `elicitation` capability the client declared at initialization, `None` if it declared
    /// none.
    pub fn new(
        id: RequestId,
        params: ElicitRequestParams,
        client: Option<&ElicitationCapability>,
    ) -> Result<Self, ModeNotSupported> {
        ElicitationCapability::require(client, params.mode())?;
        Ok(ElicitRequest { id, params })
    }

    /// The JSON-RPC id.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The params.
    pub fn params(&self) -> &ElicitRequestParams {
        &self.params
    }

    /// Takes the params.
    pub fn into_params(self) -> ElicitRequestParams {
        self.params
    }

    /// Built by the tracker, which checked the capability when it started the elicitation.
    pub(crate) fn checked(id: RequestId, params: ElicitRequestParams) -> Self {
        ElicitRequest { id, params }
    }
}

impl Serialize for ElicitRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("method", Self::METHOD)?;
        map.serialize_entry("params", &self.params)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for ElicitRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Wire {
            jsonrpc: String,
            id: RequestId,
            method: String,
            params: ElicitRequestParams,
        }
        let wire = Wire::deserialize(deserializer)?;
        check_envelope::<D::Error>(&wire.jsonrpc, &wire.method, Self::METHOD)?;
        Ok(ElicitRequest {
            id: wire.id,
            params: wire.params,
        })
    }
}

fn check_envelope<E: de::Error>(jsonrpc: &str, method: &str, expected: &str) -> Result<(), E> {
    if jsonrpc != "2.0" {
        return Err(E::custom(format_args!(
            "`jsonrpc` is \"{jsonrpc}\"; it must be \"2.0\""
        )));
    }
    if method != expected {
        return Err(E::custom(format_args!(
            "`method` is \"{method}\"; expected \"{expected}\""
        )));
    }
    Ok(())
}

/// The params of `notifications/elicitation/complete`: the id of the elicitation that completed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationCompleteParams {
    /// The id established in the original `elicitation/create` (or -32042 error).
    pub elicitation_id: ElicitationId,
    /// `_meta`, passed through untouched.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// The whole `notifications/elicitation/complete` notification:
/// `{"jsonrpc": "2.0", "method", "params": {"elicitationId"}}`.
///
/// A server gets one, addressed to the client connection that started the elicitation, from
/// [`ElicitationTracker::complete`](crate::server::ElicitationTracker::complete). A client
/// passes the ones it receives to
/// [`UrlElicitationWatch::on_complete`](crate::client::UrlElicitationWatch::on_complete), which
/// ignores unknown and already-completed ids as the spec requires.
///
/// ```
/// use elicit::{ElicitationCompleteNotification, ElicitationId};
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
            params: ElicitationCompleteParams {
                elicitation_id,
                meta: None,
            },
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

/// A JSON-RPC error object: `{"code", "message", "data"?}`.
///
/// The typed errors of this crate that travel as JSON-RPC errors convert into it:
/// [`UrlElicitationRequiredError`] (-32042) and the client's
/// [`InvalidElicitRequest`](crate::client::InvalidElicitRequest) (-32602).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcError {
    /// The error code.
    pub code: i64,
    /// A short description, one sentence.
    pub message: String,
    /// Details defined by the sender.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl JsonRpcError {
    /// -32602, Invalid params: what a client answers to an `elicitation/create` with a mode it
    /// did not declare, or with a schema outside the restricted subset.
    pub const INVALID_PARAMS: i64 = -32602;
    /// -32042, URL elicitation required: the request needs URL-mode elicitations completed first.
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
}

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for JsonRpcError {}

/// `URLElicitationRequiredError`: the request cannot be processed until these URL-mode
/// elicitations complete (JSON-RPC code -32042, with `data.elicitations`).
///
/// Every entry is an [`ElicitRequestUrlParams`], so an entry that is not URL mode or has no
/// `elicitationId` cannot be represented, and the list is never empty. It serializes as the
/// JSON-RPC error object and reads back from one, through serde or [`TryFrom<&JsonRpcError>`].
///
/// ```
/// use elicit::{JsonRpcError, UrlElicitationRequiredError};
/// let error: JsonRpcError = serde_json::from_value(serde_json::json!({
///     "code": -32042,
///     "message": "This request requires more information.",
///     "data": {"elicitations": [{
///         "mode": "url",
///         "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
///         "url": "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
///         "message": "Authorization is required to access your Example Co files."
///     }]}
/// })).unwrap();
/// let required = UrlElicitationRequiredError::try_from(&error).unwrap();
/// assert_eq!(required.elicitations()[0].elicitation_id().as_str(), "550e8400-e29b-41d4-a716-446655440000");
///
/// let form_entry = serde_json::json!({"code": -32042, "message": "m", "data": {"elicitations": [
///     {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}
/// ]}});
/// let error: JsonRpcError = serde_json::from_value(form_entry).unwrap();
/// assert!(UrlElicitationRequiredError::try_from(&error).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UrlElicitationRequiredError {
    message: String,
    elicitations: Vec<ElicitRequestUrlParams>,
    /// Other members of `data`, kept so the error reads back as it was written.
    other_data: Map<String, Value>,
}

/// Why a JSON-RPC error is not a well-formed `URLElicitationRequiredError`, or why one cannot be
/// built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotUrlElicitationRequired {
    /// The code is not -32042.
    WrongCode {
        /// The code found.
        code: i64,
    },
    /// `data` is absent or not an object.
    MissingData,
    /// `data.elicitations` is absent or not an array.
    MissingElicitations,
    /// `data.elicitations` is empty: the error must list the elicitations required.
    NoElicitations,
    /// An entry of `data.elicitations` is not a URL-mode elicitation with an `elicitationId`.
    InvalidEntry {
        /// The entry's position.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for NotUrlElicitationRequired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotUrlElicitationRequired::WrongCode { code } => {
                write!(
                    f,
                    "error code {code} is not -32042 (URL elicitation required)"
                )
            }
            NotUrlElicitationRequired::MissingData => {
                f.write_str("`data` must be an object with `elicitations`")
            }
            NotUrlElicitationRequired::MissingElicitations => {
                f.write_str("`data.elicitations` must be an array of URL-mode elicitations")
            }
            NotUrlElicitationRequired::NoElicitations => f.write_str(
                "`data.elicitations` is empty: the error must list the URL elicitations required",
            ),
            NotUrlElicitationRequired::InvalidEntry { index, reason } => write!(
                f,
                "`data.elicitations[{index}]` is not a URL-mode elicitation with an elicitationId: {reason}"
            ),
        }
    }
}

impl std::error::Error for NotUrlElicitationRequired {}

impl UrlElicitationRequiredError {
    /// The error code, -32042.
    pub const CODE: i64 = JsonRpcError::URL_ELICITATION_REQUIRED;

    /// The error listing these elicitations, which must not be empty: the spec allows this
    /// error only when URL-mode elicitation is required.
    pub fn new(
        message: impl Into<String>,
        elicitations: impl IntoIterator<Item = ElicitRequestUrlParams>,
    ) -> Result<Self, NotUrlElicitationRequired> {
        let elicitations: Vec<_> = elicitations.into_iter().collect();
        if elicitations.is_empty() {
            return Err(NotUrlElicitationRequired::NoElicitations);
        }
        Ok(UrlElicitationRequiredError {
            message: message.into(),
            elicitations,
            other_data: Map::new(),
        })
    }

    /// The error for one elicitation, which no check can refuse.
    pub(crate) fn single(message: String, elicitation: ElicitRequestUrlParams) -> Self {
        UrlElicitationRequiredError {
            message,
            elicitations: vec![elicitation],
            other_data: Map::new(),
        }
    }

    /// The error's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The elicitations that must complete before the request is retried; never empty.
    pub fn elicitations(&self) -> &[ElicitRequestUrlParams] {
        &self.elicitations
    }

    /// The ids of those elicitations.
    pub fn elicitation_ids(&self) -> impl Iterator<Item = &ElicitationId> {
        self.elicitations
            .iter()
            .map(ElicitRequestUrlParams::elicitation_id)
    }

    /// The JSON-RPC error object to answer the request with.
    pub fn to_jsonrpc_error(&self) -> JsonRpcError {
        let mut data = self.other_data.clone();
        data.insert(
            "elicitations".to_owned(),
            Value::Array(self.elicitations.iter().map(url_params_value).collect()),
        );
        JsonRpcError {
            code: Self::CODE,
            message: self.message.clone(),
            data: Some(Value::Object(data)),
        }
    }
}

fn url_params_value(params: &ElicitRequestUrlParams) -> Value {
    let mut object = Map::new();
    object.insert("mode".to_owned(), Value::from("url"));
    object.insert(
        "elicitationId".to_owned(),
        Value::from(params.elicitation_id.as_str()),
    );
    object.insert("url".to_owned(), Value::from(params.url.as_str()));
    object.insert("message".to_owned(), Value::from(params.message.as_str()));
    if let Some(meta) = &params.meta {
        object.insert("_meta".to_owned(), Value::Object(meta.clone()));
    }
    Value::Object(object)
}

impl fmt::Display for UrlElicitationRequiredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} URL elicitation(s) required)",
            self.message,
            self.elicitations.len()
        )
    }
}

impl std::error::Error for UrlElicitationRequiredError {}

impl From<UrlElicitationRequiredError> for JsonRpcError {
    fn from(error: UrlElicitationRequiredError) -> Self {
        error.to_jsonrpc_error()
    }
}

impl From<&UrlElicitationRequiredError> for JsonRpcError {
    fn from(error: &UrlElicitationRequiredError) -> Self {
        error.to_jsonrpc_error()
    }
}

impl TryFrom<&JsonRpcError> for UrlElicitationRequiredError {
    type Error = NotUrlElicitationRequired;

    fn try_from(error: &JsonRpcError) -> Result<Self, Self::Error> {
        if error.code != Self::CODE {
            return Err(NotUrlElicitationRequired::WrongCode { code: error.code });
        }
        let Some(Value::Object(data)) = &error.data else {
            return Err(NotUrlElicitationRequired::MissingData);
        };
        let Some(Value::Array(entries)) = data.get("elicitations") else {
            return Err(NotUrlElicitationRequired::MissingElicitations);
        };
        let elicitations = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                ElicitRequestUrlParams::deserialize(entry).map_err(|e| {
                    NotUrlElicitationRequired::InvalidEntry {
                        index,
                        reason: e.to_string(),
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut required = UrlElicitationRequiredError::new(error.message.clone(), elicitations)?;
        required.other_data = data
            .iter()
            .filter(|(key, _)| *key != "elicitations")
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        Ok(required)
    }
}

impl TryFrom<JsonRpcError> for UrlElicitationRequiredError {
    type Error = NotUrlElicitationRequired;

    fn try_from(error: JsonRpcError) -> Result<Self, Self::Error> {
        UrlElicitationRequiredError::try_from(&error)
    }
}

impl Serialize for UrlElicitationRequiredError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_jsonrpc_error().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for UrlElicitationRequiredError {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let error = JsonRpcError::deserialize(deserializer)?;
        UrlElicitationRequiredError::try_from(&error).map_err(de::Error::custom)
    }
}

/// What the user did with a URL-mode elicitation, read from the client's [`ElicitResult`].
///
/// An accept means the user consented to open the URL, not that the interaction is done: that
/// is known only when the server completes it (see
/// [`ElicitationTracker::complete`](crate::server::ElicitationTracker::complete)).
///
/// ```
/// use elicit::{ElicitResult, UrlElicitOutcome};
/// let accept: ElicitResult = serde_json::from_str(r#"{"action": "accept"}"#).unwrap();
/// assert_eq!(UrlElicitOutcome::from_result(&accept), Ok(UrlElicitOutcome::Consented));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UrlElicitOutcome {
    /// The user consented to open the URL; the interaction goes on out of band.
    Consented,
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

/// A URL-mode result that carries form content: in URL mode no data but the URL passes the
/// client, so content there is a client bug the server should not act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnexpectedContent {
    /// The keys of the content sent.
    pub keys: Vec<String>,
}

impl fmt::Display for UnexpectedContent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a URL-mode result must carry no content, found keys {:?}",
            self.keys
        )
    }
}

impl std::error::Error for UnexpectedContent {}

impl UrlElicitOutcome {
    /// Reads a URL-mode result. Absent, `null` and empty `content` are accepted; content with
    /// any key is refused.
    pub fn from_result(result: &ElicitResult) -> Result<Self, UnexpectedContent> {
        if let Some(content) = result.content.as_ref().filter(|c| !c.is_empty()) {
            return Err(UnexpectedContent {
                keys: content.keys().cloned().collect(),
            });
        }
        Ok(match result.action {
            ElicitAction::Accept => UrlElicitOutcome::Consented,
            ElicitAction::Decline => UrlElicitOutcome::Declined,
            ElicitAction::Cancel => UrlElicitOutcome::Cancelled,
        })
    }
}

impl ElicitResult {
    /// The accept of a URL-mode elicitation: the user consented to open the URL. It carries no
    /// content.
    ///
    /// ```
    /// use elicit::ElicitResult;
    /// assert_eq!(serde_json::to_string(&ElicitResult::accept_url()).unwrap(), r#"{"action":"accept"}"#);
    /// ```
    pub fn accept_url() -> Self {
        ElicitResult {
            action: ElicitAction::Accept,
            content: None,
            meta: None,
        }
    }
}
