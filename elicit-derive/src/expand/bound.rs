//! The where-clause of a generic form, as serde's `bound.rs` builds one: a bound for each field
//! type that uses a parameter.

use proc_macro2::TokenStream;
use quote::ToTokens;

use crate::internals::ast::Form;

/// The form's generics with `T: ElicitField` for each asked field type `T` that uses a
/// parameter, and `Self: 'static` (a generic form's schema is cached by `TypeId`). Only types
/// that use a parameter: a bound on a concrete type would be checked as a trivial bound, a
/// second and noisier error for a type already reported at its field.
pub fn with_field_bounds(form: &Form, krate: &TokenStream) -> syn::Generics {
    let input = form.input;
    let mut generics = input.generics.clone();
    if input.generics.params.is_empty() {
        return generics;
    }
    let where_clause = generics.make_where_clause();
    for field in form
        .fields
        .iter()
        .filter(|f| !f.attrs.skip.is_set() && uses_type_param(f.ty, &input.generics))
    {
        let ty = field.ty;
        where_clause
            .predicates
            .push(syn::parse_quote!(#ty: #krate::ElicitField));
    }
    where_clause
        .predicates
        .push(syn::parse_quote!(Self: 'static));
    generics
}

/// Whether `ty` names one of the type or const parameters of `generics`.
pub fn uses_type_param(ty: &syn::Type, generics: &syn::Generics) -> bool {
    let params: Vec<&proc_macro2::Ident> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            syn::GenericParam::Type(t) => Some(&t.ident),
            syn::GenericParam::Const(c) => Some(&c.ident),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    fn visit(tokens: TokenStream, params: &[&proc_macro2::Ident]) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => params.contains(&&ident),
            proc_macro2::TokenTree::Group(group) => visit(group.stream(), params),
            _ => false,
        })
    }
    visit(ty.to_token_stream(), &params)
}
