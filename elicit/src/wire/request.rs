//! The params of `elicitation/create` of either mode, and the whole request.

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::capability::{ElicitationCapability, ModeNotSupportedError};
use super::form::ElicitRequestFormParams;
use super::jsonrpc::{RequestId, check_envelope};
use super::mode::ElicitMode;
use super::url::{ElicitRequestUrlParams, ElicitationId};
use crate::schema::RequestedSchema;

/// The params of `elicitation/create`, of either mode.
///
/// Reading them follows the spec: a request without `mode` is form mode, `"form"` is form mode,
/// `"url"` is URL mode (and then needs `message`, `url` and `elicitationId`), and any other mode
/// is an error. A client that must answer a bad request with -32602 uses
/// [`client::validate_request`](crate::client::validate_request) instead, which says what was
/// wrong in a typed error.
///
/// ```
/// use elicit_mcp::wire::{ElicitMode, ElicitRequestParams};
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
#[non_exhaustive]
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
        match ElicitMode::from_wire(wire.mode.as_deref()).map_err(de::Error::custom)? {
            ElicitMode::Form => {
                let schema = wire
                    .requested_schema
                    .ok_or_else(|| de::Error::missing_field("requestedSchema"))?;
                let mut form = ElicitRequestFormParams::new(message, schema);
                form.meta = wire.meta;
                Ok(ElicitRequestParams::Form(form))
            }
            ElicitMode::Url => Ok(ElicitRequestParams::Url(
                ElicitRequestUrlParams::from_parts(
                    message,
                    wire.url.ok_or_else(|| de::Error::missing_field("url"))?,
                    wire.elicitation_id
                        .ok_or_else(|| de::Error::missing_field("elicitationId"))?,
                    wire.meta,
                ),
            )),
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
/// use elicit_mcp::wire::{ElicitRequest, ElicitRequestParams, ElicitationCapability, RequestId};
/// let params: ElicitRequestParams = serde_json::from_str(r#"{"mode": "url",
///     "elicitationId": "42", "url": "https://example.com/", "message": "Connect"}"#).unwrap();
///
/// let form_only = ElicitationCapability::form();
/// let id = RequestId::from(1);
/// let err = ElicitRequest::new(id, params.clone(), Some(&form_only)).unwrap_err();
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
    ) -> Result<Self, ModeNotSupportedError> {
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
    #[cfg(feature = "url-mode")]
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
