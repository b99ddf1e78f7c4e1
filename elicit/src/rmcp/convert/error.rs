//! Errors: -32042 and -32602 as rmcp's `ErrorData`.

use ::rmcp::model as sdk;

use crate::client::InvalidElicitRequestError;
use crate::form::error::ContentError;
use crate::wire::{JsonRpcError, NotUrlElicitationRequiredError, UrlElicitationRequiredError};

impl From<&UrlElicitationRequiredError> for sdk::ErrorData {
    /// The -32042 error, as the spec writes it: `data.elicitations` lists the URL-mode
    /// elicitations to complete. rmcp 3 has no such error of its own; a tool handler returns
    /// this as its `Err` and rmcp sends it unchanged.
    fn from(error: &UrlElicitationRequiredError) -> Self {
        let error = error.to_jsonrpc_error();
        sdk::ErrorData::new(
            sdk::ErrorCode(UrlElicitationRequiredError::CODE),
            error.message,
            error.data,
        )
    }
}

impl From<UrlElicitationRequiredError> for sdk::ErrorData {
    fn from(error: UrlElicitationRequiredError) -> Self {
        sdk::ErrorData::from(&error)
    }
}

impl TryFrom<&sdk::ErrorData> for UrlElicitationRequiredError {
    type Error = NotUrlElicitationRequiredError;

    /// Reads the -32042 error a client got from `call_tool` (as
    /// `ServiceError::McpError(error)`).
    fn try_from(error: &sdk::ErrorData) -> Result<Self, NotUrlElicitationRequiredError> {
        UrlElicitationRequiredError::try_from(&JsonRpcError::from(error))
    }
}

impl From<&sdk::ErrorData> for JsonRpcError {
    fn from(error: &sdk::ErrorData) -> Self {
        JsonRpcError {
            code: error.code.0,
            message: error.message.to_string(),
            data: error.data.clone(),
        }
    }
}

impl From<&JsonRpcError> for sdk::ErrorData {
    fn from(error: &JsonRpcError) -> Self {
        sdk::ErrorData::new(
            sdk::ErrorCode(error.code),
            error.message.clone(),
            error.data.clone(),
        )
    }
}

impl From<InvalidElicitRequestError> for sdk::ErrorData {
    /// The -32602 a client answers a request it refuses with.
    fn from(error: InvalidElicitRequestError) -> Self {
        let error = error.to_jsonrpc_error();
        sdk::ErrorData::invalid_params(error.message, error.data)
    }
}

impl From<&ContentError> for sdk::ErrorData {
    /// Invalid params, the message listing every field error and `data` carrying them as
    /// `{"errors": [{"field", "message"}]}`.
    fn from(error: &ContentError) -> Self {
        sdk::ErrorData::invalid_params(error.to_string(), serde_json::to_value(error).ok())
    }
}
