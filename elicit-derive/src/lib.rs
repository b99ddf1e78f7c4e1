//! The `#[derive(Elicit)]` macro of the [`elicit`](https://docs.rs/elicit) crate.
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
/// for a unit-only enum (a single- or multi-select). See the `elicit` crate for the attributes.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
