//! The input request of protocol 2026-07-28 (SEP-2322, "multi round-trip requests"): what an
//! ask sends, in rmcp's model. The rounds send it in an `InputRequiredResult`; a task sends
//! it in its `inputRequests`, on either revision.

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use std::borrow::Cow;

use ::rmcp::model as sdk;

use crate::rmcp::convert::{Patterns, form_to_sdk};
use crate::rmcp::error::ElicitError;
use crate::rmcp::request::{Request, list_roots};
use crate::schema::RequestedSchema;
use crate::wire::{ElicitMode, ElicitRequestFormParams, ElicitationCapability};

/// `request` as an input request, in rmcp's model. A URL-mode request carries the tracker's
/// id: the client shows it and may match it to a completion; a form carries none.
pub(crate) fn input_request(
    request: &Request,
    client: Option<&sdk::ClientCapabilities>,
) -> Result<sdk::InputRequest, ElicitError> {
    match request {
        Request::Form {
            schema, message, ..
        } => {
            let declared = client
                .and_then(|client| client.elicitation.as_ref())
                .map(ElicitationCapability::from);
            form_input_request(schema.clone(), declared.as_ref(), message.clone())
        }
        #[cfg(feature = "url-mode")]
        Request::Url(params) => Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
            sdk::ElicitRequestParams::UrlElicitationParams {
                meta: None,
                message: params.message().to_owned(),
                url: params.url().to_owned(),
                elicitation_id: params.elicitation_id().as_str().to_owned(),
            },
        ))),
        Request::Sampling(params) => Ok(sdk::InputRequest::CreateMessage(
            sdk::CreateMessageRequest::new(params.clone()),
        )),
        Request::Roots => Ok(sdk::InputRequest::ListRoots(list_roots())),
    }
}

/// The input request asking for `schema` with `message`, once the client declared form mode.
///
/// It goes through rmcp's model, which has no `pattern`: a string's pattern is not sent on
/// 2026-07-28 (the server still checks it in the answer).
fn form_input_request(
    schema: Cow<'static, RequestedSchema>,
    client: Option<&ElicitationCapability>,
    message: String,
) -> Result<sdk::InputRequest, ElicitError> {
    ElicitationCapability::require(client, ElicitMode::Form)?;
    let params = form_to_sdk(
        &ElicitRequestFormParams::new(message, schema),
        Patterns::Omit,
    )
    .map_err(ElicitError::Unrepresentable)?;
    Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
        params,
    )))
}
