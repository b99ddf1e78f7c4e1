//! A method written in the 2026-07-28 style, served on 2025-11-25: the input requests of the
//! `InputRequiredResult` it answers with go out as requests on the session, and it runs again
//! with the answers, as a 2026-07-28 client's retry would bring them.

use ::rmcp::model as sdk;

use super::{Requests, answer_all, pause_before, retry};
use crate::rmcp::running::{Retry, too_many_rounds};

/// The rounds of one call bridged on a 2025-11-25 session.
pub(super) struct Bridge {
    rounds: u32,
    max_rounds: u32,
}

impl Bridge {
    pub fn new(max_rounds: u32) -> Self {
        Bridge {
            rounds: 0,
            max_rounds,
        }
    }

    /// The answers to `asking`'s input requests and its `requestState`, for the method's next
    /// run. A result with no input requests ("still waiting") is run again after a pause that
    /// grows, as a client's retry would be.
    pub async fn answer(
        &mut self,
        way: &Requests,
        asking: sdk::InputRequiredResult,
    ) -> Result<Retry, sdk::ErrorData> {
        self.rounds += 1;
        let requests = asking.input_requests.unwrap_or_default();
        if self.rounds > self.max_rounds {
            return Err(too_many_rounds(self.rounds - 1, &requests));
        }
        if requests.is_empty() {
            pause_before(self.rounds).await;
            return Ok(retry(None, asking.request_state));
        }
        let responses = answer_all(way, requests).await?;
        Ok(retry(Some(responses), asking.request_state))
    }
}
