//! Integration tests, UI tests and benches of the elicit workspace.
//!
//! The README's Rust blocks are compiled and run as doc tests of this crate, so the quick start
//! cannot drift from the code.
#![doc = include_str!("../README.md")]
