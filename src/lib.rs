//! Integration tests, UI tests and benches of the elicit workspace.
//!
//! This crate's page is the repository's README. The library's own README, with the quick start
//! and the other examples, is the `elicit` crate's page, whose doc tests run them.
#![doc = include_str!("../README.md")]
