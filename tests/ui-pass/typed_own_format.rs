// Naming a typed value's own format is accepted, alone or with a valid default.
use elicit_mcp::{Elicit, Email};

#[derive(Elicit)]
struct Booking {
    #[elicit(format = "email", default = "team@example.com")]
    contact: Email,
    #[elicit(format = "date")]
    day: Option<chrono::NaiveDate>,
    #[elicit(format = "uri", default = "https://example.com/")]
    site: url::Url,
}

fn main() {
    let booking = Booking::from_content(&Default::default()).unwrap();
    assert_eq!(booking.contact.as_str(), "team@example.com");
    assert_eq!(booking.day, None);
    assert_eq!(booking.site.as_str(), "https://example.com/");
}
