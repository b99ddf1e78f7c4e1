//! The rules a derive input must follow beyond its syntax, one function per rule. Each records
//! its errors in the context, spanned on the user's token, and never stops the others.

use std::collections::HashMap;

use quote::ToTokens;
use syn::LitStr;

use crate::internals::ast::{Choice, Field, Form, Newtype, unraw};
use crate::internals::attr::{
    Attr, Container, DefaultKind, FieldKeys, NumValue, PATH_DEFAULT_IS_NOT_A_VARIANT, PLAIN_TYPES,
};
use crate::internals::ctxt::Ctxt;
use crate::internals::format;
use crate::internals::sensitive::sensitive_term;

/// Checks a form, marking each field that broke none of the rules of its own as clean, so that
/// the compiler's checks of its type can run alongside these errors without repeating one.
pub fn check_form(cx: &Ctxt, form: &mut Form) {
    let ident = &form.input.ident;
    for field in &mut form.fields {
        let before = cx.error_count();
        check_field(cx, field, ident);
        field.clean = cx.error_count() == before;
    }
    check_wire_names_are_unique(
        cx,
        form.fields
            .iter()
            .filter(|f| !f.attrs.skip.is_set())
            .map(|f| (&f.wire_name, f.ident.to_token_stream())),
    );
    check_serde_rename_all_agrees(cx, &form.attrs);
    check_input_key(cx, &form.attrs);
}

/// The input key names the form in a 2026-07-28 round; an empty one would collide with every
/// other empty one and tell a client nothing.
fn check_input_key(cx: &Ctxt, attrs: &Container) {
    if let Some(key) = attrs.key.get()
        && key.value().trim().is_empty()
    {
        cx.error_spanned_by(key, "`key` names the form's input in a 2026-07-28 round, so it cannot be empty; leave it out to use the type's name in snake case");
    }
}

fn check_field(cx: &Ctxt, field: &Field, form: &syn::Ident) {
    check_skip_stands_alone(cx, field);
    if field.attrs.skip.is_set() {
        return;
    }
    check_untitled_has_no_title(cx, field);
    check_not_sensitive(cx, field, form);
    check_secret_has_no_default(cx, field);
    check_format_is_supported(cx, &field.attrs);
    check_one_kind_of_attributes(cx, &field.attrs);
    check_lengths_are_ordered(cx, &field.attrs);
    check_range_is_ordered(cx, &field.attrs);
    check_items_are_ordered(cx, &field.attrs);
    check_pattern_compiles(cx, &field.attrs);
    check_default_fits(cx, field);
    check_path_default_is_on_a_choice(cx, field);
    check_renames_agree(cx, field.attrs.rename.get(), &field.attrs.serde_rename);
}

pub fn check_choice(cx: &Ctxt, choice: &Choice) {
    check_choice_has_no_message(cx, choice);
    check_wire_names_are_unique(
        cx,
        choice
            .variants
            .iter()
            .map(|v| (&v.wire_name, v.ident.to_token_stream())),
    );
    for variant in &choice.variants {
        check_renames_agree(cx, variant.attrs.rename.get(), &variant.attrs.serde_rename);
    }
    check_serde_rename_all_agrees(cx, &choice.attrs);
}

/// Checks a newtype: only the constraints of a field's value apply, and they must hold
/// together as a field's do.
pub fn check_newtype(cx: &Ctxt, newtype: &Newtype) {
    check_newtype_keys(cx, newtype);
    let keys = &newtype.attrs.keys;
    check_format_is_supported(cx, keys);
    check_one_kind_of_attributes(cx, keys);
    check_lengths_are_ordered(cx, keys);
    check_range_is_ordered(cx, keys);
    check_pattern_compiles(cx, keys);
}

/// A newtype declares what its values are; how a form asks for it (title, default, name ...) is
/// said on the field that uses it, and a message on the form.
fn check_newtype_keys(cx: &Ctxt, newtype: &Newtype) {
    const VALUE_KEYS: &[&str] = &[
        "format",
        "min_length",
        "max_length",
        "pattern",
        "minimum",
        "maximum",
    ];
    for (key, tokens) in newtype.attrs.keys.set_keys() {
        if !VALUE_KEYS.contains(&key) {
            cx.error_spanned_by(tokens, format!("`{key}` says how a form asks for a field, so it goes on the field that uses this type; on a newtype (a tuple struct of one field) only what its values are: {}", VALUE_KEYS.join(", ")));
        }
    }
    let container = &newtype.attrs.container;
    let ident = &newtype.input.ident;
    for (key, tokens) in container.set_keys() {
        let message = match key {
            // A one-field tuple struct may be meant as a form of one question; say what it is
            // instead, and how to ask for its one value.
            "message" => format!(
                "`message` applies to a form (a struct with named fields), not to a newtype: a tuple struct of one field with #[derive(Elicit)] is a field type, asked for as a field of a form; to ask for one value on its own, put the message on a form with one named field of this type, e.g. `struct Answer {{ value: {ident} }}`"
            ),
            "key" => "`key` applies to a form (a struct with named fields), whose input it names, not to a newtype (a tuple struct of one field)".to_owned(),
            "rename_all" => "`rename_all` applies to a form or a choice enum, whose fields or variants it renames, not to a newtype (a tuple struct of one field)".to_owned(),
            _ => continue,
        };
        cx.error_spanned_by(tokens, message);
    }
}

