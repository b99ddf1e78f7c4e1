use elicit_mcp::{Elicit, Email};

type Day = chrono::NaiveDate;

// A typed value's default is its wire text, checked against the type's format at compile time,
// through an alias too.
#[derive(Elicit)]
struct Booking {
    #[elicit(default = "team-at-example")]
    contact: Email,
    #[elicit(default = "2023-02-29")]
    day: Day,
    #[elicit(default = "example.com")]
    site: Option<url::Url>,
}

fn main() {}
