//! What a call hands the way that runs it: the elicitation's settings, who the user is, the
//! handler to run (and run again), what it answers with, and how its run ended. Shared by the
//! revisions (`revision/`), a task's way (`task_inputs`) and the call that picks one, below all of
//! them.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use ::rmcp::model as sdk;
use serde_json::Value;

use crate::rmcp::ask::keys::AskedUnder;
use crate::rmcp::ask::{Ask, AskSettings};
use crate::rmcp::kind::Answer;
use crate::server::UserId;
use std::collections::BTreeMap;

#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlCall;

/// The settings of an elicitation that its calls read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub ask: AskSettings,
    /// How long a 2025-11-25 ask waits for the client.
    pub timeout: Option<Duration>,
    /// How many input-required rounds one call may take.
    pub max_rounds: u32,
    /// How large a sealed `requestState` may grow.
    pub max_state_bytes: usize,
    /// How a 2026-07-28 call waits for a URL-mode step.
    #[cfg(feature = "url-mode")]
    pub url_wait: UrlWait,
}

#[cfg(feature = "url-mode")]
/// How a 2026-07-28 call waits for a URL-mode elicitation's out-of-band step: what
/// `Elicitation::with_url_wait`, `with_url_hold` and `with_url_lease` set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UrlWait {
    /// How long the user may take over the step, within a client's limit on rounds.
    pub wait: Duration,
    /// How long a retry waits for the step before it answers "still waiting"; `None`: a
    /// share of `wait` (see [`hold`](Self::hold)).
    pub hold: Option<Duration>,
    /// How long after a retry that found it waiting the elicitation is kept for the next one.
    pub lease: Duration,
}

#[cfg(feature = "url-mode")]
impl UrlWait {
    /// The official clients give up after 10 rounds by default (the Python SDK's
    /// `max_input_rounds`, rmcp's own client): the consent round, then the retries that
    /// wait. Holding each of eight retries for an eighth of the wait leaves two rounds spare.
    const HELD_RETRIES: u32 = 8;

    pub const DEFAULT: UrlWait = UrlWait {
        wait: Duration::from_secs(5 * 60),
        hold: None,
        lease: Duration::from_secs(60),
    };

    /// How long one retry waits for the step.
    pub fn hold(self) -> Duration {
        self.hold.unwrap_or(self.wait / Self::HELD_RETRIES)
    }

    /// The lease a retry grants: never shorter than the hold plus a second, so that the
    /// elicitation outlives the retry that holds it (a hold of `Duration::MAX`, "wait as long
    /// as the elicitation lives", grants as much).
    pub(crate) fn granted_lease(self) -> Duration {
        self.lease
            .max(self.hold().saturating_add(Duration::from_secs(1)))
    }
}

/// What one call starts from, whichever way it runs.
pub(crate) struct Start<'a> {
    pub settings: Settings,
    pub user: Option<UserId>,
    /// The elicitation's URL mode: its tracker, and this call's connection.
    #[cfg(feature = "url-mode")]
    pub url: Option<UrlCall>,
    /// What the call's tool is known to do with its ask (none for prompts and resources,
    /// which always bind).
    pub ask_use: Option<&'a AskUse>,
}

impl Start<'_> {
    /// Whether the call may ask, so that a 2026-07-28 state its asks seal must be bound
    /// before the handler takes the request.
    pub fn may_ask(&self) -> bool {
        self.ask_use.is_none_or(AskUse::may_ask)
    }

    /// What the run showed of the handler.
    pub fn learn(&self, ask: &Ask, succeeded: bool) {
        if let Some(ask_use) = self.ask_use {
            ask_use.learn(ask.was_taken(), succeeded);
        }
    }
}

/// What a method answers with: the response of a tool, a prompt or a resource, each of which
/// may be an `InputRequiredResult`.
pub(crate) trait Response: From<sdk::InputRequiredResult> + Send + Sized {
    /// The input-required result it is, or itself.
    fn into_input_required(self) -> Result<sdk::InputRequiredResult, Self>;
}

impl Response for sdk::CallToolResponse {
    fn into_input_required(self) -> Result<sdk::InputRequiredResult, Self> {
        match self {
            sdk::CallToolResponse::InputRequired(asking) => Ok(asking),
            other => Err(other),
        }
    }
}

impl Response for sdk::GetPromptResponse {
    fn into_input_required(self) -> Result<sdk::InputRequiredResult, Self> {
        match self {
            sdk::GetPromptResponse::InputRequired(asking) => Ok(asking),
            other => Err(other),
        }
    }
}

impl Response for sdk::ReadResourceResponse {
    fn into_input_required(self) -> Result<sdk::InputRequiredResult, Self> {
        match self {
            sdk::ReadResourceResponse::InputRequired(asking) => Ok(asking),
            other => Err(other),
        }
    }
}