/// A choice is not asked for on its own, so a `message` on it would never be sent.
fn check_choice_has_no_message(cx: &Ctxt, choice: &Choice) {
    if let Some(tokens) = choice.attrs.message.tokens() {
        cx.error_spanned_by(tokens, "`message` applies to a form (a struct): a choice enum is asked for as a field of one, so put the message on that struct");
    }
    if let Some(tokens) = choice.attrs.key.tokens() {
        cx.error_spanned_by(tokens, "`key` names a form's input (a struct): a choice enum is asked for as a field of one, so name the key on that struct");
    }
}

/// `skip` leaves the field out of the form, so any other attribute on it would be ignored.
fn check_skip_stands_alone(cx: &Ctxt, field: &Field) {
    let Some(skip) = field.attrs.skip.tokens() else {
        return;
    };
    let others = field.attrs.set_keys();
    if others.iter().any(|(key, _)| *key != "skip") {
        cx.error_spanned_by(skip, "`skip` leaves the field out of the form (it is filled from Default), so its other elicit attributes would have no effect; remove them or `skip`");
    }
}

/// `untitled` asks for no title, so a `title` beside it says the opposite; one of them is a
/// mistake, and the derive cannot tell which.
fn check_untitled_has_no_title(cx: &Ctxt, field: &Field) {
    if let (Some(untitled), Some(title)) = (field.attrs.untitled.tokens(), field.attrs.title.get())
    {
        cx.error_spanned_by(
            untitled,
            format!(
                "`untitled` leaves the field without a title, but it has `title = \"{}\"`: remove `untitled` to show that title, or `title` to show the raw key",
                title.value()
            ),
        );
    }
}

/// The spec forbids asking for secrets through form mode: a field that holds one is a
/// `Secret`, and its form is asked on the server's own page. A plain field whose name looks like
/// a secret is refused, the error on the name that looks like one: the rename if the wire name
/// does, the field's name otherwise.
fn check_not_sensitive(cx: &Ctxt, field: &Field, form: &syn::Ident) {
    if field.attrs.not_sensitive.is_set() || field.secret {
        return;
    }
    let rust_name = unraw(field.ident);
    let renamed = field
        .attrs
        .rename
        .get()
        .or(field.attrs.serde_rename.as_ref());
    let (name, term, target) = match (sensitive_term(&field.wire_name), renamed) {
        (Some(term), Some(lit)) => (field.wire_name.clone(), term, lit.to_token_stream()),
        (Some(term), None) => (field.wire_name.clone(), term, field.ident.to_token_stream()),
        (None, _) => match sensitive_term(&rust_name) {
            Some(term) => (rust_name, term, field.ident.to_token_stream()),
            None => return,
        },
    };
    // `password` is enough; `userPassword` says which word gave it away.
    let why = if term == name.to_lowercase() {
        String::new()
    } else {
        format!(" (\"{term}\")")
    };
    let form = unraw(form);
    let secret = if is_option(field.ty) {
        "Option<elicit_mcp::Secret<String>>"
    } else {
        "elicit_mcp::Secret<String>"
    };
    cx.error_spanned_by(
        target,
        format!(
            "`{name}` looks like a secret{why}: MCP servers must not request passwords, API keys, \
             access tokens, payment credentials or other secrets through form-mode elicitation \
             (the client sees every answer); make it `{secret}` and ask the form with \
             `ask.secure::<{form}>()`, which asks it on the server's own page through URL mode, \
             or add #[elicit(not_sensitive)] if the field holds no secret"
        ),
    );
}

/// Whether the type is written `Option<..>`.
fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path) if path.path.segments.last().is_some_and(|last| last.ident == "Option"))
}

