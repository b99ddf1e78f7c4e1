//! What a form and a URL-mode elicitation share: both go out as `elicitation/create`, and
//! both are answered with an elicitation result.

use std::sync::Arc;

use ::rmcp::model as sdk;
use serde::Deserialize;
use serde_json::Value;

use super::Answer;
use crate::rmcp::convert::{InvalidResultError, UnrepresentableError};
use crate::rmcp::error::ElicitError;
use crate::wire::{ElicitAction, ElicitRequest, ElicitRequestParams, ElicitResult};

/// The method both go out as.
pub(crate) const METHOD: &str = ElicitRequest::METHOD;

/// `elicitation/create` with the params as elicit writes them, as a request on a 2025-11-25
/// session.
///
/// It goes out as an rmcp custom request, not through rmcp's `ElicitRequestParams`: rmcp's
/// schema model has no `pattern`, and the custom request carries the params as they are. rmcp
/// still does the rest as for its own requests (the protocol-version gate, the request id, the
/// progress token in `_meta`, the timeout), and its client reads the request as the
/// `elicitation/create` it is.
pub(crate) fn session_request(
    params: &ElicitRequestParams,
) -> Result<sdk::ServerRequest, ElicitError> {
    let params = serde_json::to_value(params)
        .map_err(|e| ElicitError::Unrepresentable(UnrepresentableError::unserializable(e)))?;
    Ok(sdk::ServerRequest::CustomRequest(sdk::CustomRequest::new(
        METHOD,
        Some(params),
    )))
}

/// The elicitation result the client answered [`session_request`] with.
pub(crate) fn session_result(result: sdk::ClientResult) -> Result<ElicitResult, ElicitError> {
    match result {
        sdk::ClientResult::ElicitResult(result) => {
            ElicitResult::try_from(&result).map_err(ElicitError::InvalidResult)
        }
        // rmcp reads a result it has no type for as a custom one.
        sdk::ClientResult::CustomResult(sdk::CustomResult(value)) => {
            ElicitResult::deserialize(&value)
                .map_err(|e| ElicitError::InvalidResult(InvalidResultError::new(e.to_string())))
        }
        _ => Err(ElicitError::InvalidResult(InvalidResultError::new(
            "the client answered elicitation/create with another kind of result",
        ))),
    }
}

/// [`session_result`] as an answer.
pub(super) fn session_answer(result: sdk::ClientResult) -> Result<Answer, ElicitError> {
    session_result(result).map(|result| Answer::Elicitation(Arc::new(result)))
}

/// A response that is an elicitation result, borrowed.
pub(super) fn read(response: &Value) -> Option<Answer> {
    ElicitResult::deserialize(response)
        .ok()
        .map(|result| Answer::Elicitation(Arc::new(result)))
}

/// [`read`] of a response given away: a result is taken apart in place, its content moving
/// into the answer whole, where the derived read would rebuild it key by key. The same answers
/// as `read`, the same refusals (a test holds it to that).
pub(super) fn read_owned(response: Value) -> Option<Answer> {
    let Value::Object(mut result) = response else {
        return read(&response);
    };
    let action = ElicitAction::deserialize(result.remove("action")?).ok()?;
    let mut object = |name: &str| match result.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(object)) => Ok(Some(object)),
        Some(_) => Err(()),
    };
    let content = object("content").ok()?;
    let meta = object("_meta").ok()?;
    Some(Answer::Elicitation(Arc::new(ElicitResult {
        action,
        content,
        meta,
    })))
}
