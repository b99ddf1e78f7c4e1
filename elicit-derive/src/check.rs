//! The rules a derive input must follow beyond its syntax, one function per rule. Each records
//! its errors in the context, spanned on the user's token, and never stops the others.

use std::collections::HashMap;

use quote::ToTokens;

use crate::ast::{Choice, Field, Form};
use crate::attr::{Attr, DefaultKind, NumValue};
use crate::ctxt::Ctxt;
use crate::sensitive::sensitive_term;

const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

pub fn check_form(cx: &Ctxt, form: &Form) {
    for field in &form.fields {
        check_skip_stands_alone(cx, field);
        if field.attrs.skip.is_set() {
            continue;
        }
        check_not_sensitive(cx, field);
        check_format_is_supported(cx, field);
        check_one_kind_of_attributes(cx, field);
        check_lengths_are_ordered(cx, field);
        check_range_is_ordered(cx, field);
        check_items_are_ordered(cx, field);
        check_pattern_compiles(cx, field);
        check_default_fits(cx, field);
        check_serde_rename_agrees(cx, field);
    }
    check_wire_names_are_unique(
        cx,
        form.fields
            .iter()
            .filter(|f| !f.attrs.skip.is_set())
            .map(|f| (&f.wire_name, f.ident.to_token_stream())),
    );
    check_serde_rename_all_agrees(cx, &form.attrs);
}

pub fn check_choice(cx: &Ctxt, choice: &Choice) {
    check_wire_names_are_unique(
        cx,
        choice
            .variants
            .iter()
            .map(|v| (&v.wire_name, v.ident.to_token_stream())),
    );
    for variant in &choice.variants {
        // A variant's elicit and serde renames must agree, so content and serde read the same value.
        if let (Some(ours), Some(theirs)) =
            (variant.attrs.rename.get(), &variant.attrs.serde_rename)
        {
            if ours.value() != theirs.value() {
                cx.error_spanned_by(ours, format!("#[elicit(rename = \"{}\")] disagrees with #[serde(rename = \"{}\")]: content would not round-trip through serde", ours.value(), theirs.value()));
            }
        }
    }
    check_serde_rename_all_agrees(cx, &choice.attrs);
}

/// `skip` leaves the field out of the form, so any other attribute on it would be ignored.
fn check_skip_stands_alone(cx: &Ctxt, field: &Field) {
    let Some(skip) = field.attrs.skip.tokens() else {
        return;
    };
    let a = &field.attrs;
    let others = [
        a.title.is_set(),
        a.description.is_set(),
        a.default.is_set(),
        a.format.is_set(),
        a.min_length.is_set(),
        a.max_length.is_set(),
        a.pattern.is_set(),
        a.minimum.is_set(),
        a.maximum.is_set(),
        a.min_items.is_set(),
        a.max_items.is_set(),
        a.rename.is_set(),
        a.not_sensitive.is_set(),
    ];
    if others.iter().any(|set| *set) {
        cx.error_spanned_by(skip, "`skip` leaves the field out of the form (it is filled from Default), so its other elicit attributes would have no effect; remove them or `skip`");
    }
}

/// The spec forbids asking for secrets through form mode: they belong in URL mode.
fn check_not_sensitive(cx: &Ctxt, field: &Field) {
    if field.attrs.not_sensitive.is_set() {
        return;
    }
    let rust_name = field.ident.to_string();
    let term = sensitive_term(&field.wire_name).or_else(|| sensitive_term(&rust_name));
    if let Some(term) = term {
        let target = field
            .attrs
            .rename
            .tokens()
            .cloned()
            .unwrap_or_else(|| field.ident.to_token_stream());
        cx.error_spanned_by(
            target,
            format!(
                "field `{}` looks like a secret (\"{term}\"): MCP forbids requesting passwords, API keys, tokens, \
                 payment or other credentials through form-mode elicitation; use URL mode so the secret \
                 never passes through the client (see elicit's URL-mode support), or mark a false \
                 positive with #[elicit(not_sensitive)]",
                field.wire_name
            ),
        );
    }
}

/// The spec allows exactly four string formats.
fn check_format_is_supported(cx: &Ctxt, field: &Field) {
    if let Some(format) = field.attrs.format.get() {
        if !FORMATS.contains(&format.value().as_str()) {
            cx.error_spanned_by(
                format,
                format!("unsupported format \"{}\": the spec allows only \"email\", \"uri\", \"date\" and \"date-time\"", format.value()),
            );
        }
    }
}

/// String, number and multi-select attributes cannot all describe the same field.
fn check_one_kind_of_attributes(cx: &Ctxt, field: &Field) {
    let a = &field.attrs;
    let string = first_set(&[
        a.min_length.tokens(),
        a.max_length.tokens(),
        a.pattern.tokens(),
        a.format.tokens(),
    ]);
    let number = first_set(&[a.minimum.tokens(), a.maximum.tokens()]);
    let multi = first_set(&[a.min_items.tokens(), a.max_items.tokens()]);
    let kinds = [
        ("string", string),
        ("number", number),
        ("multi-select", multi),
    ];
    let set: Vec<_> = kinds
        .iter()
        .filter_map(|(k, t)| t.map(|t| (k, t)))
        .collect();
    if let [(first, _), (second, tokens), ..] = set.as_slice() {
        cx.error_spanned_by(*tokens, format!("this {second} attribute contradicts the {first} attributes of the same field: a field is one kind"));
    }
}

