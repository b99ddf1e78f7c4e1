//! The code of one asked-for field: its `Property` constant, the block items it needs, and the
//! expression that reads it in `from_content`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::expand::literal::number;
use crate::expand::typeck::{type_checks, typed_default};
use crate::internals::ast::{Field, unraw};
use crate::internals::attr::{DefaultKind, FieldKeys};
use crate::internals::format;

/// The generated items of one asked-for field.
pub struct FieldCode {
    /// The `Property` constant expression.
    pub property: TokenStream,
    /// Compile-time checks that need the field's type.
    pub checks: TokenStream,
    /// Block-level items (pattern statics, multi-select default lists).
    pub items: TokenStream,
    /// The expression that reads the field from its slot (`__slot{index}`, the value found
    /// under its name, by reference or by value) in the form's `read_content`.
    pub read: TokenStream,
}

pub fn field_code(krate: &TokenStream, field: &Field, index: usize) -> FieldCode {
    let ty = field.ty;
    let keys = &field.attrs;
    let wire = &field.wire_name;
    let mut items = TokenStream::new();

    let default_value = keys.default.get().map(|default| {
        let expr = &default.expr;
        match &default.kind {
            DefaultKind::Str(_) => quote!(__elicit_private::DefaultValue::Str(#expr)),
            DefaultKind::Bool(b) => quote!(__elicit_private::DefaultValue::Bool(#b)),
            DefaultKind::Number(value) => {
                let n = number(*value);
                quote!(__elicit_private::DefaultValue::Number(#n))
            }
            DefaultKind::Choice => quote_spanned! {expr.span()=>
                __elicit_private::DefaultValue::Choice((#expr).__elicit_wire())
            },
            DefaultKind::Choices(elems) => {
                let list = format_ident!("__ELICIT_DEFAULT_{}", index);
                items.extend(quote! {
                    const #list: &[__elicit_private::Text] = &[
                        #(__elicit_private::Borrowed((#elems).__elicit_wire()),)*
                    ];
                });
                quote!(__elicit_private::DefaultValue::Choices(#list))
            }
        }
    });

    let description = keys
        .description
        .get()
        .map(|d| d.value())
        .or_else(|| keys.doc.clone());
    let attrs = schema_attrs(keys, field.title.clone(), description, default_value);
    let property = quote_spanned! {ty.span()=>
        __elicit_private::property(
            #wire,
            <#ty as #krate::ElicitField>::OPTIONAL,
            <#ty as #krate::ElicitField>::KIND,
            #attrs,
        )
    };

    let mut checks = type_checks(krate, field.ty, keys);
    checks.extend(hidden_secret_check(krate, field));

    // The default is a value of the field's own type: the compiler checks it, here and only here.
    let default_fn = match keys.default.get() {
        None => quote!(__ElicitNone),
        Some(_) => {
            let typed = typed_default(krate, field);
            quote! {
                __ElicitSome(
                    (|| { #typed <#ty as #krate::ElicitField>::from_default(__elicit_default) }) as fn() -> ::core::result::Result<#ty, #krate::Problem>
                )
            }
        }
    };

    let pattern = match keys.pattern.get() {
        Some(lit) => {
            let name = format_ident!("__ELICIT_PATTERN_{}", index);
            items.extend(quote! {
                static #name: __elicit_private::Pattern =
                    __elicit_private::Pattern::new(#lit, || __elicit_private::Pattern::compile(#lit));
            });
            quote!(__ElicitSome(&#name))
        }
        None => quote!(__ElicitNone),
    };

    let slot = format_ident!("__slot{}", index);
    let read = quote! {
        <#ty as #krate::ElicitField>::__read_from(#slot, &__properties[#index], #pattern, #default_fn, &mut __errors)
    };
    FieldCode {
        property,
        checks,
        items,
        read,
    }
}

/// The runtime's `Attrs` of a field (or a newtype): what its attributes say about its schema.
/// Only the attributes written are spelled out, the rest taken from `Attrs::NONE`: a form's
/// fields say little each, and every token of the expansion is paid on every build.
pub fn schema_attrs(
    keys: &FieldKeys,
    title: Option<String>,
    description: Option<String>,
    default_value: Option<TokenStream>,
) -> TokenStream {
    let some = |value: TokenStream| quote!(__ElicitSome(#value));
    let text = |value: String| some(quote!(#value));
    let count = |value: &u64| some(quote!(#value));
    let bound = |value: &crate::internals::attr::NumLit| some(number(value.value));
    let format = keys.format.get().and_then(|f| format::variant(&f.value()));
    let written: [(&str, Option<TokenStream>); 11] = [
        ("title", title.map(text)),
        ("description", description.map(text)),
        ("min_length", keys.min_length.get().map(count)),
        ("max_length", keys.max_length.get().map(count)),
        ("pattern", keys.pattern.get().map(|p| text(p.value()))),
        (
            "format",
            format.map(|variant| some(quote!(__elicit_private::StringFormat::#variant))),
        ),
        ("minimum", keys.minimum.get().map(bound)),
        ("maximum", keys.maximum.get().map(bound)),
        ("min_items", keys.min_items.get().map(count)),
        ("max_items", keys.max_items.get().map(count)),
        ("default", default_value),
    ];
    let fields = written.into_iter().filter_map(|(name, value)| {
        let name = format_ident!("{}", name);
        value.map(|value| quote!(#name: #value,))
    });
    quote! {
        __elicit_private::Attrs { #(#fields)* ..__elicit_private::Attrs::NONE }
    }
}

/// For a field not written as a secret, the compile-time check that its type is none: a
/// `Secret` behind a type alias or a newtype would otherwise pass the derive, which reads only
/// the tokens, and its form would be sent to the client. Spanned on the type.
fn hidden_secret_check(krate: &TokenStream, field: &Field) -> TokenStream {
    if field.secret {
        return TokenStream::new();
    }
    let ty = field.ty;
    let name = unraw(field.ident).to_string();
    quote_spanned! {ty.span()=>
        __elicit_private::refuse_hidden_secret(<#ty as #krate::ElicitField>::SECRET, #name);
    }
}
