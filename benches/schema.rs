//! `requested_schema_json()` (a static laid down at compile time) against building the same
//! schema with schemars at run time and serializing it, which is what a schemars-based path
//! such as rmcp's `elicit::<T>()` does.
//!
//! Both routines hand back the schema's length, so both produce the text a server sends; the
//! two alternate round by round within one run (see `common/mod.rs`), and the figure is the
//! median of several runs with their spread, from this run's samples only. This is not a
//! speed-up of the same work: it shows what a schemars-based server pays per request that a
//! derived form never pays.
//!
//! Run with `cargo bench --bench schema`.

#[path = "common/mod.rs"]
mod common;

use common::{Comparison, Plan, compare, timed};
use elicit_mcp::Elicit;
use schemars::JsonSchema;

#[derive(Elicit)]
#[allow(dead_code)]
struct Booking {
    /// Who the table is for
    #[elicit(min_length = 1, max_length = 80)]
    name: String,
    /// Day of the booking
    #[elicit(format = "date")]
    date: String,
    /// Number of guests
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    /// Outside seating
    terrace: bool,
    /// Anything we should know
    notes: Option<String>,
}

/// The same form for schemars, as a schemars-based server declares it.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct SchemarsBooking {
    /// Who the table is for
    #[schemars(length(min = 1, max = 80))]
    name: String,
    /// Day of the booking
    #[schemars(extend("format" = "date"))]
    date: String,
    /// Number of guests
    #[schemars(range(min = 1, max = 12))]
    guests: u8,
    /// Outside seating
    terrace: bool,
    /// Anything we should know
    notes: Option<String>,
}

fn main() {
    compare(
        "schema",
        Plan {
            runs: 5,
            rounds: 51,
            batch: 2000,
        },
        &[
            "schemars schema_for! + serde_json::to_string",
            "elicit requested_schema_json()",
        ],
        vec![
            timed(|| {
                let schema = schemars::schema_for!(SchemarsBooking);
                serde_json::to_string(&schema).map(|s| s.len()).unwrap_or(0)
            }),
            timed(|| std::hint::black_box(Booking::requested_schema_json()).len()),
        ],
        &[Comparison {
            label: "schemars at run time / elicit",
            ours: 0,
            theirs: 1,
        }],
    );
}
