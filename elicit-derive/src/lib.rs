//! The `#[derive(Elicit)]` macro of the [`elicit-mcp`](https://docs.rs/elicit-mcp) crate.
//!
//! Use it through `elicit-mcp`, which re-exports it beside the trait it implements
//! (`use elicit_mcp::Elicit;`); the generated code names `elicit_mcp`'s items. The reference is
//! on the derive's page of `elicit-mcp`,
//! <https://docs.rs/elicit-mcp/latest/elicit_mcp/derive.Elicit.html>: what
//! the derive generates, the type mapping, every container, field and variant attribute with an
//! example, and each rule checked at compile time with the error it gives. Its examples are
//! `elicit-mcp`'s doc tests.
//!
//! # Layout
//!
//! Shaped like `serde_derive` and `thiserror-impl`; `lib.rs` holds only the entry point.
//!
//! - `internals/`, the parse-and-check side: `ast` reads the input and its attributes (`attr`,
//!   one table of keys per place, `case` for `rename_all` and the titles made from Rust names)
//!   into a syntax tree with its wire names and titles resolved, `check` holds the rules
//!   beyond syntax (with `format` for format-checked defaults and `sensitive` for
//!   secret-looking names), and every error of one derive is collected in a `ctxt::Ctxt` and
//!   reported together. `respan` moves tokens onto the user's span.
//! - `expand/`, code generation: `form`, `choice` and `newtype` expand the three shapes of
//!   input; `field` is one form field's code, `defaults` a form's run-time defaults type,
//!   `typeck` the checks the compiler makes against a field's type, `bound` a generic form's
//!   where-clause and `fallback` what a form with errors expands to beside them; `literal` and
//!   `runtime` are the leaves they share.
//! - `dummy`: the unnamed constant every generated impl goes in.
//!
//! No module imports one that imports it back: `internals` never names `expand`.
// No unsafe code of our own: the fuzzing in CI relies on it (see .ci/fuzz).
#![forbid(unsafe_code)]

mod dummy;
mod expand;
mod internals;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `elicit_mcp::Elicit` for a struct with named fields (a form), or `elicit_mcp::ElicitChoice`
/// for a unit-only enum (a single- or multi-select).
///
/// The macro is defined in the `elicit-mcp-derive` crate and used through `elicit-mcp`, which
/// re-exports it as `elicit_mcp::Elicit`. The reference (generated items, type mapping, every
/// attribute with an example, compile-time rules and their errors) is its page in `elicit-mcp`:
/// <https://docs.rs/elicit-mcp/latest/elicit_mcp/derive.Elicit.html>.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
