//! The `#[derive(Elicit)]` macro of the [`elicit`](https://docs.rs/elicit) crate.
//!
//! Shaped like `serde_derive` and `thiserror-impl`: `ast` reads the input and its attributes
//! (`attr`, one table of keys per place) into a syntax tree, `check` holds the cross-field
//! rules, and every error of one derive is collected in a `ctxt::Ctxt` and reported together.
//! `expand` generates the impls from `field` (one field's code), `typeck` (the checks the
//! compiler makes against a field's type, spanned with `respan`) and `bound` (a generic form's
//! where-clause); `fallback` is what a form with errors expands to beside them.

mod ast;
mod attr;
mod bound;
mod case;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod field;
mod format;
mod newtype;
mod respan;
mod sensitive;
mod typeck;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `elicit::Elicit` for a struct with named fields (a form), or `elicit::ElicitChoice`
/// for a unit-only enum (a single- or multi-select). See the `elicit` crate for the attributes.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
