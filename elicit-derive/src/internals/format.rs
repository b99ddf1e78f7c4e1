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
        "email" => email(value),
        "uri" => fluent_uri::Uri::parse(value)
            .map(drop)
            .map_err(|e| e.to_string()),
        "date" => date(value),
        _ => date_time(value),
    }
}

/// RFC 5321's `Mailbox`, as the runtime reads it (`form/format/email.rs`, whose rules these
/// repeat: change one, change the other): what `email_address` parses, without a display name,
/// with an ASCII local part and a domain that is a host name or an IP address literal.
fn email(value: &str) -> Result<(), String> {
    let options = email_address::Options {
        allow_display_text: false,
        ..email_address::Options::default()
    };
    let address = email_address::EmailAddress::parse_with_options(value, options)
        .map_err(|e| e.to_string())?;
    if !address.local_part().is_ascii() {
        return Err("the part before the @ must be ASCII".to_owned());
    }
    let domain = address.domain();
    let is_domain = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
                literal[5..].parse::<std::net::Ipv6Addr>().is_ok()
            }
            _ => literal.parse::<std::net::Ipv4Addr>().is_ok(),
        },
        None => {
            domain.len() <= 253
                && domain.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && !label.starts_with('-')
                        && !label.ends_with('-')
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                })
        }
    };
    if is_domain {
        Ok(())
    } else {
        Err("the part after the @ must be a host name or an IP address in brackets".to_owned())
    }
}

/// RFC 3339 `date-time`, as the runtime reads it: what `time` parses, with a `T` (or `t`)
/// between the date and the time, where `time` takes any byte.
fn date_time(value: &str) -> Result<(), String> {
    time::OffsetDateTime::parse(value, &Rfc3339).map_err(|e| e.to_string())?;
    if !matches!(value.as_bytes().get(10), Some(b'T' | b't')) {
        return Err("the date and the time must be separated by a T".to_owned());
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn a_default_is_held_to_the_runtime_s_reading_of_its_format() {
        for (format, not_of_it) in [
            ("email", "Ada <ada@example.com>"),
            ("email", "josé@example.com"),
            ("email", "a@exa_mple.com"),
            ("email", "a@[8]"),
            ("date-time", "2024-02-29 12:30:00Z"),
            ("date-time", "2024-02-29x12:30:00Z"),
        ] {
            assert!(check(format, not_of_it).is_err(), "{format} {not_of_it}");
        }
        for (format, of_it) in [
            ("email", "team@example.com"),
            ("email", "a@[127.0.0.1]"),
            ("email", "a@[IPv6:::1]"),
            ("date-time", "2024-02-29t12:30:00z"),
        ] {
            assert_eq!(check(format, of_it), Ok(()), "{format} {of_it}");
        }
    }
}
