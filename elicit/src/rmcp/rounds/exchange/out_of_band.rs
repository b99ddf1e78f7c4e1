//! URL mode's out-of-band step, the one thing URL mode adds to what the revisions do apart: how
//! long an ask waits for the tracker to complete its elicitation, and where the elicitation is
//! remembered between rounds.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;
use std::time::{Duration, Instant, SystemTime};

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer};

use super::{Exchange, next_round};
use crate::rmcp::error::ElicitError;
use crate::rmcp::rounds::sealed::UrlFlow;
use crate::rmcp::rounds::state::RoundState;
use crate::server::{
    AwaitedBy, Collected, CompletionError, ElicitationStore, ElicitationTracker, Initiator,
};
use crate::wire::ElicitationId;

/// How a 2026-07-28 call waits for a URL-mode elicitation's out-of-band step: what
/// `Rounds::with_url_hold` and `with_url_lease` set.
#[derive(Clone, Copy, Debug)]
pub(in crate::rmcp::rounds) struct UrlWait {
    /// How long a retry waits for the step before it answers "still waiting".
    pub hold: Duration,
    /// How long after a retry that found it waiting the elicitation is kept for the next one.
    pub lease: Duration,
}

impl UrlWait {
    pub const DEFAULT: UrlWait = UrlWait {
        hold: Duration::from_secs(5),
        lease: Duration::from_secs(60),
    };

    /// The lease a retry grants: never shorter than the hold plus a second, so that the
    /// elicitation outlives the retry that holds it.
    fn granted_lease(self) -> Duration {
        self.lease.max(self.hold + Duration::from_secs(1))
    }
}

impl Exchange {
    /// Runs `work`, a call to the tracker's store, with the round held open until it is done:
    /// what the store did (an elicitation stored, a completion collected) must reach the state
    /// the round seals.
    pub async fn in_store<T>(&self, work: impl Future<Output = T>) -> T {
        self.on_round(RoundState::enter_store);
        let done = work.await;
        self.on_round(RoundState::leave_store);
        done
    }

    /// Who waits for an elicitation's completion: the session's request, or the client's
    /// retries. A task waits as a retry does: it collects the completion itself, and its
    /// client (polling `tasks/get`) gets no completion notification.
    pub fn awaited_by(&self) -> AwaitedBy {
        match self {
            Exchange::Session { .. } => AwaitedBy::Session,
            Exchange::Round { .. } | Exchange::Task { .. } => AwaitedBy::Retry,
        }
    }

    /// The URL-mode elicitation asked under `key` in an earlier round (2026-07-28; a session
    /// has no earlier rounds).
    pub fn flow(&self, key: &str) -> Option<UrlFlow> {
        self.on_round(|state| state.flow(key).cloned()).flatten()
    }

    /// Remembers the elicitation under `key` for the next rounds (2026-07-28).
    pub fn keep_flow(&self, key: &str, flow: &UrlFlow) {
        self.on_round(|state| state.keep_flow(key, flow.clone()));
    }

