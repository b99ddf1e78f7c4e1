//! Reading back criterion's estimates of the current run, so each bench can print the ratios
//! the README quotes without anyone copying numbers by hand.
//!
//! Each bench compiles this module on its own, so not every bench uses every item.
#![allow(dead_code)]

use serde_json::Value;

/// The typical time of one benchmark of this run in nanoseconds, as criterion reports it: the
/// slope of the linear fit when criterion made one, the mean otherwise.
pub fn typical_ns(group: &str, function: &str) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target").to_owned());
    let path = format!("{dir}/criterion/{group}/{function}/new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    json["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| json["mean"]["point_estimate"].as_f64())
}

/// The typical times of two benchmarks of `group` in this run, for the ratio a bench prints:
/// `None` unless criterion measured both (a filtered run may not have).
pub fn typical_pair(group: &str, ours: &str, theirs: &str) -> Option<(f64, f64)> {
    Some((typical_ns(group, ours)?, typical_ns(group, theirs)?))
}
