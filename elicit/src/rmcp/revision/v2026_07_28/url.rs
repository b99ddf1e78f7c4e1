//! URL mode in rounds: how long a retry waits for the out-of-band step before it answers "still
//! waiting", and how long the elicitation is kept for the next retry.

use std::time::{Duration, SystemTime};

use ::rmcp::model as sdk;

use super::{Round, next_round};
use crate::rmcp::ask::url::{FirstLook, look_until};
use crate::rmcp::ask::url_flow::UrlFlow;
use crate::rmcp::ask::way::Hold;
use crate::rmcp::error::ElicitError;
use crate::rmcp::tracking::UrlTracking;
use crate::server::{Collected, CompletionError, UserId};
use crate::wire::ElicitationId;

/// Waits for the step up to the hold; then the round ends with the state alone ("still
/// waiting") and the client's retry looks again. Once past its expiry the ask is
/// [`ElicitError::NotCompleted`] as on 2025-11-25. An elicitation that is another user's, or
/// whose completion was already collected (an older state replayed), refuses the request with
/// -32602.
pub(super) async fn completion(
    round: &Round,
    tracker: &dyn UrlTracking,
    user: &UserId,
    flow: &UrlFlow,
) -> Result<ElicitationId, ElicitError> {
    let wait = round.url_wait;
    // Kept one lease past this retry, never past its own expiry: once the client stops
    // retrying, it stops counting against the user's limit. A store that fails here fails
    // the look that follows too.
    let until = kept_until(tracker.now(), wait.granted_lease(), flow.expires_at);
    let renewed = {
        let _hold = Hold::new(round);
        tracker.keep_waiting(&flow.id, user, until).await
    };
    // Renewed means the store saw it pending in that same step: the first look can wait.
    let first = match renewed {
        Ok(true) => FirstLook::AfterFirstWait,
        Ok(false) | Err(_) => FirstLook::Now,
    };
    match look_until(tracker, round, user, &flow.id, Some(wait.hold()), first).await {
        Ok(Collected::Completed(id)) => return Ok(id),
        Ok(Collected::Waiting) => round.lock().still_waiting(),
        Err(CompletionError::Expired) => {
            return Err(ElicitError::NotCompleted(CompletionError::Expired));
        }
        Err(CompletionError::NotPending) if tracker.now() >= flow.expires_at => {
            return Err(ElicitError::NotCompleted(CompletionError::Expired));
        }
        Err(error) => round.lock().refuse(refusal(error)),
    }
    next_round().await
}

/// One `lease` from `now`, never past the elicitation's expiry: a lease that ends past what
/// the clock can hold ([`with_url_lease`](crate::rmcp::Elicitation::with_url_lease) of
/// `Duration::MAX`) keeps it to its expiry.
fn kept_until(now: SystemTime, lease: Duration, expires_at: SystemTime) -> SystemTime {
    now.checked_add(lease)
        .map_or(expires_at, |until| until.min(expires_at))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_is_kept_to_the_elicitation_s_expiry_even_past_the_clock() {
        let now = SystemTime::now();
        let expires_at = now + Duration::from_secs(300);
        let minute = Duration::from_secs(60);
        assert_eq!(kept_until(now, minute, expires_at), now + minute);
        assert_eq!(
            kept_until(now, Duration::from_secs(600), expires_at),
            expires_at
        );
        for huge in [Duration::MAX, Duration::from_secs(u64::MAX)] {
            assert_eq!(kept_until(now, huge, expires_at), expires_at);
        }
    }
}
