//! The string formats of the spec, checked with well-kept parsers rather than ad-hoc regexes:
//! `email_address` for mailbox syntax, `fluent-uri` for RFC 3986 URIs, `time` for RFC 3339.

use time::format_description::well_known::Rfc3339;

use crate::schema::StringFormat;

/// Checks `value` against `format`, saying why it is not of it.
pub(crate) fn check(format: StringFormat, value: &str) -> Result<(), String> {
    match format {
        StringFormat::Email => email(value),
        StringFormat::Uri => uri(value),
        StringFormat::Date => date(value),
        StringFormat::DateTime => date_time(value),
    }
}

fn email(value: &str) -> Result<(), String> {
    value
        .parse::<email_address::EmailAddress>()
        .map(drop)
        .map_err(|e| e.to_string())
}

fn uri(value: &str) -> Result<(), String> {
    // `Uri` (not `UriRef`) demands a scheme: JSON Schema's `uri` is an absolute URI.
    fluent_uri::Uri::parse(value)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// RFC 3339 `full-date`: exactly `YYYY-MM-DD`, a real day of the Gregorian calendar.
fn date(value: &str) -> Result<(), String> {
    let bytes = value.as_bytes();
    let shape_ok = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && [0, 1, 2, 3, 5, 6, 8, 9].iter().all(|&i| bytes[i].is_ascii_digit());
    if !shape_ok {
        return Err("expected YYYY-MM-DD".to_owned());
    }
    let number = |range: std::ops::Range<usize>| -> i32 {
        bytes[range]
            .iter()
            .fold(0, |n, d| n * 10 + i32::from(d - b'0'))
    };
    let month = time::Month::try_from(number(5..7) as u8).map_err(|e| e.to_string())?;
    time::Date::from_calendar_date(number(0..4), month, number(8..10) as u8)
        .map(drop)
        .map_err(|e| e.to_string())
}

fn date_time(value: &str) -> Result<(), String> {
    time::OffsetDateTime::parse(value, &Rfc3339)
        .map(drop)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_exist() {
        assert!(check(StringFormat::Date, "2024-02-29").is_ok());
        assert!(check(StringFormat::Date, "2023-02-29").is_err());
        assert!(check(StringFormat::Date, "2024-2-29").is_err());
        assert!(check(StringFormat::Date, "2024-13-01").is_err());
        assert!(check(StringFormat::Date, "２０２４-02-29").is_err());
    }

    #[test]
    fn date_times_are_rfc3339() {
        assert!(check(StringFormat::DateTime, "2024-02-29T12:30:00Z").is_ok());
        assert!(check(StringFormat::DateTime, "2024-02-29T12:30:00.5+02:00").is_ok());
        assert!(check(StringFormat::DateTime, "2024-02-29 12:30").is_err());
        assert!(check(StringFormat::DateTime, "2024-02-29T12:30:00").is_err());
    }

    #[test]
    fn emails_and_uris() {
        assert!(check(StringFormat::Email, "octocat@github.com").is_ok());
        assert!(check(StringFormat::Email, "octocat").is_err());
        assert!(check(StringFormat::Email, "a@b@c").is_err());
        assert!(check(StringFormat::Uri, "https://example.com/a?b#c").is_ok());
        assert!(check(StringFormat::Uri, "urn:isbn:0451450523").is_ok());
        assert!(check(StringFormat::Uri, "/relative/path").is_err());
        assert!(check(StringFormat::Uri, "http://exa mple.com").is_err());
    }
}
