//! `requested_schema_json()` (a static laid down at compile time) against building the same
//! schema with schemars at run time and serializing it, which is what a schemars-based path
//! such as rmcp's `elicit::<T>()` does.
//!
//! Run with `cargo bench --bench schema`; it prints the ratio after criterion's report.

#[path = "common/mod.rs"]
mod common;

use criterion::{Criterion, criterion_group};
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

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("schema");
    group.bench_function("elicit_requested_schema_json", |b| {
        b.iter(|| std::hint::black_box(Booking::requested_schema_json()).len())
    });
    group.bench_function("schemars_schema_for_to_string", |b| {
        b.iter(|| {
            let schema = schemars::schema_for!(SchemarsBooking);
            serde_json::to_string(&schema).map(|s| s.len()).unwrap_or(0)
        })
    });
    group.finish();
}

criterion_group!(group, benches);

fn main() {
    group();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
    let measured = common::typical_pair(
        "schema",
        "elicit_requested_schema_json",
        "schemars_schema_for_to_string",
    );
    if let Some((ours, schemars)) = measured {
        println!("\nratio of this run (typical times, as criterion reports them):");
        println!(
            "  schemars at run time / elicit requested_schema_json = {:.0}x",
            schemars / ours
        );
    }
}