/// A default is shown in the form's schema, to whoever is asked: a secret has none.
fn check_secret_has_no_default(cx: &Ctxt, field: &Field) {
    if !field.secret {
        return;
    }
    if let Some(tokens) = field.attrs.default.tokens() {
        cx.error_spanned_by(
            tokens,
            format!(
                "`{}` is a secret, and a `default` would write a secret into the form's schema, \
                 which is sent to be shown: a secret field takes no default; remove it",
                unraw(field.ident)
            ),
        );
    }
}

/// The spec allows exactly four string formats.
fn check_format_is_supported(cx: &Ctxt, keys: &FieldKeys) {
    if let Some(format) = keys.format.get()
        && format::variant(&format.value()).is_none()
    {
        cx.error_spanned_by(
                format,
                format!("unsupported format \"{}\": the spec allows only \"email\", \"uri\", \"date\" and \"date-time\"", format.value()),
            );
    }
}

/// String, number and multi-select attributes cannot all describe the same field.
fn check_one_kind_of_attributes(cx: &Ctxt, keys: &FieldKeys) {
    let set: Vec<_> = keys
        .kind_limited()
        .into_iter()
        .filter_map(|(kind, tokens)| tokens.map(|t| (kind.article_name(), t)))
        .collect();
    if let [(first, first_tokens), (second, tokens), ..] = set.as_slice() {
        cx.error_spanned_by(
            *tokens,
            format!(
                "`{}` is for {second} field, but `{}` is for {first} field: a field is one kind, so remove one of them",
                tokens,
                first_tokens,
            ),
        );
    }
}

/// `min_length` above `max_length` admits no value.
fn check_lengths_are_ordered(cx: &Ctxt, keys: &FieldKeys) {
    check_order(
        cx,
        &keys.min_length,
        &keys.max_length,
        "min_length",
        "max_length",
    );
}

/// `min_items` above `max_items` admits no selection.
fn check_items_are_ordered(cx: &Ctxt, keys: &FieldKeys) {
    check_order(
        cx,
        &keys.min_items,
        &keys.max_items,
        "min_items",
        "max_items",
    );
}

fn check_order(cx: &Ctxt, min: &Attr<u64>, max: &Attr<u64>, min_name: &str, max_name: &str) {
    if let (Some(lo), Some(hi), Some(tokens)) = (min.get(), max.get(), min.tokens())
        && lo > hi
    {
        cx.error_spanned_by(
            tokens,
            format!(
                "{min_name} = {lo} is greater than {max_name} = {hi}: no value would be accepted"
            ),
        );
    }
}

/// `minimum` above `maximum` admits no number.
fn check_range_is_ordered(cx: &Ctxt, keys: &FieldKeys) {
    if let (Some(lo), Some(hi)) = (keys.minimum.get(), keys.maximum.get())
        && lo.value.as_f64() > hi.value.as_f64()
    {
        cx.error_spanned_by(
            &lo.tokens,
            format!(
                "minimum {} is greater than maximum {}: no value would be accepted",
                lo.tokens, hi.tokens
            ),
        );
    }
}

/// A `pattern` must compile, with the regex engine the parser uses.
fn check_pattern_compiles(cx: &Ctxt, keys: &FieldKeys) {
    if let Some(pattern) = keys.pattern.get()
        && let Err(err) = regex::Regex::new(&pattern.value())
    {
        cx.error_spanned_by(
            pattern,
            format!("`pattern` is not a valid regular expression: {err}"),
        );
    }
}

/// A default must itself pass the field's bounds, pattern and item counts, or the form would
/// offer a value it then rejects.
fn check_default_fits(cx: &Ctxt, field: &Field) {
    let Some(default) = field.attrs.default.get() else {
        return;
    };
    let keys = &field.attrs;
    let expr = &default.expr;
    match &default.kind {
        DefaultKind::Str(text) => {
            let length = text.chars().count() as u64;
            if let Some(min) = keys.min_length.get().filter(|min| length < **min) {
                cx.error_spanned_by(
                    expr,
                    format!("default is {length} characters long, shorter than min_length = {min}"),
                );
            }
            if let Some(max) = keys.max_length.get().filter(|max| length > **max) {
                cx.error_spanned_by(
                    expr,
                    format!("default is {length} characters long, longer than max_length = {max}"),
                );
            }
            if let Some(pattern) = keys.pattern.get()
                && let Ok(regex) = regex::Regex::new(&pattern.value())
                && !regex.is_match(text)
            {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "default \"{text}\" does not match the pattern {}",
                        pattern.value()
                    ),
                );
            }
        }
        DefaultKind::Number(value) => {
            if let Some(min) = keys.minimum.get().filter(|min| below(*value, min.value)) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "default {} is below minimum {}",
                        expr.to_token_stream(),
                        min.tokens
                    ),
                );
            }
            if let Some(max) = keys.maximum.get().filter(|max| below(max.value, *value)) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "default {} is above maximum {}",
                        expr.to_token_stream(),
                        max.tokens
                    ),
                );
            }
        }
        DefaultKind::Choices(items) => {
            let count = items.len() as u64;
            if let Some(min) = keys.min_items.get().filter(|min| count < **min) {
                cx.error_spanned_by(
                    expr,
                    format!("default selects {count} items, fewer than min_items = {min}"),
                );
            }
            if let Some(max) = keys.max_items.get().filter(|max| count > **max) {
                cx.error_spanned_by(
                    expr,
                    format!("default selects {count} items, more than max_items = {max}"),
                );
            }
            let mut seen = Vec::new();
            for item in items {
                let text = item.to_token_stream().to_string().replace(' ', "");
                if seen.contains(&text) {
                    cx.error_spanned_by(
                        item,
                        format!(
                            "default selects `{text}` twice; a multi-select holds each choice once"
                        ),
                    );
                }
                seen.push(text);
            }
        }
        DefaultKind::Bool(_) | DefaultKind::Choice => {}
    }
}

