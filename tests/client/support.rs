//! The shared test modules (`tests/support/`) this binary uses: only those, and each in full.

#[path = "../support/examples_built.rs"]
pub mod examples_built;
#[path = "../support/spec.rs"]
pub mod spec;
