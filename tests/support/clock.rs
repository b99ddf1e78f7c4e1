//! A clock the test moves by hand, for the tracker's expiry.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use elicit_mcp::server::Clock;

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