/// What the next run of a method that answered with its own input requests gets: what a
/// 2026-07-28 client's retry would bring.
pub(crate) struct Retry {
    pub responses: Option<sdk::InputResponses>,
    pub request_state: Option<String>,
}

/// The handler of a call, run with the request as it came (`None`) or again with a retry's
/// answers.
pub(crate) type Handler<'a, R> = Box<
    dyn FnMut(Option<Retry>) -> Pin<Box<dyn Future<Output = Result<R, sdk::ErrorData>> + Send + 'a>>
        + Send
        + 'a,
>;

/// How a call's run on its revision ended.
pub(crate) enum Ran<R> {
    /// The handler's response, or the next round's `InputRequiredResult`.
    Answered(R),
    /// The handler reached `Ask::continue_as_task`: the rest runs as a task, with what the
    /// rounds gathered.
    ContinueAsTask(Gathered),
}

/// What a call's rounds gathered before it continued as a task: the task replays the method
/// with them, so its earlier asks and steps return at once and their keys stay used.
#[derive(Default)]
pub(crate) struct Gathered {
    pub answers: BTreeMap<String, Answer>,
    pub steps: BTreeMap<String, Value>,
    pub asked: Vec<AskedUnder>,
}

/// -32600 for a call that asked for input `rounds` times without finishing.
pub(crate) fn too_many_rounds(rounds: u32, asking: &sdk::InputRequests) -> sdk::ErrorData {
    let keys: Vec<String> = asking.keys().map(|k| format!("`{k}`")).collect();
    sdk::ErrorData::invalid_request(
        format!(
            "this call asked for input {rounds} times without finishing, the most one call may: \
             the client's answers never completed what it asks (still waiting for: {})",
            keys.join(", ")
        ),
        None,
    )
}

/// Whether a tool's method takes an [`Ask`], learned from its calls: a `#[tool]` method's
/// signature does not change, so once known it holds for every later call, and a tool known
/// not to ask pays nothing to bind its calls on 2026-07-28.
#[derive(Default, Debug)]
pub(crate) struct AskUse(AtomicU8);

impl AskUse {
    const UNKNOWN: u8 = 0;
    const TAKES_ASK: u8 = 1;
    const NO_ASK: u8 = 2;

    /// Whether a call without state must bind its arguments before the method runs: unless
    /// the method is known not to take an `Ask`.
    pub fn may_ask(&self) -> bool {
        self.0.load(Ordering::Relaxed) != Self::NO_ASK
    }

    /// What one call showed: the method took its `Ask`, or it ran to an `Ok` without
    /// taking it. An error says nothing: an extractor before the `Ask` may have failed.
    pub fn learn(&self, took_ask: bool, succeeded: bool) {
        if took_ask {
            self.0.store(Self::TAKES_ASK, Ordering::Relaxed);
        } else if succeeded {
            let _ = self.0.compare_exchange(
                Self::UNKNOWN,
                Self::NO_ASK,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    /// A method learned not to ask asked after all (a hand-written handler that asks on some
    /// calls only): it binds before it runs from now on.
    pub fn asks_after_all(&self) {
        self.0.store(Self::TAKES_ASK, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::AskUse;
    #[cfg(feature = "url-mode")]
    use super::{Duration, UrlWait};

    /// A hold or a lease configured as "as long as it takes" grants a lease without a panic.
    #[cfg(feature = "url-mode")]
    #[test]
    fn the_longest_hold_or_lease_grants_the_longest_lease() {
        let longest = |wait: UrlWait| wait.granted_lease();
        let hold = Duration::from_secs(2);
        let lease = |hold, lease| UrlWait {
            wait: UrlWait::DEFAULT.wait,
            hold,
            lease,
        };
        assert_eq!(
            longest(lease(Some(hold), Duration::ZERO)),
            Duration::from_secs(3)
        );
        assert_eq!(
            longest(lease(Some(Duration::MAX), Duration::ZERO)),
            Duration::MAX
        );
        assert_eq!(longest(lease(None, Duration::MAX)), Duration::MAX);
    }

    #[test]
    fn a_tool_is_known_not_to_ask_only_after_a_call_that_succeeded_without_it() {
        let route = AskUse::default();
        assert!(route.may_ask());
        route.learn(false, false);
        assert!(
            route.may_ask(),
            "an error may come from an earlier extractor"
        );
        route.learn(false, true);
        assert!(!route.may_ask());
        route.asks_after_all();
        assert!(route.may_ask());
        let asking = AskUse::default();
        asking.learn(true, false);
        asking.learn(false, true);
        assert!(asking.may_ask(), "a method that took its Ask keeps it");
    }
}
