//! What a client checks in an incoming `elicitation/create`, and in its own answer before
//! sending it.

use std::fmt;

use serde::Deserialize;
use serde_json::{Map, Value, json};

#[cfg(feature = "url-mode")]
use crate::client::review::{UrlReview, UrlReviewError};
use crate::form::error::ContentError;
use crate::schema::{RequestedSchema, SchemaError};
use crate::wire::{
    ElicitMode, ElicitRequestParams, ElicitResult, ElicitationCapability, JsonRpcError,
    ModeNotSupportedError, UnknownMode,
};

/// Why a client refuses an `elicitation/create`. Every case is answered with -32602 (Invalid
/// params): see [`to_jsonrpc_error`](InvalidElicitRequestError::to_jsonrpc_error).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidElicitRequestError {
    /// The params are not a JSON object.
    NotAnObject,
    /// `mode` is neither `"form"` nor `"url"`.
    UnknownMode {
        /// The mode sent.
        mode: String,
    },
    /// The mode is one this client did not declare in its capabilities.
    ModeNotDeclared(ModeNotSupportedError),
    /// The form's `requestedSchema` lies outside the spec's restricted subset.
    InvalidSchema(SchemaError),
    /// The `url` of a URL-mode request is not an absolute http(s) URL, so there is nothing the
    /// client could safely offer to open.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    InvalidUrl(UrlReviewError),
    /// A required member is missing or of the wrong type.
    Malformed {
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for InvalidElicitRequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidElicitRequestError::NotAnObject => {
                f.write_str("the elicitation/create params must be an object")
            }
            InvalidElicitRequestError::UnknownMode { mode } => write!(
                f,
                "unknown elicitation mode \"{mode}\" (expected \"form\" or \"url\")"
            ),
            InvalidElicitRequestError::ModeNotDeclared(e) => e.fmt(f),
            InvalidElicitRequestError::InvalidSchema(e) => e.fmt(f),
            #[cfg(feature = "url-mode")]
            InvalidElicitRequestError::InvalidUrl(e) => write!(f, "`url`: {e}"),
            InvalidElicitRequestError::Malformed { reason } => {
                write!(f, "invalid elicitation/create params: {reason}")
            }
        }
    }
}

impl std::error::Error for InvalidElicitRequestError {}

impl InvalidElicitRequestError {
    /// The -32602 error to answer the request with. Its message says what was wrong (for a
    /// schema, which property and keyword); its `data` carries the same as fields: `mode`, or
    /// `property` and `keyword`.
    pub fn to_jsonrpc_error(&self) -> JsonRpcError {
        let data = match self {
            InvalidElicitRequestError::UnknownMode { mode } => Some(json!({ "mode": mode })),
            InvalidElicitRequestError::ModeNotDeclared(e) => {
                Some(json!({ "mode": e.mode.as_str() }))
            }
            InvalidElicitRequestError::InvalidSchema(e) => {
                Some(json!({ "property": e.property(), "keyword": e.keyword() }))
            }
            #[cfg(feature = "url-mode")]
            InvalidElicitRequestError::InvalidUrl(_) => Some(json!({ "property": "url" })),
            InvalidElicitRequestError::NotAnObject
            | InvalidElicitRequestError::Malformed { .. } => None,
        };
        JsonRpcError {
            code: JsonRpcError::INVALID_PARAMS,
            message: self.to_string(),
            data,
        }
    }
}

impl From<InvalidElicitRequestError> for JsonRpcError {
    fn from(error: InvalidElicitRequestError) -> Self {
        error.to_jsonrpc_error()
    }
}

