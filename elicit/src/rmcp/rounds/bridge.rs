//! A method written in the 2026-07-28 style, served on 2025-11-25: the input requests of the
//! `InputRequiredResult` it answers with go out as requests on the session, and it runs again
//! with the answers, as a 2026-07-28 client's retry would bring them.

use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};

use super::Rounds;
use super::exchange::Exchange;

/// The rounds of one call bridged on a 2025-11-25 session.
pub(super) struct Bridge {
    exchange: Exchange,
    rounds: u32,
    most_rounds: u32,
}

impl Bridge {
    pub fn new(rounds: &Rounds, context: &RequestContext<RoleServer>) -> Self {
        Bridge {
            exchange: Exchange::Session {
                peer: context.peer.clone(),
                timeout: rounds.timeout,
            },
            rounds: 0,
            most_rounds: rounds.most_rounds,
        }
    }

    /// The answers to `asking`'s input requests and its `requestState`, for the method's next
    /// run. A result with no input requests ("still waiting") is run again after a pause that
    /// grows, as a client's retry would be.
    pub async fn answer(
        &mut self,
        asking: sdk::InputRequiredResult,
    ) -> Result<(Option<sdk::InputResponses>, Option<String>), sdk::ErrorData> {
        self.rounds += 1;
        let requests = asking.input_requests.unwrap_or_default();
        if self.rounds > self.most_rounds {
            return Err(super::too_many_rounds(self.rounds - 1, &requests));
        }
        if requests.is_empty() {
            const FIRST_PAUSE: Duration = Duration::from_millis(50);
            const LONGEST_PAUSE: Duration = Duration::from_secs(1);
            let pause = FIRST_PAUSE
                .saturating_mul(1 << self.rounds.min(5))
                .min(LONGEST_PAUSE);
            tokio::time::sleep(pause).await;
            return Ok((None, asking.request_state));
        }
        let answered = self.exchange.answer_on_session(requests).await;
        let responses = answered.unwrap_or_else(|| Ok(sdk::InputResponses::new()))?;
        Ok((Some(responses), asking.request_state))
    }
}