fn first_set<'a>(
    tokens: &[Option<&'a proc_macro2::TokenStream>],
) -> Option<&'a proc_macro2::TokenStream> {
    tokens.iter().flatten().next().copied()
}

/// `min_length` above `max_length` admits no value.
fn check_lengths_are_ordered(cx: &Ctxt, field: &Field) {
    check_order(
        cx,
        &field.attrs.min_length,
        &field.attrs.max_length,
        "min_length",
        "max_length",
    );
}

/// `min_items` above `max_items` admits no selection.
fn check_items_are_ordered(cx: &Ctxt, field: &Field) {
    check_order(
        cx,
        &field.attrs.min_items,
        &field.attrs.max_items,
        "min_items",
        "max_items",
    );
}

fn check_order(cx: &Ctxt, min: &Attr<u64>, max: &Attr<u64>, min_name: &str, max_name: &str) {
    if let (Some(lo), Some(hi), Some(tokens)) = (min.get(), max.get(), min.tokens()) {
        if lo > hi {
            cx.error_spanned_by(tokens, format!("{min_name} = {lo} is greater than {max_name} = {hi}: no value would be accepted"));
        }
    }
}

/// `minimum` above `maximum` admits no number.
fn check_range_is_ordered(cx: &Ctxt, field: &Field) {
    if let (Some(lo), Some(hi)) = (field.attrs.minimum.get(), field.attrs.maximum.get()) {
        if lo.value.as_f64() > hi.value.as_f64() {
            cx.error_spanned_by(
                &lo.tokens,
                format!(
                    "minimum {} is greater than maximum {}: no value would be accepted",
                    lo.tokens, hi.tokens
                ),
            );
        }
    }
}

/// A `pattern` must compile, with the regex engine the parser uses.
fn check_pattern_compiles(cx: &Ctxt, field: &Field) {
    if let Some(pattern) = field.attrs.pattern.get() {
        if let Err(err) = regex::Regex::new(&pattern.value()) {
            cx.error_spanned_by(
                pattern,
                format!("`pattern` is not a valid regular expression: {err}"),
            );
        }
    }
}

/// A default must itself pass the field's bounds, pattern and item counts, or the form would
/// offer a value it then rejects.
fn check_default_fits(cx: &Ctxt, field: &Field) {
    let Some(default) = field.attrs.default.get() else {
        return;
    };
    let a = &field.attrs;
    let expr = &default.expr;
    match &default.kind {
        DefaultKind::Str(text) => {
            let length = text.chars().count() as u64;
            if let Some(min) = a.min_length.get().filter(|min| length < **min) {
                cx.error_spanned_by(
                    expr,
                    format!("default is {length} characters long, shorter than min_length = {min}"),
                );
            }
            if let Some(max) = a.max_length.get().filter(|max| length > **max) {
                cx.error_spanned_by(
                    expr,
                    format!("default is {length} characters long, longer than max_length = {max}"),
                );
            }
            if let Some(pattern) = a.pattern.get() {
                if let Ok(regex) = regex::Regex::new(&pattern.value()) {
                    if !regex.is_match(text) {
                        cx.error_spanned_by(
                            expr,
                            format!(
                                "default \"{text}\" does not match the pattern {}",
                                pattern.value()
                            ),
                        );
                    }
                }
            }
        }
        DefaultKind::Number(value) => {
            if let Some(min) = a.minimum.get().filter(|min| below(*value, min.value)) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "default {} is below minimum {}",
                        expr.to_token_stream(),
                        min.tokens
                    ),
                );
            }
            if let Some(max) = a.maximum.get().filter(|max| below(max.value, *value)) {
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
            if let Some(min) = a.min_items.get().filter(|min| count < **min) {
                cx.error_spanned_by(
                    expr,
                    format!("default selects {count} items, fewer than min_items = {min}"),
                );
            }
            if let Some(max) = a.max_items.get().filter(|max| count > **max) {
                cx.error_spanned_by(
                    expr,
                    format!("default selects {count} items, more than max_items = {max}"),
                );
            }
            let mut seen = Vec::new();
            for item in items {
                let text = item.to_token_stream().to_string();
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
    let mut seen: HashMap<&String, ()> = HashMap::new();
    for (name, tokens) in names {
        if seen.insert(name, ()).is_some() {
            cx.error_spanned_by(
                tokens,
                format!("the wire name \"{name}\" is used twice; rename one of them"),
            );
        }
    }
}

/// elicit and serde must agree on a field's wire name, so content round-trips through serde.
fn check_serde_rename_agrees(cx: &Ctxt, field: &Field) {
    if let (Some(ours), Some(theirs)) = (field.attrs.rename.get(), &field.attrs.serde_rename) {
        if ours.value() != theirs.value() {
            cx.error_spanned_by(ours, format!("#[elicit(rename = \"{}\")] disagrees with #[serde(rename = \"{}\")]: content would not round-trip through serde", ours.value(), theirs.value()));
        }
    }
}

/// elicit's and serde's `rename_all` must agree for the same reason.
fn check_serde_rename_all_agrees(cx: &Ctxt, attrs: &crate::attr::Container) {
    if let (Some(ours), Some((lit, theirs)), Some(tokens)) = (
        attrs.rename_all.get(),
        &attrs.serde_rename_all,
        attrs.rename_all.tokens(),
    ) {
        if ours != theirs {
            cx.error_spanned_by(tokens, format!("#[elicit(rename_all)] disagrees with #[serde(rename_all = \"{}\")]: content would not round-trip through serde", lit.value()));
        }
    }
}