/// Validates the params of an incoming `elicitation/create` against what this client declared
/// (`declared`: its `elicitation` capability, `None` if it declared none).
///
/// In order: the params must be an object; the mode (absent means form) must be known and
/// declared; a form's `requestedSchema` must lie in the restricted subset; the params must have
/// the members their mode needs; and a URL-mode `url` must be an absolute http(s) URL (the spec
/// requires a valid URL, and nothing else can be opened safely). Each failure is an
/// [`InvalidElicitRequestError`] to answer with -32602.
///
/// ```
/// use elicit_mcp::wire::ElicitationCapability;
/// use elicit_mcp::client::validate_request;
///
/// let form_only = ElicitationCapability::form();
/// let url = serde_json::json!({"mode": "url", "elicitationId": "42",
///     "url": "https://example.com/", "message": "Connect"});
/// let err = validate_request(&url, Some(&form_only)).unwrap_err();
/// assert_eq!(err.to_jsonrpc_error().code, -32602);
///
/// let nested = serde_json::json!({"message": "Address?", "requestedSchema": {"type": "object",
///     "properties": {"address": {"type": "object"}}}});
/// let err = validate_request(&nested, Some(&form_only)).unwrap_err();
/// assert!(err.to_jsonrpc_error().message.contains("property `address`"));
/// ```
pub fn validate_request(
    params: &Value,
    declared: Option<&ElicitationCapability>,
) -> Result<ElicitRequestParams, InvalidElicitRequestError> {
    let Value::Object(members) = params else {
        return Err(InvalidElicitRequestError::NotAnObject);
    };
    let mode = mode_of(members)?;
    ElicitationCapability::require(declared, mode)
        .map_err(InvalidElicitRequestError::ModeNotDeclared)?;
    // Built without URL mode, this client has no way to review a URL before offering it, so
    // it cannot take part in URL mode whatever its capability says.
    #[cfg(not(feature = "url-mode"))]
    if mode == ElicitMode::Url {
        return Err(InvalidElicitRequestError::ModeNotDeclared(
            ModeNotSupportedError {
                mode,
                elicitation_declared: declared.is_some(),
            },
        ));
    }
    if mode == ElicitMode::Form {
        match members.get("requestedSchema") {
            Some(schema) => {
                RequestedSchema::from_value(schema)
                    .map_err(InvalidElicitRequestError::InvalidSchema)?;
            }
            None => {
                return Err(InvalidElicitRequestError::Malformed {
                    reason: "missing field `requestedSchema`".to_owned(),
                });
            }
        }
    }
    let params = ElicitRequestParams::deserialize(params).map_err(|e| {
        InvalidElicitRequestError::Malformed {
            reason: e.to_string(),
        }
    })?;
    #[cfg(feature = "url-mode")]
    if let ElicitRequestParams::Url(url) = &params {
        UrlReview::of(url).map_err(InvalidElicitRequestError::InvalidUrl)?;
    }
    Ok(params)
}

fn mode_of(members: &Map<String, Value>) -> Result<ElicitMode, InvalidElicitRequestError> {
    let mode = match members.get("mode") {
        None | Some(Value::Null) => None,
        Some(Value::String(mode)) => Some(mode.as_str()),
        Some(_) => {
            return Err(InvalidElicitRequestError::Malformed {
                reason: "`mode` must be a string".to_owned(),
            });
        }
    };
    ElicitMode::from_wire(mode)
        .map_err(|UnknownMode(mode)| InvalidElicitRequestError::UnknownMode { mode })
}

/// The accept to send for a form the user filled in: fields the user left out take the
/// schema's `default` (what conformance scenario `elicitation-sep1034-client-defaults` checks),
/// then the content is validated against the schema, with the same checks a server runs
/// ([`RequestedSchema::validate_content`]), so a client never sends what the server will reject.
///
/// ```
/// use elicit_mcp::schema::RequestedSchema;
/// use elicit_mcp::client::accept_form;
/// let schema: RequestedSchema = serde_json::from_str(r#"{"type": "object", "properties": {
///     "name": {"type": "string", "default": "John Doe"},
///     "age": {"type": "integer", "minimum": 0, "default": 30}
/// }}"#).unwrap();
///
/// let result = accept_form(&schema, serde_json::Map::new()).unwrap();
/// assert_eq!(serde_json::to_value(&result).unwrap(), serde_json::json!({
///     "action": "accept", "content": {"name": "John Doe", "age": 30}
/// }));
///
/// let bad = serde_json::json!({"age": -1});
/// let err = accept_form(&schema, bad.as_object().unwrap().clone()).unwrap_err();
/// assert_eq!(err.errors()[0].field(), "age");
/// ```
pub fn accept_form(
    schema: &RequestedSchema,
    mut content: Map<String, Value>,
) -> Result<ElicitResult, ContentError> {
    schema.apply_defaults(&mut content);
    schema.validate_content(&content)?;
    Ok(ElicitResult::accept(content))
}
