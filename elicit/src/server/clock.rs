//! The time source of an [`ElicitationTracker`](crate::server::ElicitationTracker).

use std::time::SystemTime;

/// The time source of an [`ElicitationTracker`](crate::server::ElicitationTracker), given with
/// [`with_clock`](crate::server::ElicitationTracker::with_clock): tests inject their own to
/// expire entries without waiting. A closure returning a `SystemTime` is one.
pub trait Clock: Send + Sync {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The system's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

impl<F: Fn() -> SystemTime + Send + Sync> Clock for F {
    fn now(&self) -> SystemTime {
        self()
    }
}
