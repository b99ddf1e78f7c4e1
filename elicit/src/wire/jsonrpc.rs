//! JSON-RPC pieces every message of elicitation shares: the request id, the error object, and
//! the envelope check.

use std::fmt;

use serde::de;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// A JSON-RPC error object: `{"code", "message", "data"?}`.
///
/// The typed errors of this crate that travel as JSON-RPC errors convert into it:
/// [`UrlElicitationRequiredError`](crate::wire::UrlElicitationRequiredError) (-32042) and the
/// client's [`InvalidElicitRequestError`](crate::client::InvalidElicitRequestError) (-32602).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcError {
    /// The error code. JSON-RPC's codes, the spec's and rmcp's (`ErrorCode`) are all `i32`s;
    /// a code past that range is refused when the error is read.
    pub code: i32,
    /// A short description, one sentence.
    pub message: String,
    /// Details defined by the sender.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// The error codes of elicitation, together.
impl JsonRpcError {
    /// -32602, Invalid params: what a client answers to an `elicitation/create` with a mode it
    /// did not declare, or with a schema outside the restricted subset.
    pub const INVALID_PARAMS: i32 = -32602;
    /// -32042, URL elicitation required: the request needs URL-mode elicitations completed first.
    pub const URL_ELICITATION_REQUIRED: i32 = -32042;
    /// -32021, 2026-07-28's `MissingRequiredClientCapabilityError`: the request needs a client
    /// capability (here, elicitation) that the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
}

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for JsonRpcError {}

pub(crate) fn check_envelope<E: de::Error>(
    jsonrpc: &str,
    method: &str,
    expected: &str,
) -> Result<(), E> {
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
