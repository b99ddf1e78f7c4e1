//! The state of one 2026-07-28 call across its rounds: what the earlier rounds carried in,
//! what this request brings, what this round asks, and why it ends.

use std::collections::BTreeMap;

use ::rmcp::model as sdk;
use serde_json::{Map, Value};

use super::sealed::SealedState;
use crate::rmcp::ask::keys::AskedUnder;
#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url_flow::UrlFlow;
use crate::rmcp::kind::Answer;

#[cfg(feature = "url-mode")]
mod url;

/// What one run of a handler on 2026-07-28 knows and asks. Its fields are its own: the asks
/// read and record through its methods, and the round turns it into the next round's state
/// when it ends.
#[derive(Default)]
pub(super) struct RoundState {
    /// The answers carried in from the earlier rounds, and those read from this request's
    /// `inputResponses` so far.
    answers: BTreeMap<String, Answer>,
    /// What each form asked in the last round showed beyond its own defaults, by key.
    shown_before: BTreeMap<String, Map<String, Value>>,
    /// The same for the forms this round asks.
    shown_now: BTreeMap<String, Map<String, Value>>,
    /// This request's `inputResponses`, read when the handler asks under their key: a
    /// response the handler never asks for is ignored.
    responses: sdk::InputResponses,
    /// The input requests of this round, by key.
    asking: sdk::InputRequests,
    /// The URL-mode elicitations asked, from the earlier rounds and as they went on this one.
    #[cfg(feature = "url-mode")]
    flows: BTreeMap<String, UrlFlow>,
    /// The results of the handler's steps, from the earlier rounds and this one.
    steps: BTreeMap<String, Value>,
    /// A URL-mode elicitation is still waiting for its out-of-band step.
    still_waiting: bool,
    /// The request is refused (a URL-mode elicitation in the state is another user's, or its
    /// completion was already used).
    refused: Option<sdk::ErrorData>,
    /// Work in flight (a step, a call to a store): the round does not end in the middle of
    /// it, so that what it did (a step's result, an elicitation stored, a completion
    /// collected) is in the state the round seals.
    in_work: usize,
    /// How many rounds of the call asked for input before this one.
    rounds: u32,
    /// The handler reached `Ask::continue_as_task`: the rest runs as a task.
    escalated: bool,
}

/// Why a round ends before the handler does.
pub(super) enum RoundEnd {
    /// It waits for the answers to these input requests.
    Asking(sdk::InputRequests),
    /// It waits only for a URL-mode elicitation's out-of-band step: the state alone goes back,
    /// and the client retries with it.
    StillWaiting,
    /// The request cannot go on: this error answers it.
    Refused(sdk::ErrorData),
    /// Every ask so far is answered and the handler continues as a task
    /// ([`Ask::continue_as_task`](crate::rmcp::Ask::continue_as_task)).
    Escalate,
}

/// What a round that ends leaves for the next one, to be sealed.
pub(super) struct RoundLeft {
    pub end: RoundEnd,
    pub state: SealedState,
    /// How many rounds of the call asked for input, this one included.
    pub asking_rounds: u32,
}

impl RoundState {
    /// The state of a run that the opened `state` carries into, with this request's
    /// `responses`; also gives the asks the earlier runs made, in order.
    pub fn resumed(state: SealedState, responses: sdk::InputResponses) -> (Self, Vec<AskedUnder>) {
        let SealedState {
            answers,
            shown,
            asked,
            nonce: _,
            #[cfg(feature = "url-mode")]
            flows,
            steps,
            rounds,
        } = state;
        let round = RoundState {
            answers,
            shown_before: shown,
            responses,
            #[cfg(feature = "url-mode")]
            flows,
            steps,
            rounds,
            ..RoundState::default()
        };
        (round, asked)
    }

    /// The answer under `key`: carried from an earlier round, or read already this run.
    pub fn answer(&self, key: &str) -> Option<&Answer> {
        self.answers.get(key)
    }

    /// This request's response under `key`, taken to be read: a key is asked once a run, and
    /// an answer carried to later rounds is recorded ([`record`](Self::record)) as it is read.
    pub fn take_response(&mut self, key: &str) -> Option<Value> {
        self.responses.remove(key)
    }

    /// What the form under `key` showed beyond its own defaults when it was asked in the last
    /// round; `None` when it was not asked then.
    pub fn shown_before(&self, key: &str) -> Option<&Map<String, Value>> {
        self.shown_before.get(key)
    }

    /// Records the answer under `key`, as it is to be carried.
    pub fn record(&mut self, key: &str, answer: Answer) {
        self.answers.insert(key.to_owned(), answer);
    }

    /// Queues `request` under `key` for this round; `shown` is what a form shows beyond its
    /// own defaults, for reading its answer next round.
    pub fn ask(&mut self, key: &str, request: sdk::InputRequest, shown: Map<String, Value>) {
        if !shown.is_empty() {
            self.shown_now.insert(key.to_owned(), shown);
        }
        self.asking.insert(key.to_owned(), request);
    }

    /// Whether the round ends now that the handler cannot go further: it waits for input, for
    /// a URL-mode step, or was refused; and no store call is in flight.
    pub fn ends(&self) -> bool {
        self.in_work == 0
            && (self.refused.is_some()
                || !self.asking.is_empty()
                || self.still_waiting
                || self.escalated)
    }

    /// The handler continues as a task from here.
    pub fn escalate(&mut self) {
        self.escalated = true;
    }

    /// The result of the step under `key`, recorded by an earlier run.
    pub fn step(&self, key: &str) -> Option<&Value> {
        self.steps.get(key)
    }

    /// Records the result of the step under `key`.
    pub fn record_step(&mut self, key: &str, result: Value) {
        self.steps.insert(key.to_owned(), result);
    }

    /// Work starts: the round stays open until it is done.
    pub fn enter_work(&mut self) {
        self.in_work += 1;
    }

    /// That work is done.
    pub fn leave_work(&mut self) {
        self.in_work = self.in_work.saturating_sub(1);
    }

    /// Ends the round: why, and what the next one starts from. `asked` is every ask of the
    /// call so far, in order.
    pub fn end(self, asked: Vec<AskedUnder>, nonce: String) -> RoundLeft {
        let asks_for_input = !self.asking.is_empty();
        let end = match (self.refused, asks_for_input) {
            (Some(refused), _) => RoundEnd::Refused(refused),
            (None, true) => RoundEnd::Asking(self.asking),
            (None, false) if self.escalated && !self.still_waiting => RoundEnd::Escalate,
            (None, false) => RoundEnd::StillWaiting,
        };
        let asking_rounds = self.rounds + u32::from(asks_for_input);
        let state = SealedState {
            answers: self.answers,
            shown: self.shown_now,
            asked,
            nonce,
            #[cfg(feature = "url-mode")]
            flows: self.flows,
            steps: self.steps,
            rounds: asking_rounds,
        };
        RoundLeft {
            end,
            state,
            asking_rounds,
        }
    }
}
