//! The `#[derive(Elicit)]` macro of the [`elicit`](https://docs.rs/elicit) crate.
//!
//! Use it through `elicit`, which re-exports it beside the trait it implements
//! (`use elicit::Elicit;`); the generated code names `elicit`'s items. The reference is on the
//! derive's page of `elicit`, <https://docs.rs/elicit/latest/elicit/derive.Elicit.html>: what
//! the derive generates, the type mapping, every container, field and variant attribute with an
//! example, and each rule checked at compile time with the error it gives. Its examples are
//! `elicit`'s doc tests.
//!
//! # Layout
//!
//! Shaped like `serde_derive`: `ast` reads the input and its attributes (`attr`) into a
//! syntax tree, `check` holds the cross-field rules, `expand` generates the code, and every
//! error of one derive is collected in a `ctxt::Ctxt` and reported together.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod sensitive;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `elicit::Elicit` for a struct with named fields (a form), or `elicit::ElicitChoice`
/// for a unit-only enum (a single- or multi-select).
///
/// The macro is defined in the `elicit-derive` crate and used through `elicit`, which
/// re-exports it as `elicit::Elicit`. The reference (generated items, type mapping, every
/// attribute with an example, compile-time rules and their errors) is its page in `elicit`:
/// <https://docs.rs/elicit/latest/elicit/derive.Elicit.html>.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