/// A default written as a path (`config::LIMIT`, `Color::Red`) can only be a choice enum's
/// variant. A field whose type is plainly not a choice enum (a number, bool, string or typed
/// value, optional or not) gets the derive's own error here rather than the compiler's "no
/// method `__elicit_wire`" on generated code. Other types are left to the compiler, which
/// knows what they are.
fn check_path_default_is_on_a_choice(cx: &Ctxt, field: &Field) {
    let Some(default) = field.attrs.default.get() else {
        return;
    };
    if matches!(default.kind, DefaultKind::Choice) && is_plainly_not_a_choice(field.ty) {
        cx.error_spanned_by(&default.expr, PATH_DEFAULT_IS_NOT_A_VARIANT);
    }
}

/// Whether the type is, by its name, a primitive, `String` or one of elicit's typed values, or
/// an `Option` of one.
fn is_plainly_not_a_choice(ty: &syn::Type) -> bool {
    /// elicit's typed values.
    const TYPED_VALUES: &[&str] = &[
        "Email",
        "NaiveDate",
        "DateTime",
        "Date",
        "OffsetDateTime",
        "Timestamp",
        "Url",
    ];
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    if last.ident == "Option"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
    {
        return is_plainly_not_a_choice(inner);
    }
    PLAIN_TYPES
        .iter()
        .chain(TYPED_VALUES)
        .any(|name| last.ident == name)
}

fn below(a: NumValue, b: NumValue) -> bool {
    match (a, b) {
        (NumValue::Int(a), NumValue::Int(b)) => a < b,
        _ => a.as_f64() < b.as_f64(),
    }
}

/// Two fields (or variants) with one wire name would make one overwrite the other.
fn check_wire_names_are_unique<'a>(
    cx: &Ctxt,
    names: impl Iterator<Item = (&'a String, proc_macro2::TokenStream)>,
) {
    let mut seen: HashMap<&String, String> = HashMap::new();
    for (name, tokens) in names {
        if let Some(first) = seen.get(name) {
            cx.error_spanned_by(&tokens, format!("`{tokens}` has the wire name \"{name}\", which `{first}` has already: one would overwrite the other in content; rename one of them"));
        } else {
            seen.insert(name, tokens.to_string());
        }
    }
}

/// elicit and serde must agree on a field's or variant's wire name, so content round-trips
/// through serde.
fn check_renames_agree(cx: &Ctxt, ours: Option<&LitStr>, theirs: &Option<LitStr>) {
    if let (Some(ours), Some(theirs)) = (ours, theirs)
        && ours.value() != theirs.value()
    {
        cx.error_spanned_by(ours, format!("#[elicit(rename = \"{}\")] disagrees with #[serde(rename = \"{}\")]: content would not round-trip through serde; give both the same name, or keep only one of them", ours.value(), theirs.value()));
    }
}

/// elicit's and serde's `rename_all` must agree for the same reason.
fn check_serde_rename_all_agrees(cx: &Ctxt, attrs: &Container) {
    if let (Some(ours), Some((lit, theirs)), Some(tokens)) = (
        attrs.rename_all.get(),
        &attrs.serde_rename_all,
        attrs.rename_all.tokens(),
    ) && ours != theirs
    {
        cx.error_spanned_by(tokens, format!("#[elicit(rename_all = \"{}\")] disagrees with #[serde(rename_all = \"{}\")]: content would not round-trip through serde; use the same rule in both, or keep only one of them", ours.name(), lit.value()));
    }
}
