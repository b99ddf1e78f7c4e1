//! A configured time to live, added to the current time without a panic: `SystemTime + ttl`
//! panics when the sum is past what the clock can hold, and `Duration::MAX` (meant as "never")
//! is such a time to live.

use crate::server::debug_as_message;
use std::fmt;
use std::time::{Duration, SystemTime};

/// A time to live too large to add to the current time: the moment it ends is past the latest
/// one the system clock can hold. Says which time to live it is, and how long.
///
/// ```
/// use std::time::Duration;
/// # #[cfg(feature = "rmcp")]
/// # {
/// use elicit_mcp::rmcp::RequestStateSeal;
///
/// let refused = RequestStateSeal::generated().unwrap().with_ttl(Duration::MAX).unwrap_err();
/// assert!(refused.to_string().starts_with("the time to live of a `requestState`"));
/// # }
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct TtlTooLarge {
    /// Which time to live: "the time to live of a credential".
    what: &'static str,
    ttl: Duration,
}

impl TtlTooLarge {
    pub(crate) fn new(what: &'static str, ttl: Duration) -> Self {
        TtlTooLarge { what, ttl }
    }
}

impl fmt::Display for TtlTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} s) is too large: added to the current time, it ends past the latest time \
             the system clock can hold",
            self.what,
            self.ttl.as_secs()
        )
    }
}

impl std::error::Error for TtlTooLarge {}

debug_as_message!(TtlTooLarge);

/// When `ttl` from `now` ends, or why it cannot: `what` names the time to live in the error.
pub(crate) fn ends_at(
    now: SystemTime,
    ttl: Duration,
    what: &'static str,
) -> Result<SystemTime, TtlTooLarge> {
    now.checked_add(ttl)
        .ok_or_else(|| TtlTooLarge::new(what, ttl))
}

/// `ttl` checked where it is configured: refused if it cannot be added to the current time,
/// where it would be refused on every use.
#[cfg(any(feature = "rmcp", feature = "page"))]
pub(crate) fn checked_ttl(ttl: Duration, what: &'static str) -> Result<Duration, TtlTooLarge> {
    ends_at(SystemTime::now(), ttl, what).map(|_| ttl)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_to_live_past_the_clock_is_refused_with_its_name() {
        let now = SystemTime::now();
        let day = Duration::from_secs(24 * 60 * 60);
        assert_eq!(ends_at(now, day, "the day"), Ok(now + day));
        for huge in [Duration::MAX, Duration::from_secs(u64::MAX)] {
            let refused = ends_at(now, huge, "the time to live of a test").unwrap_err();
            assert_eq!(
                refused.to_string(),
                "the time to live of a test (18446744073709551615 s) is too large: added to the \
                 current time, it ends past the latest time the system clock can hold"
            );
            #[cfg(any(feature = "rmcp", feature = "page"))]
            assert_eq!(
                checked_ttl(huge, "the time to live of a test"),
                Err(refused)
            );
        }
        #[cfg(any(feature = "rmcp", feature = "page"))]
        assert_eq!(checked_ttl(day, "the day"), Ok(day));
    }
}
