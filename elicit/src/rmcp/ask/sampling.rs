//! What an [`Ask`] asks of the client besides forms: its model (`sampling/createMessage`) and
//! its roots (`roots/list`).

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;

use super::Ask;
use super::keys::{AskKind, Asker};
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::Answer;
use crate::rmcp::kind::roots::Roots;
use crate::rmcp::kind::sampling::Sampling;

impl Ask {
    /// Asks the client's model to sample a message (`sampling/createMessage`), answered under
    /// `key` on 2026-07-28. The client must have declared `sampling`: otherwise
    /// [`ElicitError::CapabilityNotDeclared`] on both revisions, and nothing is sent. rmcp
    /// marks sampling deprecated (SEP-2577); 2026-07-28 still has it as an input request.
    pub async fn sample(
        &self,
        key: &str,
        params: sdk::CreateMessageRequestParams,
    ) -> Result<sdk::CreateMessageResult, ElicitError> {
        let key = self.take_key(key, Asker::Of(AskKind::Sampling))?;
        match self
            .way()
            .answer(&key, Box::new(Sampling(params)), None)
            .await?
        {
            Answer::Sampling(result) => Ok(*result),
            _ => Err(ElicitError::Service(ServiceError::UnexpectedResponse)),
        }
    }

    /// Asks for the client's roots (`roots/list`), answered under `key` on 2026-07-28. The
    /// client must have declared `roots`: otherwise [`ElicitError::CapabilityNotDeclared`] on
    /// both revisions, and nothing is sent.
    pub async fn roots(&self, key: &str) -> Result<sdk::ListRootsResult, ElicitError> {
        let key = self.take_key(key, Asker::Of(AskKind::Roots))?;
        match self.way().answer(&key, Box::new(Roots), None).await? {
            Answer::Roots(result) => Ok(result),
            _ => Err(ElicitError::Service(ServiceError::UnexpectedResponse)),
        }
    }
}
