//! A URL-mode elicitation the tracker started: the client shows the message and the link,
//! and answers with the person's consent; the step itself happens out of band. A secure page
//! goes out as one too.

use ::rmcp::model as sdk;
use serde_json::Value;

use super::{Answer, KindOfAsk, elicitation};
use crate::rmcp::error::ElicitError;
use crate::wire::{ElicitRequestParams, ElicitRequestUrlParams};

/// A URL-mode elicitation, as the tracker prepared it.
pub(crate) struct Url(pub ElicitRequestUrlParams);

impl KindOfAsk for Url {
    fn method(&self) -> &'static str {
        elicitation::METHOD
    }

    /// Nothing here: URL mode is checked before the tracker stores anything.
    fn check(&self, _client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError> {
        Ok(())
    }

    fn session_request(&self) -> Result<sdk::ServerRequest, ElicitError> {
        elicitation::session_request(&ElicitRequestParams::Url(self.0.clone()))
    }

    fn read_session_result(&self, result: sdk::ClientResult) -> Result<Answer, ElicitError> {
        elicitation::session_answer(result)
    }

    /// It carries the tracker's id: the client shows it and may match it to a completion.
    fn input_request(&self) -> Result<sdk::InputRequest, ElicitError> {
        let Url(params) = self;
        Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
            sdk::ElicitRequestParams::from(params),
        )))
    }

    fn read(&self, response: &Value) -> Option<Answer> {
        elicitation::read(response)
    }

    fn read_owned(&self, response: Value) -> Option<Answer> {
        elicitation::read_owned(response)
    }

    /// Not carried: the URL flow in the state carries what came of it.
    fn carried(&self) -> bool {
        false
    }
}
