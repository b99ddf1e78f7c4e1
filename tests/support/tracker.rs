//! What the tests of URL mode's tracker share: a clock the test moves by hand, users, the
//! connect page's URL, and starting an elicitation.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use elicit_mcp::server::{
    Clock, ElicitationStore, ElicitationTracker, Initiator, StartError, UserId,
};
use elicit_mcp::{ElicitationCapability, ElicitationId};

/// The user an identity provider verified as `subject`.
pub fn user(subject: &str) -> UserId {
    UserId::from_verified_subject(subject).unwrap()
}

/// The connect page of elicitation `id`.
pub fn connect_url(id: &ElicitationId) -> String {
    format!("https://mcp.example.com/connect?elicitationId={id}")
}

/// Starts a URL elicitation on `tracker` for `initiator`, whose client declared URL mode: its
/// id, or why the tracker refused.
pub async fn start<S: ElicitationStore, C: Clock>(
    tracker: &ElicitationTracker<S, C>,
    initiator: &Initiator,
) -> Result<ElicitationId, StartError> {
    let pending = tracker
        .start(
            initiator,
            Some(&ElicitationCapability::url()),
            "Connect your Example Co account",
            connect_url,
        )
        .await?;
    Ok(pending.id().clone())
}

/// A clock stopped at the moment it was made (its clones share it), which the test moves by
/// hand: expiry is tested without waiting, an expiry time is exact, and a store with real
/// expiry (Redis) sees times near the wall clock.
#[derive(Clone)]
pub struct TestClock {
    start: SystemTime,
    advanced_secs: Arc<AtomicU64>,
}

impl Default for TestClock {
    fn default() -> Self {
        TestClock {
            start: SystemTime::now(),
            advanced_secs: Arc::default(),
        }
    }
}

impl TestClock {
    /// Moves the clock on by `by`, in whole seconds.
    pub fn advance(&self, by: Duration) {
        self.advanced_secs.fetch_add(by.as_secs(), Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> SystemTime {
        self.start + Duration::from_secs(self.advanced_secs.load(Ordering::SeqCst))
    }
}
