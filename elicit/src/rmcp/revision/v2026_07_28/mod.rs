//! Protocol 2026-07-28: the server may not send requests, so a call that asks is answered with
//! an `InputRequiredResult` holding what it waits for, its state sealed in `requestState`; the
//! client's retry brings the answers, and the handler runs again from the start, the answered
//! asks returning at once, one round further each time.

mod binding;
mod keyring_text;
mod outside_call;
mod seal;
pub(crate) mod sealed;
mod state;
#[cfg(feature = "url-mode")]
mod url;

// When a call computes its binding is tested beside the call (`call/tests.rs`), which counts
// the bindings made here.
#[cfg(test)]
pub(crate) use binding::tests::bindings_computed;

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::Poll;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer};
use serde_json::Value;

pub(crate) use binding::Binding;
pub use keyring_text::ParsedKeyring;
pub use seal::{RequestStateSeal, SealKeyError};

use self::sealed::{SealedState, nonce};
use self::state::{RoundEnd, RoundLeft, RoundState};
use crate::rmcp::ask::scope::run_with;
use crate::rmcp::ask::way::{Waiting, Way};
use crate::rmcp::ask::{Ask, AskParts};
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::{Answer, KindOfAsk, Request};
use crate::rmcp::revision::params::CallRequest;
use crate::rmcp::revision::{Arrival, Revision, Run};
use crate::rmcp::running::{Gathered, Ran, Response, Start, too_many_rounds};

#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url_flow::UrlFlow;
#[cfg(feature = "url-mode")]
use crate::rmcp::running::UrlWait;
#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlTracking;
#[cfg(feature = "url-mode")]
use crate::server::{AwaitedBy, UserId};
#[cfg(feature = "url-mode")]
use crate::wire::ElicitationId;

/// Protocol 2026-07-28: input-required rounds.
pub(crate) struct V2026_07_28;

/// What a 2026-07-28 call takes from its request: the state and the answers its retry
/// brings, what its state is bound to, and what the client declared.
pub(crate) struct Brought {
    client: Option<sdk::ClientCapabilities>,
    /// `None` for a handler known not to ask, brought no state.
    binding: Option<Binding>,
    state: Option<String>,
    responses: Option<sdk::InputResponses>,
}

impl Revision for V2026_07_28 {
    const SERVER_REQUESTS: bool = false;
    const RUNS_AGAIN_IN_CALL: bool = false;

    type Taken = Brought;

    /// The state is the rounds' own, sealed by this elicitation, so it moves out of the
    /// request; so do the answers that come with a state, as they answer the asks it carries.
    /// Without a state (the ephemeral flow) the answers may also answer the method's own input
    /// requests, read with rmcp's `InputResponses`: they stay in the request, and the rounds
    /// get a copy. The binding is computed only where a state is opened or may be sealed:
    /// before the handler takes the request's arguments.
    /// Every ask refused: outside a call there is no round to carry it.
    fn ask_outside_call(peer: Peer<RoleServer>, version: Option<sdk::ProtocolVersion>) -> Ask {
        let version = version.unwrap_or(sdk::ProtocolVersion::V_2026_07_28);
        outside_call::ask_refusing(peer, version)
    }

    fn take<P: CallRequest>(arrival: Arrival<'_, P>) -> Brought {
        let carried = arrival.request.carried();
        let state = carried.request_state.take();
        let responses = match state {
            Some(_) => carried.input_responses.take(),
            None => carried.input_responses.clone(),
        };
        let binding = (arrival.may_ask || state.is_some())
            .then(|| Binding::of(&arrival.request.called(), arrival.user));
        Brought {
            client: arrival.context.client_capabilities(),
            binding,
            state,
            responses,
        }
    }

    async fn run<R: Response>(brought: Brought, run: Run<'_, R>) -> Result<Ran<R>, sdk::ErrorData> {
        let resumed = resume(
            run.seal,
            brought.binding,
            brought.state.as_deref(),
            brought.responses,
        )
        .await?;
        run_round(run, brought.client, resumed).await
    }
}

/// One run of a call's handler on 2026-07-28: what the state and the request bring, and what
/// this round asks.
pub(crate) struct Round {
    client: Option<sdk::ClientCapabilities>,
    /// How a retry waits for a URL-mode elicitation's out-of-band step.
    #[cfg(feature = "url-mode")]
    url_wait: UrlWait,
    /// Whether the call may continue as a task (the client declared the extension, and the
    /// tool is declared to).
    may_escalate: bool,
    state: Mutex<RoundState>,
}

