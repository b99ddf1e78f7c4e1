//! Checks that need the field's type, left to the compiler and spanned on the user's attribute:
//! which attributes a type takes, whether a bound or item count fits it, and the type of a
//! default.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Type};

use crate::expand::literal::number;
use crate::internals::ast::Field;
use crate::internals::attr::{DefaultKind, FieldKeys, FieldKind, span_of};
use crate::internals::format;
use crate::internals::respan::respan;

/// `let __elicit_default: <T as ElicitField>::DefaultLiteral = <the default>;`, so a default of
/// the wrong type is a type mismatch on the user's literal, "expected due to" the field's type.
/// A string default is the exception: on a field whose default is not text, the compile-time
/// check of [`text_default_check`] says what to write instead, and no type error may speak
/// beside it, so the string goes through `text_default`, which takes any literal type. For the
/// body of a closure that returns a `Result`, not a constant.
pub fn typed_default(krate: &TokenStream, field: &Field) -> TokenStream {
    let Some(default) = field.attrs.default.get() else {
        return TokenStream::new();
    };
    let ty = field.ty;
    let literal = default_literal(&default.expr, &default.kind);
    let expected = quote_spanned!(ty.span()=> <#ty as #krate::ElicitField>::DefaultLiteral);
    if let DefaultKind::Str(_) = default.kind {
        return quote!(let __elicit_default: #expected = __elicit_private::text_default(#literal)?;);
    }
    quote!(let __elicit_default: #expected = #literal;)
}

/// For a string default, the compile-time check that the field's default is text, spanned on the
/// literal: on a bool, a number, a choice or a multi-select, a `panic!` whose message is the
/// default to write instead (`default = true`, `default = Priority::High` for the variant the
/// text names, by its value or its name, in any case).
fn text_default_check(kind: &TokenStream, keys: &FieldKeys) -> TokenStream {
    let Some(default) = keys.default.get() else {
        return TokenStream::new();
    };
    let DefaultKind::Str(text) = &default.kind else {
        return TokenStream::new();
    };
    let span = default.expr.span();
    let quoted = format!("{text:?}");
    let said = format!("default = {quoted} is a string, but the field's default");
    let bool_fix = match text.as_str() {
        "true" | "false" => format!("write `default = {text}`, without quotes"),
        _ => "write `default = true` or `default = false`".to_owned(),
    };
    let bool_message = format!("{said} is a bool: {bool_fix}");
    let number_fix = match syn::parse_str::<syn::Lit>(text.trim()) {
        Ok(syn::Lit::Int(_) | syn::Lit::Float(_)) => {
            format!("write `default = {}`, without quotes", text.trim())
        }
        _ => "write it as a number literal, such as `default = 3`".to_owned(),
    };
    let number_message = format!("{said} is a number: {number_fix}");
    let choice_named = format!(
        "{said} is a variant of its enum, written as a path: for the variant {quoted} names, write `default = "
    );
    let choice_unnamed = format!(
        "{said} is a variant of its enum, written as a path, and no variant has the value {quoted}: write one, such as `default = "
    );
    let multi_named = format!(
        "{said} is an array of variants of its enum: for the variant {quoted} names, write `default = ["
    );
    let multi_unnamed = format!(
        "{said} is an array of variants of its enum, and no variant has the value {quoted}: write them as paths, such as `default = ["
    );
    let misfit = quote!(__elicit_private::TextDefaultMisfit);
    let message = quote!(__elicit_private::Message);
    let panic_with = |before: &str, after: &str| {
        quote_spanned! {span=>
            ::core::panic!("{}", #message::EMPTY.push(#before).push(__path).push(#after).as_str())
        }
    };
    let choice_named = panic_with(&choice_named, "`");
    let choice_unnamed = panic_with(&choice_unnamed, "`");
    let multi_named = panic_with(&multi_named, "]`");
    let multi_unnamed = panic_with(&multi_unnamed, "]`");
    quote_spanned! {span=>
        match __elicit_private::text_default_misfit(#kind, #text) {
            __ElicitNone => {}
            __ElicitSome(#misfit::Bool) => ::core::panic!("{}", #bool_message),
            __ElicitSome(#misfit::Number) => ::core::panic!("{}", #number_message),
            __ElicitSome(#misfit::Choice { named: true, path: __path }) => #choice_named,
            __ElicitSome(#misfit::Choice { named: false, path: __path }) => #choice_unnamed,
            __ElicitSome(#misfit::Multi { named: true, path: __path }) => #multi_named,
            __ElicitSome(#misfit::Multi { named: false, path: __path }) => #multi_unnamed,
        }
    }
}

/// The checks of attributes that only some field types take, for a constant block. Each is
/// spanned on the attribute: a trait projection on the field's type (respanned onto the
/// attribute, so the error points there), or a `panic!` at compile time when a bound or item
/// count does not fit what the type's mapping allows.
pub fn type_checks(krate: &TokenStream, ty: &Type, keys: &FieldKeys) -> TokenStream {
    let mut checks = feature_type_check(ty);
    let kind = quote!(<#ty as #krate::ElicitField>::KIND);

    for (kind, tokens) in keys.kind_limited() {
        let Some(tokens) = tokens else { continue };
        let marker = match kind {
            FieldKind::String => quote!(StringField),
            FieldKind::Number => quote!(NumberField),
            FieldKind::MultiSelect => quote!(MultiSelectField),
        };
        let span = span_of(Some(tokens), Span::call_site());
        let at = respan(ty.to_token_stream(), span);
        checks.extend(quote_spanned!(span=> let () = <#at as __elicit_private::#marker>::PROVEN;));
    }
    for (name, attr) in [("minimum", &keys.minimum), ("maximum", &keys.maximum)] {
        let Some(bound) = attr.get() else { continue };
        let span = span_of(attr.tokens(), Span::call_site());
        let written = format!("`{name} = {}`", bound.tokens.to_string().replace(' ', ""));
        let value = number(bound.value);
        checks.extend(quote_spanned! {span=>
            __elicit_private::refuse_bound_misfit(#kind, #value, #written);
        });
    }

    checks.extend(text_default_check(&kind, keys));
    checks.extend(type_string_rules(&kind, keys));
    checks.extend(default_keeps_type_rules(krate, ty, &kind, keys));

    if let Some(min) = keys.min_items.get() {
        let span = span_of(keys.min_items.tokens(), Span::call_site());
        let written = format!("`min_items = {min}`");
        checks.extend(quote_spanned! {span=>
            __elicit_private::refuse_more_items_than_choices(#kind, #min, #written);
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

/// The checks of string attributes against what the field's type declares: a `format` naming
/// another format than a typed value's, a length or pattern its newtype declares already, and a
/// string default that is not of the format the field's values have (the attribute's, else the
/// type's: the derive cannot tell the type from its name, through an alias say, so the compiler
/// picks the format and the derive has written the verdict for each).
fn type_string_rules(kind: &TokenStream, keys: &FieldKeys) -> TokenStream {
    let mut checks = TokenStream::new();
    let format_path = quote!(__elicit_private::StringFormat);
    let attr_format = keys.format.get().map(|lit| lit.value());
    // The runtime's `StringFormat::as_str` is the name written: `format::variant` matches it
    // exactly.
    if let Some(variant) = attr_format.as_deref().and_then(format::variant) {
        let span = span_of(keys.format.tokens(), Span::call_site());
        checks.extend(quote_spanned! {span=>
            __elicit_private::refuse_format_clash(#kind, #format_path::#variant);
        });
    }
    let rules = [
        (keys.min_length.tokens(), quote!(MinLength)),
        (keys.max_length.tokens(), quote!(MaxLength)),
        (keys.pattern.tokens(), quote!(Pattern)),
    ];
    for (tokens, rule) in rules {
        let Some(tokens) = tokens else { continue };
        let span = span_of(Some(tokens), Span::call_site());
        checks.extend(quote_spanned! {span=>
            __elicit_private::refuse_type_declared(#kind, __elicit_private::StringRule::#rule);
        });
    }
    if let Some(default) = keys.default.get()
        && let DefaultKind::Str(text) = &default.kind
    {
        let span = default.expr.span();
        let arms: Vec<TokenStream> = format::FORMATS
            .iter()
            .filter_map(|(name, variant)| {
                let reason = format::check(name, text).err()?;
                let variant = format_ident!("{}", variant);
                let message = format!(
                    "default \"{text}\" is not of the field's format \"{name}\" ({}): {reason}",
                    format::example(name)
                );
                Some(quote_spanned!(span=> __ElicitSome(#format_path::#variant) => ::core::panic!(#message),))
            })
            .collect();
        if !arms.is_empty() {
            let attr = match attr_format.as_deref().and_then(format::variant) {
                Some(variant) => quote!(__ElicitSome(#format_path::#variant)),
                None => quote!(__ElicitNone),
            };
            checks.extend(quote_spanned! {span=>
                match __elicit_private::declared_format(#kind, #attr) {
                    #(#arms)*
                    _ => {}
                }
            });
        }
    }
    checks
}

/// A number or string default on a field whose type declares bounds or lengths (a newtype) must
/// keep them, as it must keep the field's own (which the derive checks). Only for such types: a
/// plain integer's range is the compiler's to enforce on the literal.
fn default_keeps_type_rules(
    krate: &TokenStream,
    ty: &Type,
    kind: &TokenStream,
    keys: &FieldKeys,
) -> TokenStream {
    let Some(default) = keys.default.get() else {
        return TokenStream::new();
    };
    let (value, message) = match &default.kind {
        DefaultKind::Number(value) => {
            let n = number(*value);
            (
                quote!(__elicit_private::DefaultValue::Number(#n)),
                format!(
                    "default {} is outside the `minimum`/`maximum` the field's type declares: change the default, or the type",
                    default.expr.to_token_stream()
                ),
            )
        }
        DefaultKind::Str(text) => (
            quote!(__elicit_private::DefaultValue::Str(#text)),
            format!(
                "default \"{text}\" breaks the `min_length`/`max_length` the field's type declares: change the default, or the type"
            ),
        ),
        _ => return TokenStream::new(),
    };
    let span = default.expr.span();
    quote_spanned! {span=>
        __elicit_private::refuse_default_outside(
            <#ty as #krate::ElicitField>::NARROWED, #kind, #value, #message
        );
    }
}

/// For a field whose type has the name of a type that a feature of the runtime crate maps
/// (`chrono::NaiveDate`, `url::Url` ...), the requirement of that feature's marker trait, spanned
/// on the type: with the feature off, an unmapped type of that name is refused with the feature
/// to turn on. The derive sees only the path, so the marker decides (see the runtime's
/// `__private::feature_types!`): a user's own type of the same name with a mapping passes.
fn feature_type_check(ty: &Type) -> TokenStream {
    let Some(inner) = unwrap_option(ty) else {
        return TokenStream::new();
    };
    let Type::Path(path) = inner else {
        return TokenStream::new();
    };
    if path.qself.is_some() {
        return TokenStream::new();
    }
    let names: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let of_jiff = names.iter().any(|n| n == "jiff" || n == "civil");
    let of_time = names.first().is_some_and(|n| n == "time");
    let marker = match names.last().map(String::as_str) {
        // jiff has a `civil::DateTime` too, which no feature maps.
        Some("NaiveDate" | "DateTime") if !of_jiff => "ChronoType",
        Some("OffsetDateTime") => "TimeType",
        Some("Timestamp") => "JiffType",
        Some("Date") if of_jiff => "JiffType",
        Some("Date") if of_time => "TimeType",
        Some("Date") => "DateType",
        Some("Url") => "UrlType",
        _ => return TokenStream::new(),
    };
    let marker = format_ident!("{}", marker);
    quote_spanned!(ty.span()=> let () = <#inner as __elicit_private::#marker>::CHECKED;)
}

/// The type inside one `Option<..>`, or the type itself; `None` for a type that is not a path.
fn unwrap_option(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return Some(ty);
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match &args.args[0] {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}
