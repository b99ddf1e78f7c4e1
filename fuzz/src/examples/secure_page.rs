//! The form of `examples/secure_page.rs` (and `authorized_server.rs`), which both take from
//! `examples/src/calendar.rs`, copied as it is: `.ci/fuzz` checks that each block between the
//! markers is in the example word for word, so a change there shows here.

use elicit_mcp::{Elicit, Secret};

// copied from examples/src/calendar.rs
/// What `connect_calendar` needs: a secret, so it is asked on the page only.
#[derive(Elicit)]
#[elicit(message = "Connect your calendar")]
pub struct CalendarKey {
    /// The API key from your calendar's settings
    #[elicit(min_length = 8)]
    pub api_key: Secret<String>,
    /// Which of your calendars to read
    #[elicit(min_length = 1, max_length = 60)]
    pub calendar: String,
    /// Your calendar server's address, if it is not the provider's own
    pub server: Option<url::Url>,
}
// end of the copy

/// Does `visitor` with the form.
pub(crate) fn on<V: crate::OnForm>(visitor: V) -> V::Out {
    visitor.on::<CalendarKey>(None)
}