impl Round {
    fn lock(&self) -> MutexGuard<'_, RoundState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the round ends now that the handler cannot go further.
    fn ends(&self) -> bool {
        self.lock().ends()
    }

    /// Ends the round: what the handler waits for, and the state to seal.
    fn end(&self, asked: Vec<crate::rmcp::ask::keys::AskedUnder>, nonce: String) -> RoundLeft {
        std::mem::take(&mut *self.lock()).end(asked, nonce)
    }
}

/// Never resolves: the run is dropped once the handler cannot go further this round.
async fn next_round<T>() -> T {
    std::future::pending().await
}

impl Way for Round {
    fn describe(&self) -> &'static str {
        "input-required rounds (2026-07-28)"
    }

    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        self.client.clone()
    }

    /// The answer carried or brought for `key`; else `request` goes out in this round's
    /// `InputRequiredResult`, and this never resolves.
    fn answer<'a>(
        &'a self,
        key: &'a str,
        request: Request,
        _timeout: Option<Duration>,
    ) -> Waiting<'a, Result<Answer, ElicitError>> {
        Box::pin(async move {
            {
                let mut state = self.lock();
                if let Some(answer) = answer_in(&*request, key, &mut state)? {
                    return Ok(answer);
                }
                request.check(self.client.as_ref())?;
                let input = request.input_request()?;
                let shown = request.shown().cloned().unwrap_or_default();
                state.ask(key, input, shown);
            }
            next_round().await
        })
    }

    fn recorded_step(&self, key: &str) -> Option<Value> {
        self.lock().step(key).cloned()
    }

    fn record_step(&self, key: &str, result: Value) {
        self.lock().record_step(key, result);
    }

    fn enter_work(&self) {
        self.lock().enter_work();
    }

    fn leave_work(&self) {
        self.lock().leave_work();
    }

    fn continue_as_task(&self) -> Waiting<'_, Result<(), ElicitError>> {
        Box::pin(async move {
            if !self.may_escalate {
                return Ok(());
            }
            self.lock().escalate();
            next_round().await
        })
    }

    #[cfg(feature = "url-mode")]
    fn awaited_by(&self) -> AwaitedBy {
        AwaitedBy::Retry
    }

    #[cfg(feature = "url-mode")]
    fn flow(&self, key: &str) -> Option<UrlFlow> {
        self.lock().flow(key).cloned()
    }

    #[cfg(feature = "url-mode")]
    fn keep_flow(&self, key: &str, flow: &UrlFlow) {
        self.lock().keep_flow(key, flow.clone());
    }

    #[cfg(feature = "url-mode")]
    fn completion<'a>(
        &'a self,
        tracker: &'a dyn UrlTracking,
        user: &'a UserId,
        flow: &'a UrlFlow,
    ) -> Waiting<'a, Result<ElicitationId, ElicitError>> {
        Box::pin(url::completion(self, tracker, user, flow))
    }
}

/// The answer under `key`, carried from an earlier round or read from this request's
/// responses (then recorded, as it is kept); `None` when there is none yet. A response that is
/// not a result of the request's kind counts as none: the request goes out again.
fn answer_in(
    request: &dyn KindOfAsk,
    key: &str,
    state: &mut RoundState,
) -> Result<Option<Answer>, ElicitError> {
    if let Some(answer) = state.answer(key) {
        return request.carried_answer(key, answer).map(Some);
    }
    let Some(answer) = state.take_response(key).and_then(|r| request.read_owned(r)) else {
        return Ok(None);
    };
    let kept = request.keep(answer, state.shown_before(key));
    if request.carried() {
        // Shared with the ask, not copied: the form reads it borrowed.
        state.record(key, kept.clone());
    }
    Ok(Some(kept))
}

/// What a request brings to its round: its state, opened (so refused if it is not this
/// request's), and the answers.
struct Resumed {
    /// What the state the round leaves is bound to; `None` for a handler known not to ask.
    pub binding: Option<Binding>,
    state: SealedState,
    responses: sdk::InputResponses,
}

