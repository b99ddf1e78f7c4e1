use elicit_mcp::{Elicit, Email};

type Day = chrono::NaiveDate;

// A typed value has its format; an attribute naming another contradicts it.
#[derive(Elicit)]
struct Booking {
    #[elicit(format = "uri")]
    contact: Email,
    #[elicit(format = "date-time")]
    day: Day,
}

fn main() {}
