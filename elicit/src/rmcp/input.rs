//! The input request of protocol 2026-07-28 (SEP-2322, "multi round-trip requests") for a
//! form: the same derived schema, in rmcp's model.

use std::borrow::Cow;

use ::rmcp::model as sdk;

use crate::rmcp::convert::{Patterns, form_to_sdk};
use crate::rmcp::error::ElicitError;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitMode, ElicitRequestFormParams, ElicitationCapability};

/// The input request asking for `schema` with `message`, once the client declared form mode.
///
/// It goes through rmcp's model, which has no `pattern`: a string's pattern is not sent on
/// 2026-07-28 (the server still checks it in the answer).
pub(crate) fn form_input_request(
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