/// Opens the request's `requestState` for `binding` (which it must have been sealed for).
async fn resume(
    seal: &RequestStateSeal,
    binding: Option<Binding>,
    request_state: Option<&str>,
    responses: Option<sdk::InputResponses>,
) -> Result<Resumed, sdk::ErrorData> {
    let state = match (request_state, &binding) {
        (Some(sealed), Some(binding)) => seal.open(sealed, binding).await?,
        (Some(_), None) => {
            // Only a handler known not to ask comes without a binding, and a state is never
            // sealed for one: this state is another request's.
            return Err(seal::refused());
        }
        (None, _) => SealedState::default(),
    };
    Ok(Resumed {
        binding,
        state,
        responses: responses.unwrap_or_default(),
    })
}

/// Runs one round of a call: the handler with the answers so far, until it ends or waits for
/// what this round asks.
async fn run_round<R: Response>(
    run: Run<'_, R>,
    client: Option<sdk::ClientCapabilities>,
    resumed: Resumed,
) -> Result<Ran<R>, sdk::ErrorData> {
    let Run {
        start,
        seal,
        may_become_task,
        mut handler,
    } = run;
    let Resumed {
        binding,
        state,
        responses,
    } = resumed;
    let (state, asked) = RoundState::resumed(state, responses);
    let round = Arc::new(Round {
        client,
        #[cfg(feature = "url-mode")]
        url_wait: start.settings.url_wait,
        may_escalate: may_become_task,
        state: Mutex::new(state),
    });
    let ask = Ask::new(AskParts {
        way: round.clone(),
        replayed: asked,
        settings: start.settings.ask,
        user: start.user.clone(),
        #[cfg(feature = "url-mode")]
        url: start.url.clone(),
    });
    let running = run_with(ask.clone(), handler(None));
    let Some(finished) = until_round_ends(&round, running).await else {
        return end_round(&start, seal, &round, &ask, binding);
    };
    start.learn(&ask, finished.is_ok());
    finished.map(Ran::Answered)
}

/// The handler's result, or `None` once the round ends before it does.
async fn until_round_ends<T>(round: &Round, handler: impl Future<Output = T>) -> Option<T> {
    let mut running = pin!(handler);
    poll_fn(|cx| match running.as_mut().poll(cx) {
        Poll::Ready(result) => Poll::Ready(Some(result)),
        Poll::Pending if round.ends() => Poll::Ready(None),
        Poll::Pending => Poll::Pending,
    })
    .await
}

/// The round's answer once the handler can go no further: the next `InputRequiredResult`, its
/// state sealed, or the refusal, or the task the call continues as.
fn end_round<R: Response>(
    start: &Start<'_>,
    seal: &RequestStateSeal,
    round: &Round,
    ask: &Ask,
    binding: Option<Binding>,
) -> Result<Ran<R>, sdk::ErrorData> {
    let RoundLeft {
        end,
        state,
        asking_rounds,
    } = round.end(ask.take_asked(), nonce()?);
    let asking = match end {
        RoundEnd::Refused(refused) => return Err(refused),
        RoundEnd::Asking(asking) if asking_rounds > start.settings.max_rounds => {
            return Err(too_many_rounds(asking_rounds - 1, &asking));
        }
        RoundEnd::Asking(asking) => Some(asking),
        // No input requests: a URL-mode elicitation is still waiting, and the state alone
        // says so (the client retries with it).
        RoundEnd::StillWaiting => None,
        RoundEnd::Escalate => {
            return Ok(Ran::ContinueAsTask(Gathered {
                answers: state.answers,
                steps: state.steps,
                asked: state.asked,
            }));
        }
    };
    let Some(binding) = binding else {
        // A hand-written handler that answered earlier calls of its tool without asking.
        if let Some(ask_use) = start.ask_use {
            ask_use.asks_after_all();
        }
        return Err(ElicitError::AskedWithoutBinding.into());
    };
    let sealed = seal.seal(&state, &binding)?;
    if sealed.len() > start.settings.max_state_bytes {
        return Err(sdk::ErrorData::invalid_params(
            format!(
                "the answers so far would make requestState {} bytes, over this server's \
                 limit of {} bytes: answer with less text",
                sealed.len(),
                start.settings.max_state_bytes
            ),
            None,
        ));
    }
    let result = sdk::InputRequiredResult::new(asking, Some(sealed));
    Ok(Ran::Answered(result.into()))
}
