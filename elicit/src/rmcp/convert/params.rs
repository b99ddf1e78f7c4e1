//! Request params: `elicitation/create` of both modes.

use ::rmcp::model as sdk;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::Unrepresentable;
use super::schema::{Patterns, to_sdk_schema};
use crate::client::InvalidElicitRequest;
use crate::schema::RequestedSchema;
use crate::wire::ElicitRequestFormParams;
use crate::wire::{ElicitRequestParams, ElicitRequestUrlParams};

fn meta_to_sdk(meta: &Option<Map<String, Value>>) -> Option<sdk::RequestMetaObject> {
    meta.clone()
        .map(|m| sdk::RequestMetaObject(sdk::MetaObject(m)))
}

fn meta_from_sdk(meta: &Option<sdk::RequestMetaObject>) -> Option<Map<String, Value>> {
    meta.as_ref().map(|m| m.0.0.clone())
}

pub(crate) fn form_to_sdk(
    params: &ElicitRequestFormParams,
    patterns: Patterns,
) -> Result<sdk::ElicitRequestParams, Unrepresentable> {
    Ok(sdk::ElicitRequestParams::FormElicitationParams {
        meta: meta_to_sdk(&params.meta),
        message: params.message.clone(),
        requested_schema: to_sdk_schema(&params.requested_schema, patterns)?,
    })
}

impl TryFrom<&ElicitRequestFormParams> for sdk::ElicitRequestParams {
    type Error = Unrepresentable;

    fn try_from(params: &ElicitRequestFormParams) -> Result<Self, Unrepresentable> {
        form_to_sdk(params, Patterns::Refuse)
    }
}

impl From<&ElicitRequestUrlParams> for sdk::ElicitRequestParams {
    fn from(params: &ElicitRequestUrlParams) -> Self {
        sdk::ElicitRequestParams::UrlElicitationParams {
            meta: meta_to_sdk(&params.meta().cloned()),
            message: params.message().to_owned(),
            url: params.url().to_owned(),
            elicitation_id: params.elicitation_id().as_str().to_owned(),
        }
    }
}

impl TryFrom<&ElicitRequestParams> for sdk::ElicitRequestParams {
    type Error = Unrepresentable;

    fn try_from(params: &ElicitRequestParams) -> Result<Self, Unrepresentable> {
        match params {
            ElicitRequestParams::Form(form) => sdk::ElicitRequestParams::try_from(form),
            ElicitRequestParams::Url(url) => Ok(url.into()),
        }
    }
}

impl TryFrom<&sdk::ElicitRequestParams> for ElicitRequestParams {
    type Error = InvalidElicitRequest;

    /// The params in elicit's model. A form's schema goes through the same checks as one read
    /// from the wire, so a client can answer a failure with -32602 as it is
    /// ([`InvalidElicitRequest`] converts into rmcp's `ErrorData`).
    fn try_from(params: &sdk::ElicitRequestParams) -> Result<Self, InvalidElicitRequest> {
        match params {
            sdk::ElicitRequestParams::FormElicitationParams {
                meta,
                message,
                requested_schema,
            } => {
                let schema = RequestedSchema::try_from(requested_schema)
                    .map_err(InvalidElicitRequest::InvalidSchema)?;
                let mut form = ElicitRequestFormParams::new(message.clone(), schema);
                form.meta = meta_from_sdk(meta);
                Ok(ElicitRequestParams::Form(form))
            }
            sdk::ElicitRequestParams::UrlElicitationParams {
                meta,
                message,
                url,
                elicitation_id,
            } => {
                let mut wire = json!({
                    "mode": "url",
                    "message": message,
                    "url": url,
                    "elicitationId": elicitation_id,
                });
                if let (Some(meta), Value::Object(wire)) = (meta_from_sdk(meta), &mut wire) {
                    wire.insert("_meta".to_owned(), Value::Object(meta));
                }
                ElicitRequestUrlParams::deserialize(wire)
                    .map(ElicitRequestParams::Url)
                    .map_err(|e| InvalidElicitRequest::Malformed {
                        reason: e.to_string(),
                    })
            }
            _ => Err(InvalidElicitRequest::Malformed {
                reason: "an elicitation mode this crate does not know".to_owned(),
            }),
        }
    }
}
