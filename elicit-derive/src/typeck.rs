//! Checks that need the field's type, left to the compiler and spanned on the user's attribute:
//! which attributes a type takes, whether a bound or item count fits it, and the type of a
//! default.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Expr;
use syn::spanned::Spanned;

use crate::ast::Field;
use crate::attr::{DefaultKind, FieldKind, span_of};
use crate::field::number;
use crate::respan::respan;

/// `let __elicit_default: <T as ElicitField>::DefaultLiteral = <the default>;`, so a default of
/// the wrong type is a type mismatch on the user's literal, "expected due to" the field's type.
pub fn typed_default(krate: &TokenStream, field: &Field) -> TokenStream {
    let Some(default) = field.attrs.default.get() else {
        return TokenStream::new();
    };
    let ty = field.ty;
    let literal = default_literal(&default.expr, &default.kind);
    let expected = quote_spanned!(ty.span()=> <#ty as #krate::ElicitField>::DefaultLiteral);
    quote!(let __elicit_default: #expected = #literal;)
}

/// The checks of attributes that only some field types take, for a constant block. Each is
/// spanned on the attribute: a trait projection on the field's type (respanned onto the
/// attribute, so the error points there), or a `panic!` at compile time when a bound or item
/// count does not fit what the type's mapping allows.
pub fn type_checks(krate: &TokenStream, field: &Field) -> TokenStream {
    let ty = field.ty;
    let a = &field.attrs;
    let mut checks = TokenStream::new();
    let kind = quote!(<#ty as #krate::ElicitField>::KIND);

    for (kind, tokens) in a.kind_limited() {
        let Some(tokens) = tokens else { continue };
        let marker = match kind {
            FieldKind::String => quote!(StringField),
            FieldKind::Number => quote!(NumberField),
            FieldKind::MultiSelect => quote!(MultiSelectField),
        };
        let span = span_of(Some(tokens), Span::call_site());
        let at = respan(ty.to_token_stream(), span);
        checks.extend(quote_spanned!(span=> let () = <#at as #krate::__private::#marker>::PROVEN;));
    }
    for (name, attr) in [("minimum", &a.minimum), ("maximum", &a.maximum)] {
        let Some(bound) = attr.get() else { continue };
        let span = span_of(attr.tokens(), Span::call_site());
        let written = format!("`{name} = {}`", bound.tokens.to_string().replace(' ', ""));
        let not_integer = format!(
            "{written} is not an integer, but the field's type is: write a whole number, or make the field a float"
        );
        let below = format!(
            "{written} is below the smallest value the field's type holds: raise it, or widen the type"
        );
        let above = format!(
            "{written} is above the largest value the field's type holds: lower it, or widen the type"
        );
        let beyond_json = format!(
            "{written} is beyond 2^53 - 1 (or below its negative), past which a JSON number holds no exact integer: integer fields of 64 bits and more are bounded there"
        );
        let value = number(krate, bound.value);
        let misfit = quote!(#krate::__private::BoundMisfit);
        checks.extend(quote_spanned! {span=>
            match #krate::__private::bound_misfit(#kind, ::core::option::Option::Some(#value)) {
                ::core::option::Option::Some(#misfit::NotAnInteger) => ::core::panic!(#not_integer),
                ::core::option::Option::Some(#misfit::BelowType) => ::core::panic!(#below),
                ::core::option::Option::Some(#misfit::AboveType) => ::core::panic!(#above),
                ::core::option::Option::Some(#misfit::BeyondJson) => ::core::panic!(#beyond_json),
                ::core::option::Option::None => {}
            }
        });
    }

    if let Some(min) = a.min_items.get() {
        let span = span_of(a.min_items.tokens(), Span::call_site());
        let message = format!(
            "`min_items = {min}` is more than the number of choices of the field's enum, so no selection would be accepted: lower it, or add variants"
        );
        checks.extend(quote_spanned! {span=>
            if #krate::__private::more_items_than_choices(#kind, #min) {
                ::core::panic!(#message);
            }
        });
    }
    checks
}

/// The default as a `DefaultLiteral`: multi-select arrays become `&'static` slices.
fn default_literal(expr: &Expr, kind: &DefaultKind) -> TokenStream {
    match kind {
        DefaultKind::Choices(elems) => quote_spanned!(expr.span()=> &[#(#elems),*]),
        _ => expr.to_token_stream(),
    }
}
