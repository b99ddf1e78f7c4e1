//! The runtime crate as the generated code names it: its path, and the impls only it can
//! decide on, expanded through its own macros.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};

/// The path of the runtime crate: `#[elicit(crate = "..")]`, else `::elicit_mcp`. The wrapper
/// constant imports it ([`wrap_in_const`](crate::dummy::wrap_in_const)); the code inside names
/// it by [`runtime_name`].
pub fn runtime_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(path) => path.to_token_stream(),
        None => quote!(::elicit_mcp),
    }
}

/// The runtime crate as the code inside the wrapper constant names it.
pub fn runtime_name() -> TokenStream {
    format_ident!("{}", crate::dummy::RUNTIME).to_token_stream()
}

/// The `schemars::JsonSchema` impl, through the runtime crate's macro: only the runtime crate
/// knows whether its `schemars` feature is on, so the macro expands to nothing when it is off.
pub fn json_schema_impl(
    krate: &TokenStream,
    kind: &str,
    ident: &syn::Ident,
    impl_generics: &syn::ImplGenerics<'_>,
    ty_generics: &syn::TypeGenerics<'_>,
    where_clause: Option<&syn::WhereClause>,
) -> TokenStream {
    let kind = format_ident!("{}", kind);
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    quote! {
        #krate::__impl_json_schema!(#kind, #name, [#impl_generics], #ident #ty_generics, [#where_clause]);
    }
}
