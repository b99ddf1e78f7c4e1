//! The spec's four string formats, checked at compile time with the parsers the runtime uses
//! (`email_address`, `fluent-uri`, `time`), so a default the parser would refuse does not
//! compile.

use proc_macro2::Ident;
use quote::format_ident;
use time::format_description::well_known::Rfc3339;

/// The formats the spec allows, as written in `format = ".."`, with the runtime's variant name.
pub const FORMATS: &[(&str, &str)] = &[
    ("email", "Email"),
    ("uri", "Uri"),
    ("date", "Date"),
    ("date-time", "DateTime"),
];

/// The runtime's `StringFormat` variant of a supported format name.
pub fn variant(name: &str) -> Option<Ident> {
    FORMATS
        .iter()
        .find(|(written, _)| *written == name)
        .map(|(_, variant)| format_ident!("{}", variant))
}

/// What a value of the format `name` looks like, for an error.
pub fn example(name: &str) -> &'static str {
    match name {
        "email" => "an email address such as team@example.com",
        "uri" => "an absolute URI such as https://example.com/",
        "date" => "an RFC 3339 full-date such as 2024-02-29",
        _ => "an RFC 3339 date-time such as 2024-02-29T12:00:00Z",
    }
}

/// Whether `value` is of the format `name`, and why not.
pub fn check(name: &str, value: &str) -> Result<(), String> {
    match name {
        "email" => value
            .parse::<email_address::EmailAddress>()
            .map(drop)
            .map_err(|e| e.to_string()),
        "uri" => fluent_uri::Uri::parse(value)
            .map(drop)
            .map_err(|e| e.to_string()),
        "date" => date(value),
        _ => time::OffsetDateTime::parse(value, &Rfc3339)
            .map(drop)
            .map_err(|e| e.to_string()),
    }
}

/// RFC 3339 `full-date`: exactly `YYYY-MM-DD`, a real day of the Gregorian calendar.
fn date(value: &str) -> Result<(), String> {
    let bytes = value.as_bytes();
    let digits = [0, 1, 2, 3, 5, 6, 8, 9];
    let shape_ok = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && digits.iter().all(|&i| bytes[i].is_ascii_digit());
    if !shape_ok {
        return Err("expected YYYY-MM-DD".to_owned());
    }
    let number = |text: &str| text.parse::<u16>().unwrap_or_default();
    let month = time::Month::try_from(number(&value[5..7]) as u8).map_err(|e| e.to_string())?;
    time::Date::from_calendar_date(
        number(&value[0..4]).into(),
        month,
        number(&value[8..10]) as u8,
    )
    .map(drop)
    .map_err(|e| e.to_string())
}
