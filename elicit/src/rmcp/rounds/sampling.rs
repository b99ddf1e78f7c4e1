//! What an [`Ask`] asks of the client besides forms: its model (`sampling/createMessage`) and
//! its roots (`roots/list`), as requests on 2025-11-25 and input requests on 2026-07-28.

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;

use super::Ask;
use super::ask::{Flow, wait_for_next_round};
use crate::rmcp::error::ElicitError;
use crate::rmcp::session;

impl Ask {
    /// Asks the client's model to sample a message (`sampling/createMessage`), answered under
    /// `key` on 2026-07-28. The client must have declared `sampling`: otherwise
    /// [`ElicitError::CapabilityNotDeclared`] on both revisions, and nothing is sent. rmcp
    /// marks sampling deprecated (SEP-2577); 2026-07-28 still has it as an input request.
    #[allow(deprecated)]
    pub async fn sample(
        &self,
        key: &str,
        params: sdk::CreateMessageRequestParams,
    ) -> Result<sdk::CreateMessageResult, ElicitError> {
        let declared = |c: &sdk::ClientCapabilities| c.sampling.is_some();
        if let Flow::Requests { peer, timeout } = &self.inner.flow {
            require(self.client_capabilities(), "sampling", declared)?;
            // What rmcp's `create_message` checks, sent with the ask's timeout.
            let refused = |message: String| {
                ElicitError::Service(ServiceError::McpError(sdk::ErrorData::invalid_params(
                    message, None,
                )))
            };
            if (params.tools.is_some() || params.tool_choice.is_some())
                && !peer.supports_sampling_tools()
            {
                return Err(refused(
                    "tools or toolChoice given, but the client did not declare sampling tools"
                        .to_owned(),
                ));
            }
            params.validate().map_err(refused)?;
            let request =
                sdk::ServerRequest::CreateMessageRequest(sdk::CreateMessageRequest::new(params));
            return match session::request(peer, request, *timeout).await? {
                sdk::ClientResult::CreateMessageResult(result) => Ok(*result),
                _ => Err(ElicitError::Service(ServiceError::UnexpectedResponse)),
            };
        }
        let key = self.take_key(key, "sampling/createMessage")?;
        if let Some(result) = self.answered(&key, "sampling/createMessage", |v| v)? {
            return Ok(result);
        }
        require(self.client_capabilities(), "sampling", declared)?;
        let request = sdk::InputRequest::CreateMessage(sdk::CreateMessageRequest::new(params));
        self.ask_for(&key, request);
        wait_for_next_round().await
    }

    /// Asks for the client's roots (`roots/list`), answered under `key` on 2026-07-28. The
    /// client must have declared `roots`: otherwise [`ElicitError::CapabilityNotDeclared`] on
    /// both revisions, and nothing is sent.
    #[allow(deprecated)]
    pub async fn roots(&self, key: &str) -> Result<sdk::ListRootsResult, ElicitError> {
        let declared = |c: &sdk::ClientCapabilities| c.roots.is_some();
        if let Flow::Requests { peer, timeout } = &self.inner.flow {
            require(self.client_capabilities(), "roots", declared)?;
            let request = sdk::ServerRequest::ListRootsRequest(list_roots());
            return match session::request(peer, request, *timeout).await? {
                sdk::ClientResult::ListRootsResult(result) => Ok(result),
                _ => Err(ElicitError::Service(ServiceError::UnexpectedResponse)),
            };
        }
        let key = self.take_key(key, "roots/list")?;
        if let Some(result) = self.answered(&key, "roots/list", |v| v)? {
            return Ok(result);
        }
        require(self.client_capabilities(), "roots", declared)?;
        let request = sdk::InputRequest::ListRoots(list_roots());
        self.ask_for(&key, request);
        wait_for_next_round().await
    }
}

/// Refuses, before anything is sent, when the client did not declare `capability`.
fn require(
    client: Option<sdk::ClientCapabilities>,
    capability: &'static str,
    has: impl FnOnce(&sdk::ClientCapabilities) -> bool,
) -> Result<(), ElicitError> {
    match client {
        Some(client) if has(&client) => Ok(()),
        _ => Err(ElicitError::CapabilityNotDeclared { capability }),
    }
}

#[allow(deprecated)] // rmcp deprecates roots (SEP-2577); 2026-07-28 has them.
fn list_roots() -> sdk::ListRootsRequest {
    sdk::ListRootsRequest {
        method: Default::default(),
        extensions: Default::default(),
    }
}
