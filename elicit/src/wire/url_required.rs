//! `URLElicitationRequiredError` (-32042): a request that cannot go on until URL-mode
//! elicitations complete.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::jsonrpc::JsonRpcError;
use super::url::{ElicitRequestUrlParams, ElicitationId};

/// `URLElicitationRequiredError`: the request cannot be processed until these URL-mode
/// elicitations complete (JSON-RPC code -32042, with `data.elicitations`).
///
/// Every entry is an [`ElicitRequestUrlParams`], so an entry that is not URL mode or has no
/// `elicitationId` cannot be represented, and the list is never empty. It serializes as the
/// JSON-RPC error object and reads back from one, through serde or [`TryFrom<&JsonRpcError>`].
///
/// ```
/// use elicit_mcp::wire::{JsonRpcError, UrlElicitationRequiredError};
/// let url = "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000";
/// let error: JsonRpcError = serde_json::from_value(serde_json::json!({
///     "code": -32042,
///     "message": "This request requires more information.",
///     "data": {"elicitations": [{
///         "mode": "url",
///         "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
///         "url": url,
///         "message": "Authorization is required to access your Example Co files."
///     }]}
/// })).unwrap();
/// let required = UrlElicitationRequiredError::try_from(&error).unwrap();
/// assert_eq!(
///     required.elicitations()[0].elicitation_id().as_str(),
///     "550e8400-e29b-41d4-a716-446655440000"
/// );
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
pub enum NotUrlElicitationRequiredError {
    /// The code is not -32042.
    WrongCode {
        /// The code found.
        code: i32,
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

impl fmt::Display for NotUrlElicitationRequiredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotUrlElicitationRequiredError::WrongCode { code } => {
                write!(
                    f,
                    "error code {code} is not -32042 (URL elicitation required)"
                )
            }
            NotUrlElicitationRequiredError::MissingData => {
                f.write_str("`data` must be an object with `elicitations`")
            }
            NotUrlElicitationRequiredError::MissingElicitations => {
                f.write_str("`data.elicitations` must be an array of URL-mode elicitations")
            }
            NotUrlElicitationRequiredError::NoElicitations => f.write_str(
                "`data.elicitations` is empty: the error must list the URL elicitations required",
            ),
            NotUrlElicitationRequiredError::InvalidEntry { index, reason } => write!(
                f,
                "`data.elicitations[{index}]` is not a URL-mode elicitation with an elicitationId: {reason}"
            ),
        }
    }
}

impl std::error::Error for NotUrlElicitationRequiredError {}

impl UrlElicitationRequiredError {
    /// The error code, -32042.
    pub const CODE: i32 = JsonRpcError::URL_ELICITATION_REQUIRED;

    /// The error listing these elicitations, which must not be empty: the spec allows this
    /// error only when URL-mode elicitation is required.
    pub fn new(
        message: impl Into<String>,
        elicitations: impl IntoIterator<Item = ElicitRequestUrlParams>,
    ) -> Result<Self, NotUrlElicitationRequiredError> {
        let elicitations: Vec<_> = elicitations.into_iter().collect();
        if elicitations.is_empty() {
            return Err(NotUrlElicitationRequiredError::NoElicitations);
        }
        Ok(UrlElicitationRequiredError {
            message: message.into(),
            elicitations,
            other_data: Map::new(),
        })
    }

    /// The error for one elicitation, which no check can refuse.
    #[cfg(feature = "url-mode")]
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

/// An entry of `data.elicitations`: the params exactly as their `Serialize` writes them.
fn url_params_value(params: &ElicitRequestUrlParams) -> Value {
    // Strings and a JSON object only: serializing them into a `Value` cannot fail.
    serde_json::to_value(params).expect("URL-mode params serialize into a JSON value")
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
    type Error = NotUrlElicitationRequiredError;

    fn try_from(error: &JsonRpcError) -> Result<Self, Self::Error> {
        if error.code != Self::CODE {
            return Err(NotUrlElicitationRequiredError::WrongCode { code: error.code });
        }
        let Some(Value::Object(data)) = &error.data else {
            return Err(NotUrlElicitationRequiredError::MissingData);
        };
        let Some(Value::Array(entries)) = data.get("elicitations") else {
            return Err(NotUrlElicitationRequiredError::MissingElicitations);
        };
        let elicitations = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                ElicitRequestUrlParams::deserialize(entry).map_err(|e| {
                    NotUrlElicitationRequiredError::InvalidEntry {
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
    type Error = NotUrlElicitationRequiredError;

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
