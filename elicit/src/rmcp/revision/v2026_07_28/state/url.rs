//! What URL mode records in a round: its elicitations, a wait for the out-of-band step, and a
//! refusal.

use ::rmcp::model as sdk;

use super::RoundState;
use crate::rmcp::ask::url_flow::UrlFlow;

impl RoundState {
    /// The elicitation asked under `key` in an earlier round (or this one).
    pub fn flow(&self, key: &str) -> Option<&UrlFlow> {
        self.flows.get(key)
    }

    /// Remembers the elicitation under `key` for the next rounds.
    pub fn keep_flow(&mut self, key: &str, flow: UrlFlow) {
        self.flows.insert(key.to_owned(), flow);
    }

    /// The round waits only for the out-of-band step.
    pub fn still_waiting(&mut self) {
        self.still_waiting = true;
    }

    /// The request is refused with `error` (the first refusal stands).
    pub fn refuse(&mut self, error: sdk::ErrorData) {
        self.refused.get_or_insert(error);
    }
}
