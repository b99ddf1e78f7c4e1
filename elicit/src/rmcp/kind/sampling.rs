//! The client's model sampling a message (`sampling/createMessage`).

// rmcp deprecates sampling (SEP-2577); 2026-07-28 still has it.
#![allow(deprecated)]

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;
use serde::Deserialize;
use serde_json::Value;

use super::{Answer, KindOfAsk};
use crate::rmcp::error::ElicitError;

/// The method it goes out as.
pub(crate) const METHOD: &str = "sampling/createMessage";

/// A sampling request, with its params as the handler gave them.
pub(crate) struct Sampling(pub sdk::CreateMessageRequestParams);

impl KindOfAsk for Sampling {
    fn method(&self) -> &'static str {
        METHOD
    }

    /// The client must have declared `sampling`, and sampling tools if the params give tools;
    /// the params must be valid. What rmcp's `create_message` checks, on both revisions.
    fn check(&self, client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError> {
        let Sampling(params) = self;
        let sampling = client.and_then(|client| client.sampling.as_ref());
        if sampling.is_none() {
            return Err(ElicitError::CapabilityNotDeclared {
                capability: "sampling",
            });
        }
        let refused = |message: String| {
            ElicitError::Service(ServiceError::McpError(sdk::ErrorData::invalid_params(
                message, None,
            )))
        };
        let tools_declared = sampling.and_then(|s| s.tools.as_ref()).is_some();
        if (params.tools.is_some() || params.tool_choice.is_some()) && !tools_declared {
            return Err(refused(
                "tools or toolChoice given, but the client did not declare sampling tools"
                    .to_owned(),
            ));
        }
        params.validate().map_err(refused)
    }

    fn session_request(&self) -> Result<sdk::ServerRequest, ElicitError> {
        Ok(sdk::ServerRequest::CreateMessageRequest(
            sdk::CreateMessageRequest::new(self.0.clone()),
        ))
    }

    fn read_session_result(&self, result: sdk::ClientResult) -> Result<Answer, ElicitError> {
        match result {
            sdk::ClientResult::CreateMessageResult(result) => Ok(Answer::Sampling(result)),
            _ => Err(ElicitError::Service(ServiceError::UnexpectedResponse)),
        }
    }

    fn input_request(&self) -> Result<sdk::InputRequest, ElicitError> {
        Ok(sdk::InputRequest::CreateMessage(
            sdk::CreateMessageRequest::new(self.0.clone()),
        ))
    }

    fn read(&self, response: &Value) -> Option<Answer> {
        sdk::CreateMessageResult::deserialize(response)
            .ok()
            .map(|result| Answer::Sampling(Box::new(result)))
    }

    fn read_owned(&self, response: Value) -> Option<Answer> {
        sdk::CreateMessageResult::deserialize(response)
            .ok()
            .map(|result| Answer::Sampling(Box::new(result)))
    }
}
