//! The input-required flow of protocol 2026-07-28 (SEP-2322, "multi round-trip requests"),
//! with the same derived types.
//!
//! The form is the same derived type: [`input_required`] puts its schema in the result, and
//! [`form_input_response`] reads the retry's answer with the derived parser; the flow is
//! described on [`input_required`].

use ::rmcp::model as sdk;
use serde::Deserialize;

use crate::rmcp::convert::{InvalidResultError, Patterns, form_to_sdk};
use crate::rmcp::peer::ElicitError;
use crate::wire::ElicitMode;
use crate::wire::ElicitationCapability;
use crate::wire::{ElicitOutcome, ElicitResult};
use crate::{Elicit, HasMessage};

/// The input request asking for form `T` with `message`, to put in an `InputRequiredResult`'s
/// `inputRequests`. `client` is the `elicitation` capability the client declared (on
/// 2026-07-28 it comes with each request: `RequestContext::client_capabilities`); a client
/// that did not declare form mode is refused.
///
/// As with the form call, a string field's `pattern` is not in rmcp's model and is not sent;
/// the parser still checks it. [`input_required`] builds the whole result around one request;
/// this is for a result that asks for several.
pub fn form_input_request<T: Elicit>(
    client: Option<&ElicitationCapability>,
    message: impl Into<String>,
) -> Result<sdk::InputRequest, ElicitError> {
    ElicitationCapability::require(client, ElicitMode::Form)?;
    let params = form_to_sdk(&T::form_request_with(message), Patterns::Omit)
        .map_err(ElicitError::Unrepresentable)?;
    Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
        params,
    )))
}

/// The `InputRequiredResult` asking for form `T` (with the message of its
/// `#[elicit(message = "..")]`) under `key`: what a tool answers in its first round.
///
/// From 2026-07-28 a server may not send `elicitation/create` to the client. A tool instead
/// answers `tools/call` with an `InputRequiredResult` whose `inputRequests` map holds the
/// elicitation under a key of the server's choosing; the client answers it and retries the call
/// with `inputResponses` holding the `ElicitResult` under the same key. rmcp models both sides
/// (`CallToolResponse::InputRequired`, `CallToolRequestParams::input_responses`), and its
/// client's `call_tool` answers the requests through its `ClientHandler` and retries by itself.
///
/// A tool's two rounds: the first answers with this, the retry reads the answer with
/// [`form_input_response`].
///
/// ```
/// use elicit_mcp::{Elicit, ElicitOutcome, ElicitationCapability};
/// use elicit_mcp::rmcp::{form_input_response, input_required};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(message = "Please provide your GitHub username")]
/// struct GitHub {
///     name: String,
/// }
///
/// // First round: no answer yet, so ask.
/// let client = ElicitationCapability::form();
/// let result = input_required::<GitHub>(Some(&client), "github").unwrap();
/// let json = serde_json::to_value(&result).unwrap();
/// assert_eq!(json["resultType"], "input_required");
/// assert_eq!(json["inputRequests"]["github"]["method"], "elicitation/create");
///
/// // The retry carries the client's answer under the same key.
/// let responses = serde_json::from_value(serde_json::json!({
///     "github": {"action": "accept", "content": {"name": "octocat"}}
/// })).unwrap();
/// let outcome = form_input_response::<GitHub>(Some(&responses), "github").unwrap().unwrap();
/// assert!(matches!(outcome, ElicitOutcome::Accepted(GitHub { name }) if name == "octocat"));
/// ```
pub fn input_required<T: HasMessage>(
    client: Option<&ElicitationCapability>,
    key: impl Into<String>,
) -> Result<sdk::InputRequiredResult, ElicitError> {
    let request = form_input_request::<T>(client, <T as HasMessage>::MESSAGE)?;
    let mut requests = sdk::InputRequests::new();
    requests.insert(key.into(), request);
    Ok(sdk::InputRequiredResult::from_input_requests(requests))
}

/// The client's answer for form `T` under `key` in a retried call's `inputResponses`, parsed
/// and validated: `None` when there is no answer under `key` (the first round), otherwise the
/// typed outcome, or every field error of a bad answer. See [`input_required`] for both rounds.
pub fn form_input_response<T: Elicit>(
    responses: Option<&sdk::InputResponses>,
    key: &str,
) -> Option<Result<ElicitOutcome<T>, ElicitError>> {
    let response = responses?.get(key)?;
    Some(match ElicitResult::deserialize(response) {
        Ok(result) => T::from_result(&result).map_err(ElicitError::InvalidContent),
        Err(e) => Err(ElicitError::InvalidResult(InvalidResultError::new(
            format!("the input response under `{key}` is not an elicitation result: {e}"),
        ))),
    })
}
