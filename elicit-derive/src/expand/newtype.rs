//! A newtype (a tuple struct of one field) as a field type of its own: its field's property,
//! narrowed once by the constraints written on the struct, and parsed to the newtype only when
//! they hold.

use proc_macro2::TokenStream;
use quote::quote;

use crate::dummy::wrap_in_const;
use crate::expand::field::schema_attrs;
use crate::expand::runtime::{json_schema_impl, runtime_name, runtime_path};
use crate::expand::typeck::type_checks;
use crate::internals::ast::Newtype;

/// The `ElicitValue` impl of a newtype, and the checks of its attributes against its field's
/// type (left out beside the derive's own errors, which they could repeat).
pub fn expand_newtype(newtype: &Newtype, with_checks: bool) -> TokenStream {
    let input = newtype.input;
    let runtime = runtime_path(newtype.attrs.container.krate.get());
    let krate = runtime_name();
    let ident = &input.ident;
    let inner = newtype.inner;
    let keys = &newtype.attrs.keys;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let checks = if with_checks && input.generics.params.is_empty() {
        let checks = type_checks(&krate, inner, keys);
        quote!(const _: () = { #checks };)
    } else {
        TokenStream::new()
    };
    // No title: a newtype says what its values are, and the form's field that uses it is what
    // a person reads a title on (the check refuses one here).
    let attrs = schema_attrs(keys, None, None, None);
    // The pattern the newtype declares, compiled once; a field's own pattern cannot replace it
    // (the derive refuses one), so the one given in `from_json` is this one or nothing.
    // A default of a field of this type keeps its pattern too: the regex runs when the
    // default is used (lengths and bounds are checked at compile time).
    let (pattern_item, pattern, default_check) = match keys.pattern.get() {
        Some(lit) => (
            quote! {
                static __PATTERN: __elicit_private::Pattern =
                    __elicit_private::Pattern::new(#lit, || __elicit_private::Pattern::compile(#lit));
            },
            quote!(__ElicitSome(__PATTERN.get()?)),
            quote!(__elicit_private::default_matches(&__literal, &__PATTERN)?;),
        ),
        None => (TokenStream::new(), quote!(__pattern), TokenStream::new()),
    };
    let json_schema = json_schema_impl(
        &krate,
        "value",
        ident,
        &impl_generics,
        &ty_generics,
        where_clause,
    );
    wrap_in_const(
        &runtime,
        quote! {
            #checks

            #[automatically_derived]
            impl #impl_generics __elicit_private::Newtype for #ident #ty_generics #where_clause {
                type Inner = #inner;
            }

            #pattern_item

            #[automatically_derived]
            impl #impl_generics #krate::ElicitValue for #ident #ty_generics #where_clause {
                const KIND: __elicit_private::Kind = __elicit_private::narrow(
                    <#inner as #krate::ElicitValue>::KIND,
                    #attrs,
                );
                const NARROWED: bool = true;
                const SECRET: bool = <#inner as #krate::ElicitValue>::SECRET;
                type DefaultLiteral = <#inner as #krate::ElicitValue>::DefaultLiteral;
                fn from_default(
                    __literal: Self::DefaultLiteral,
                ) -> ::core::result::Result<Self, #krate::Problem> {
                    #default_check
                    <#inner as #krate::ElicitValue>::from_default(__literal).map(Self)
                }
                fn from_json(
                    __value: &__elicit_private::Value,
                    __schema: &#krate::schema::PrimitiveSchema,
                    __pattern: ::core::option::Option<&__elicit_private::Matcher>,
                ) -> ::core::result::Result<Self, #krate::Problem> {
                    <#inner as #krate::ElicitValue>::from_json(__value, __schema, #pattern).map(Self)
                }
                #[inline(always)]
                fn from_json_owned(
                    __value: __elicit_private::Value,
                    __schema: &#krate::schema::PrimitiveSchema,
                    __pattern: ::core::option::Option<&__elicit_private::Matcher>,
                ) -> ::core::result::Result<Self, #krate::Problem> {
                    <#inner as #krate::ElicitValue>::from_json_owned(__value, __schema, #pattern).map(Self)
                }
                fn to_json(&self) -> __elicit_private::Value {
                    <#inner as #krate::ElicitValue>::to_json(&self.0)
                }
            }

            #krate::__impl_field_for_value!(#ident #ty_generics);

            #json_schema
        },
    )
}
