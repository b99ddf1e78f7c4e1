//! The string formats of the spec, checked with well-kept parsers rather than ad-hoc regexes:
//! `email_address` for mailbox syntax, `fluent-uri` for RFC 3986 URIs, `time` for RFC 3339.

use crate::schema::StringFormat;

mod bytes;
pub(crate) mod date;
mod email;
mod uri;

use date::{date, date_time};
use email::email;
use uri::uri;

/// Checks `value` against `format`, saying why it is not of it.
#[inline(always)]
pub(crate) fn check(format: StringFormat, value: &str) -> Result<(), String> {
    match format {
        StringFormat::Email => email(value),
        StringFormat::Uri => uri(value),
        StringFormat::Date => date(value),
        StringFormat::DateTime => date_time(value),
    }
}
