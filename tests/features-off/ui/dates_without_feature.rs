use elicit_mcp::Elicit;
use jiff::civil::Date;

// The types of time and jiff are field types with the features of those names, off here. A
// bare `Date` could be either crate's: the error names both features.
#[derive(Elicit)]
struct Trip {
    leaves: time::OffsetDateTime,
    back: time::Date,
    booked: jiff::Timestamp,
    paid: jiff::civil::Date,
    reminder: Date,
}

fn main() {}
