//! The client's roots (`roots/list`).

// rmcp deprecates roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;
use serde::Deserialize;
use serde_json::Value;

use super::{Answer, KindOfAsk};
use crate::rmcp::error::ElicitError;

/// The method it goes out as.
pub(crate) const METHOD: &str = "roots/list";

/// A request for the client's roots; it has no params.
pub(crate) struct Roots;

impl KindOfAsk for Roots {
    fn method(&self) -> &'static str {
        METHOD
    }

    /// The client must have declared `roots`.
    fn check(&self, client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError> {
        match client {
            Some(client) if client.roots.is_some() => Ok(()),
            _ => Err(ElicitError::CapabilityNotDeclared {
                capability: "roots",
            }),
        }
    }

    fn session_request(&self) -> Result<sdk::ServerRequest, ElicitError> {
        Ok(sdk::ServerRequest::ListRootsRequest(list_roots()))
    }

    fn read_session_result(&self, result: sdk::ClientResult) -> Result<Answer, ElicitError> {
        match result {
            sdk::ClientResult::ListRootsResult(result) => Ok(Answer::Roots(result)),
            _ => Err(ElicitError::Service(ServiceError::UnexpectedResponse)),
        }
    }

    fn input_request(&self) -> Result<sdk::InputRequest, ElicitError> {
        Ok(sdk::InputRequest::ListRoots(list_roots()))
    }

    fn read(&self, response: &Value) -> Option<Answer> {
        sdk::ListRootsResult::deserialize(response)
            .ok()
            .map(Answer::Roots)
    }

    fn read_owned(&self, response: Value) -> Option<Answer> {
        sdk::ListRootsResult::deserialize(response)
            .ok()
            .map(Answer::Roots)
    }
}

/// The params-less `roots/list` request.
fn list_roots() -> sdk::ListRootsRequest {
    sdk::ListRootsRequest {
        method: Default::default(),
        extensions: Default::default(),
    }
}
