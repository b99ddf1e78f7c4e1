//! The dispatch of a content key to its field, decided at compile time from the wire names.
//!
//! A `match` on the key as a `str` (what serde's field visitors emit) compares it with the
//! names one after the other. The derive knows every name, so it does better: it branches on
//! the key's length, then, among the names of that length, on one byte at a position where they
//! all differ, and confirms with a single comparison against the one candidate left (of a length
//! known to the compiler, so a few word loads, no call). Unknown keys fall through.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitByteStr;

/// The statements that run `body(i)` when `__key` (in scope: a `String`, `&String` or `&str`)
/// is `wires[i]`, and nothing for any other key. Duplicate names (a derive error reported
/// elsewhere) take the first field's body.
pub fn key_dispatch(wires: &[&str], body: impl Fn(usize) -> TokenStream) -> TokenStream {
    let mut by_length: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, wire) in wires.iter().enumerate() {
        by_length.entry(wire.len()).or_default().push(i);
    }
    let arms = by_length.iter().map(|(length, fields)| {
        let arm = same_length(wires, fields, &body);
        quote!(#length => { #arm })
    });
    quote! {
        let __key: &[u8] = __key.as_bytes();
        match __key.len() {
            #(#arms)*
            _ => {}
        }
    }
}

/// Among `fields`, whose names have the same length: a branch on a byte that tells them apart,
/// when one does, then a confirmation of the whole name.
fn same_length(
    wires: &[&str],
    fields: &[usize],
    body: &impl Fn(usize) -> TokenStream,
) -> TokenStream {
    let confirmed = |i: usize| {
        let name = LitByteStr::new(wires[i].as_bytes(), proc_macro2::Span::call_site());
        let run = body(i);
        quote!(if __key == #name { #run })
    };
    if let [only] = fields {
        return confirmed(*only);
    }
    match telling_byte(wires, fields) {
        Some(at) => {
            let arms = fields.iter().map(|&i| {
                let byte = wires[i].as_bytes()[at];
                let check = confirmed(i);
                quote!(#byte => { #check })
            });
            quote! {
                match __key[#at] {
                    #(#arms)*
                    _ => {}
                }
            }
        }
        None => {
            let checks = fields.iter().map(|&i| confirmed(i));
            quote!(#(#checks else)* {})
        }
    }
}

/// A position where the names of `fields` (all of one length) have pairwise different bytes.
fn telling_byte(wires: &[&str], fields: &[usize]) -> Option<usize> {
    let length = wires[fields[0]].len();
    (0..length).find(|&at| {
        let mut seen = [false; 256];
        fields.iter().all(|&i| {
            let byte = usize::from(wires[i].as_bytes()[at]);
            !std::mem::replace(&mut seen[byte], true)
        })
    })
}
