//! The string formats of the spec, checked with well-kept parsers rather than ad-hoc regexes:
//! `email_address` for mailbox syntax, `fluent-uri` for RFC 3986 URIs, `time` for RFC 3339.

use std::fmt;

use crate::schema::StringFormat;

mod bytes;
pub(crate) mod date;
mod email;
mod uri;

use date::{date, date_time};
use email::email;
use uri::uri;

/// What a value of `format` is, in words a person reads who never saw the schema, with an
/// example: the same on the server's errors and in the client's renderers.
pub(crate) fn described(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "an email address like name@example.com",
        StringFormat::Uri => "a full web address like https://example.com/",
        StringFormat::Date => "a date like 2026-12-24",
        StringFormat::DateTime => "a date and time like 2026-12-24T18:30:00Z",
    }
}

/// A parser's refusal as the end of a sentence: its first letter in lower case, no full stop
/// (`email_address` writes "Missing separator character '@'.").
pub(crate) fn reason(refusal: impl fmt::Display) -> String {
    let text = refusal.to_string();
    let text = text.trim_end_matches('.');
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Checks `value` against `format`, saying why it is not of it (empty where the format's
/// [example](described) says it all).
#[inline(always)]
pub(crate) fn check(format: StringFormat, value: &str) -> Result<(), String> {
    match format {
        StringFormat::Email => email(value),
        StringFormat::Uri => uri(value),
        StringFormat::Date => date(value),
        StringFormat::DateTime => date_time(value),
    }
}