    /// Waits for the tracker to complete elicitation `id` for `initiator`'s user.
    ///
    /// - 2025-11-25: until it completes, or it expires ([`ElicitError::NotCompleted`]), or the
    ///   session ends ([`ElicitError::SessionEnded`]).
    /// - inside a task: until it completes or expires ([`ElicitError::NotCompleted`]), the task
    ///   `working` meanwhile, its status message naming the step; `tasks/cancel` ends the wait.
    /// - 2026-07-28: up to the hold; then the round ends with the state alone ("still
    ///   waiting") and the client's retry looks again. Once past `expires_at` the ask is
    ///   [`ElicitError::NotCompleted`] as on 2025-11-25. An elicitation that is another
    ///   user's, or whose completion was already collected (an older state replayed), refuses
    ///   the request with -32602.
    pub async fn completion<S: ElicitationStore>(
        &self,
        tracker: &ElicitationTracker<S>,
        initiator: &Initiator,
        id: &str,
        expires_at: SystemTime,
    ) -> Result<ElicitationId, ElicitError> {
        let hold = match self {
            Exchange::Session { peer, .. } => {
                let waiting = self.look_until(tracker, initiator, id, None);
                return match unless_session_ends(peer, waiting).await {
                    Some(Ok(Collected::Completed(id))) => Ok(id),
                    Some(Ok(Collected::Waiting)) => {
                        Err(ElicitError::NotCompleted(CompletionError::NotPending))
                    }
                    Some(Err(error)) => Err(ElicitError::NotCompleted(error)),
                    None => Err(ElicitError::SessionEnded),
                };
            }
            Exchange::Task { task, .. } => {
                task.context
                    .set_status_message("waiting for the user's step at the URL they were sent to");
                let collected = self.look_until(tracker, initiator, id, None).await;
                task.context.set_status_message("working");
                return match collected {
                    Ok(Collected::Completed(id)) => Ok(id),
                    Ok(Collected::Waiting) => {
                        Err(ElicitError::NotCompleted(CompletionError::NotPending))
                    }
                    // A store that drops expired entries by itself.
                    Err(CompletionError::NotPending) if tracker.now() >= expires_at => {
                        Err(ElicitError::NotCompleted(CompletionError::Expired))
                    }
                    Err(error) => Err(ElicitError::NotCompleted(error)),
                };
            }
            Exchange::Round { url_wait, .. } => *url_wait,
        };
        // Kept one lease past this retry, never past its own expiry: once the client stops
        // retrying, it stops counting against the user's limit. A store that fails here fails
        // the look that follows too.
        let until = (tracker.now() + hold.granted_lease()).min(expires_at);
        let kept = tracker.keep_waiting(id, &initiator.user, until);
        let _ = self.in_store(kept).await;
        match self
            .look_until(tracker, initiator, id, Some(hold.hold))
            .await
        {
            Ok(Collected::Completed(id)) => return Ok(id),
            Ok(Collected::Waiting) => {
                self.on_round(RoundState::still_waiting);
            }
            Err(CompletionError::Expired) => {
                return Err(ElicitError::NotCompleted(CompletionError::Expired));
            }
            Err(CompletionError::NotPending) if tracker.now() >= expires_at => {
                return Err(ElicitError::NotCompleted(CompletionError::Expired));
            }
            Err(error) => {
                self.on_round(|state| state.refuse(refusal(error)));
            }
        }
        next_round().await
    }

    /// Looks for the completion until it is collected, or `hold` has passed (`None`: until the
    /// elicitation ends one way or another), less and less often.
    async fn look_until<S: ElicitationStore>(
        &self,
        tracker: &ElicitationTracker<S>,
        initiator: &Initiator,
        id: &str,
        hold: Option<Duration>,
    ) -> Result<Collected, CompletionError> {
        const FIRST_LOOK: Duration = Duration::from_millis(25);
        const MOST_BETWEEN_LOOKS: Duration = Duration::from_secs(1);
        let started = Instant::now();
        let mut between = FIRST_LOOK;
        loop {
            let looked = self.in_store(tracker.collect(id, &initiator.user)).await;
            if let Collected::Completed(id) = looked? {
                return Ok(Collected::Completed(id));
            }
            if let Some(hold) = hold {
                let left = hold.saturating_sub(started.elapsed());
                if left.is_zero() {
                    return Ok(Collected::Waiting);
                }
                between = between.min(left);
            }
            tokio::time::sleep(between).await;
            between = (between * 2).min(MOST_BETWEEN_LOOKS);
        }
    }
}

/// Runs `work` until it ends, or `None` once the session has ended (looked at every second):
/// a wait for an out-of-band step would otherwise last until the elicitation expires.
async fn unless_session_ends<T>(
    peer: &Peer<RoleServer>,
    work: impl Future<Output = T>,
) -> Option<T> {
    const BETWEEN_LOOKS: Duration = Duration::from_secs(1);
    let ended = async {
        while !peer.is_transport_closed() {
            tokio::time::sleep(BETWEEN_LOOKS).await;
        }
    };
    let (mut work, mut ended) = (pin!(work), pin!(ended));
    poll_fn(|cx| {
        if let Poll::Ready(done) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(done));
        }
        ended.as_mut().poll(cx).map(|()| None)
    })
    .await
}

/// The error for a retry whose URL elicitation cannot complete: -32602 as for any state that
/// no longer holds (one message whatever the cause, as for the seal), -32603 when the store
/// failed.
fn refusal(error: CompletionError) -> sdk::ErrorData {
    match error {
        CompletionError::Store(e) => sdk::ErrorData::internal_error(e.to_string(), None),
        _ => sdk::ErrorData::invalid_params(
            "the URL elicitation in requestState is not pending: its completion was already \
             used, or it belongs to another user",
            None,
        ),
    }
}
