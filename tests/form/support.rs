//! The shared test modules (`tests/support/`) this binary uses: only those, and each in full.

#[path = "../support/forms.rs"]
pub mod forms;
#[path = "../support/spec.rs"]
pub mod spec;
#[path = "../support/spec_page.rs"]
pub mod spec_page;
