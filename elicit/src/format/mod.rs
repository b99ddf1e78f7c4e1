//! The string formats of the spec, checked with well-kept parsers rather than ad-hoc regexes:
//! `email_address` for mailbox syntax, `fluent-uri` for RFC 3986 URIs, `time` for RFC 3339.

use time::format_description::well_known::Rfc3339;

use crate::schema::StringFormat;

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

fn email(value: &str) -> Result<(), String> {
    // Most addresses are a plain dot-atom at a host name; those are settled in one pass here.
    // Anything else (quoted local parts, address literals, non-ASCII) goes to `email_address`,
    // whose full RFC 5321/5322 parse costs several times more. The fast path only accepts what
    // `email_address` accepts too (a test holds it to that), so the answer never depends on
    // which path ran.
    if is_plain_address(value) {
        return Ok(());
    }
    value
        .parse::<email_address::EmailAddress>()
        .map(drop)
        .map_err(|e| e.to_string())
}

/// `local@host.tld`: an ASCII dot-atom local part of at most 64 characters, and a host of at
/// least two letter-digit-hyphen labels ending in an alphabetic one, at most 253 characters.
/// One pass over the bytes, with one table lookup each: this runs on every email field.
fn is_plain_address(value: &str) -> bool {
    let bytes = value.as_bytes();
    let Some(at) = dot_atom_end(bytes) else {
        return false;
    };
    let domain = &bytes[at + 1..];
    at <= 64 && domain.len() <= 253 && is_host_name(domain)
}

/// Where a dot-atom (non-empty atoms of RFC 5322 `atext` joined by single dots) ends at an
/// `@`; `None` when the bytes before the first `@` are not one, or there is no `@`.
fn dot_atom_end(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        let atom = i;
        i = run_in(bytes, i, &ATEXT);
        if i == atom {
            return None;
        }
        match bytes.get(i) {
            Some(b'.') => i += 1,
            Some(b'@') => return Some(i),
            _ => return None,
        }
    }
}

/// From `i`, the index of the first byte not in `set` (the length when there is none). The
/// loop the fast paths spend their time in: table lookups, one branch per four bytes.
fn run_in(bytes: &[u8], mut i: usize, set: &ByteSet) -> usize {
    // Four bytes a step while all four are in: one branch for four lookups.
    while let Some(&[a, b, c, d]) = bytes.get(i..i + 4) {
        if !(set.contains(a) & set.contains(b) & set.contains(c) & set.contains(d)) {
            break;
        }
        i += 4;
    }
    while i < bytes.len() && set.contains(bytes[i]) {
        i += 1;
    }
    i
}

/// A set of ASCII bytes, for one table lookup per byte in the fast paths.
struct ByteSet([bool; 256]);

impl ByteSet {
    const fn of(groups: &[&[u8]]) -> ByteSet {
        let mut set = [false; 256];
        let mut g = 0;
        while g < groups.len() {
            let mut i = 0;
            while i < groups[g].len() {
                set[groups[g][i] as usize] = true;
                i += 1;
            }
            g += 1;
        }
        ByteSet(set)
    }

    fn contains(&self, byte: u8) -> bool {
        self.0[byte as usize]
    }
}

const DIGITS: &[u8] = b"0123456789";
const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// RFC 5322 `atext`.
static ATEXT: ByteSet = ByteSet::of(&[LETTERS, DIGITS, b"!#$%&'*+-/=?^_`{|}~"]);
/// Letters, digits and hyphens: a host name label's bytes.
static LDH: ByteSet = ByteSet::of(&[LETTERS, DIGITS, b"-"]);

/// Dot-separated labels of 1 to 63 letters, digits and inner hyphens; at least two; the last
/// alphabetic.
fn is_host_name(domain: &[u8]) -> bool {
    let (mut i, mut labels) = (0, 0);
    loop {
        let start = i;
        i = run_in(domain, i, &LDH);
        let label = &domain[start..i];
        let well_formed = !label.is_empty()
            && label.len() <= 63
            && label[0] != b'-'
            && label[label.len() - 1] != b'-';
        if !well_formed {
            return false;
        }
        labels += 1;
        match domain.get(i) {
            Some(b'.') => i += 1,
            Some(_) => return false,
            None => return labels >= 2 && label.iter().all(u8::is_ascii_alphabetic),
        }
    }
}

fn uri(value: &str) -> Result<(), String> {
    // As for emails: the common shape (a scheme, a registered host name, no IP literal) is settled
    // in one pass here, accepting only what `fluent-uri` accepts (a test holds it to that); any
    // other goes to `fluent-uri`, which decides. `Uri` (not `UriRef`) demands a scheme: JSON
    // Schema's `uri` is an absolute URI.
    if is_plain_uri(value.as_bytes()) {
        return Ok(());
    }
    fluent_uri::Uri::parse(value)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// RFC 3986 `unreserved` and `sub-delims`, the bytes every part below takes.
const UNRESERVED_SUB_DELIMS: &[u8] = b"-._~!$&'()*+,;=";
/// A scheme's bytes after its first letter.
static SCHEME: ByteSet = ByteSet::of(&[LETTERS, DIGITS, b"+-."]);
/// The bytes an authority may hold, its `@` and `:` included (besides `%XX`).
static AUTHORITY: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":@"]);
/// `userinfo` bytes (besides `%XX`).
static USERINFO: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":"]);
/// `reg-name` bytes (besides `%XX`).
static REG_NAME: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS]);
/// Path bytes: `pchar` and `/` (besides `%XX`).
static PATH: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":@/"]);
/// Query and fragment bytes: `pchar`, `/` and `?` (besides `%XX`).
static QUERY: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":@/?"]);

/// Whether every byte is in `set` or starts a `%XX` escape.
fn all_in(part: &[u8], set: &ByteSet) -> bool {
    scan(part, 0, set) == Some(part.len())
}

/// From `i`, the index of the first byte that is neither in `set` nor in a `%XX` escape (the
/// length when there is none); `None` at a broken escape.
fn scan(bytes: &[u8], mut i: usize, set: &ByteSet) -> Option<usize> {
    loop {
        i = run_in(bytes, i, set);
        if bytes.get(i) != Some(&b'%') {
            return Some(i);
        }
        let escaped = bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if !escaped {
            return None;
        }
        i += 3;
    }
}

/// An absolute URI of RFC 3986 whose host, if any, is a registered name (no `[..]` literal):
/// `scheme ":" hier-part ["?" query] ["#" fragment]`. One pass, but for the authority's parts.
fn is_plain_uri(value: &[u8]) -> bool {
    if !value.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let colon = run_in(value, 1, &SCHEME);
    if value.get(colon) != Some(&b':') {
        return false;
    }
    let mut i = colon + 1;
    if value[i..].starts_with(b"//") {
        // The authority runs to the first byte no authority takes; the path must start there.
        let start = i + 2;
        let Some(end) = scan(value, start, &AUTHORITY) else {
            return false;
        };
        if !is_plain_authority(&value[start..end]) {
            return false;
        }
        i = end;
    }
    // path-abempty after an authority, else path-absolute, path-rootless or path-empty ("//"
    // was taken above); then the query and the fragment.
    let Some(mut i) = scan(value, i, &PATH) else {
        return false;
    };
    // The fragment takes the query's bytes, so a second `#` ends the scan short of the end.
    for mark in [b'?', b'#'] {
        if value.get(i) == Some(&mark) {
            match scan(value, i + 1, &QUERY) {
                Some(next) => i = next,
                None => return false,
            }
        }
    }
    i == value.len()
}

/// `[userinfo "@"] host [":" port]`, the host a registered name. The authority's bytes are
/// those of a `reg-name` plus `:` and `@`, so a first scan as a host stops at one of those two
/// or at the end, and decides the common shapes in one pass: `host`, `host:port` and
/// `user@host...`; only a userinfo with a `:` is scanned again.
fn is_plain_authority(authority: &[u8]) -> bool {
    let Some(end) = scan(authority, 0, &REG_NAME) else {
        return false;
    };
    match authority.get(end) {
        None => true,
        // The first `@`, after bytes a userinfo takes.
        Some(b'@') => is_host_and_port(&authority[end + 1..]),
        Some(b':') if authority[end + 1..].iter().all(u8::is_ascii_digit) => true,
        Some(b':') => match authority.iter().position(|&b| b == b'@') {
            Some(at) if all_in(&authority[..at], &USERINFO) => {
                is_host_and_port(&authority[at + 1..])
            }
            _ => false,
        },
        Some(_) => false,
    }
}

/// `host [":" port]`, the host a registered name.
fn is_host_and_port(part: &[u8]) -> bool {
    let Some(end) = scan(part, 0, &REG_NAME) else {
        return false;
    };
    match part.get(end) {
        None => true,
        Some(b':') => part[end + 1..].iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// RFC 3339 `full-date`: exactly `YYYY-MM-DD`, a real day of the Gregorian calendar.
fn date(value: &str) -> Result<(), String> {
    // Every `YYYY` is within `time`'s years, so a real day is what `parse_date` accepts; it
    // runs only to word the refusal.
    let b = value.as_bytes();
    let real_day = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && match (
            two_digits(b, 0),
            two_digits(b, 2),
            two_digits(b, 5),
            two_digits(b, 8),
        ) {
            (Some(century), Some(yy), Some(month), Some(day)) => {
                (1..=12).contains(&month)
                    && day >= 1
                    && day <= days_in_month(century * 100 + yy, month)
            }
            _ => false,
        };
    if real_day {
        return Ok(());
    }
    parse_date(value).map(drop)
}

/// A `full-date` as `time`'s date.
pub(crate) fn parse_date(value: &str) -> Result<time::Date, String> {
    let (year, month, day) = year_month_day(value)?;
    let month = time::Month::try_from(month).map_err(|e| e.to_string())?;
    time::Date::from_calendar_date(year, month, day).map_err(|e| e.to_string())
}

/// The numbers of a text shaped `YYYY-MM-DD`, not yet checked to be a day of the calendar: each
/// date type checks that itself when built from them.
pub(crate) fn year_month_day(value: &str) -> Result<(i32, u8, u8), String> {
    let bytes = value.as_bytes();
    let shape_ok = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && [0, 1, 2, 3, 5, 6, 8, 9]
            .iter()
            .all(|&i| bytes[i].is_ascii_digit());
    if !shape_ok {
        return Err("expected YYYY-MM-DD".to_owned());
    }
    let number = |range: std::ops::Range<usize>| -> i32 {
        bytes[range]
            .iter()
            .fold(0, |n, d| n * 10 + i32::from(d - b'0'))
    };
    Ok((number(0..4), number(5..7) as u8, number(8..10) as u8))
}

fn date_time(value: &str) -> Result<(), String> {
    // As for emails and URIs: the common shape is settled in one pass over the bytes, accepting
    // only what `time` accepts (a test holds it to that); anything else (a leap second, another
    // separator, a year at the ends of `time`'s range) goes to `time`, which decides.
    if is_plain_date_time(value.as_bytes()) {
        return Ok(());
    }
    parse_date_time(value).map(drop)
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, `T` and `Z` in either case: a real day
/// of a year from 1 to 9998, an hour to 23, minutes and seconds to 59, an offset to 23:59.
fn is_plain_date_time(b: &[u8]) -> bool {
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return false;
    }
    let (Some(century), Some(yy), Some(month), Some(day)) = (
        two_digits(b, 0),
        two_digits(b, 2),
        two_digits(b, 5),
        two_digits(b, 8),
    ) else {
        return false;
    };
    let (Some(hour), Some(minute), Some(second)) =
        (two_digits(b, 11), two_digits(b, 14), two_digits(b, 17))
    else {
        return false;
    };
    let year = century * 100 + yy;
    let calendar_day = (1..=9998).contains(&year)
        && (1..=12).contains(&month)
        && day >= 1
        && day <= days_in_month(year, month);
    if !calendar_day || hour > 23 || minute > 59 || second > 59 {
        return false;
    }
    let mut i = 19;
    if b[i] == b'.' {
        let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        i += 1 + digits;
    }
    match &b[i..] {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', _, _, b':', _, _] => matches!(
            (two_digits(b, i + 1), two_digits(b, i + 4)),
            (Some(hours), Some(minutes)) if hours <= 23 && minutes <= 59
        ),
        _ => false,
    }
}

/// The number of the two ASCII digits at `at`, if both are digits.
#[inline(always)]
fn two_digits(b: &[u8], at: usize) -> Option<u32> {
    let (tens, ones) = (b[at].wrapping_sub(b'0'), b[at + 1].wrapping_sub(b'0'));
    (tens < 10 && ones < 10).then(|| u32::from(tens) * 10 + u32::from(ones))
}

/// The days of `month` (1 to 12) in `year` of the Gregorian calendar.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// An RFC 3339 `date-time` as `time`'s offset date-time.
pub(crate) fn parse_date_time(value: &str) -> Result<time::OffsetDateTime, String> {
    time::OffsetDateTime::parse(value, &Rfc3339).map_err(|e| e.to_string())
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
    fn the_fast_email_path_accepts_only_what_email_address_accepts() {
        let samples = [
            "octocat@github.com",
            "a.b.c@d-e.example.org",
            "x+tag@sub.example.co",
            "o'neil@example.ie",
            "a..b@example.com",
            ".a@example.com",
            "a.@example.com",
            "a@-example.com",
            "a@example-.com",
            "a@example",
            "a@example.123",
            "a@exa_mple.com",
            "\"quoted\"@example.com",
            "a@[127.0.0.1]",
            "josé@example.com",
            "a@b@example.com",
            "@example.com",
            "a@",
            "a@.example.com",
        ];
        for sample in samples {
            if is_plain_address(sample) {
                assert!(
                    sample.parse::<email_address::EmailAddress>().is_ok(),
                    "the fast path accepted {sample}, which email_address rejects"
                );
            }
        }
        // The common shapes take the fast path.
        for plain in [
            "octocat@github.com",
            "a.b.c@d-e.example.org",
            "x+tag@sub.example.co",
        ] {
            assert!(is_plain_address(plain), "{plain}");
        }
        assert!(!is_plain_address("a..b@example.com"));
        // Not plain, so left to email_address, which decides it either way.
        assert!(!is_plain_address("\"quoted\"@example.com"));
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

    #[test]
    fn the_fast_uri_path_accepts_only_what_fluent_uri_accepts() {
        let samples = [
            "https://github.com/octocat",
            "https://example.com/a?b=c#d",
            "http://user:pw@example.com:8080/p/a/t/h?q=1&r=%20#frag/?",
            "urn:isbn:0451450523",
            "mailto:a@example.com",
            "file:///etc/hosts",
            "a:",
            "a:/b",
            "a://",
            "https://exa mple.com",
            "https://example.com/%zz",
            "https://example.com/%4",
            "https://[::1]/",
            "https://example.com:80a/",
            "https://a@b@c/",
            "1http://example.com",
            "//example.com",
            "https://example.com/#a#b",
            "https://example.com/é",
            "https://ex%41mple.com/",
            "https://example.com:/",
        ];
        for sample in samples {
            if is_plain_uri(sample.as_bytes()) {
                assert!(
                    fluent_uri::Uri::parse(sample).is_ok(),
                    "the fast path accepted {sample}, which fluent-uri rejects"
                );
            }
        }
        // The common shapes take the fast path.
        for plain in [
            "https://github.com/octocat",
            "urn:isbn:0451450523",
            "http://user:pw@example.com:8080/p/a/t/h?q=1&r=%20#frag/?",
            "file:///etc/hosts",
            "https://example.com?q",
            "https://example.com#top",
        ] {
            assert!(is_plain_uri(plain.as_bytes()), "{plain}");
        }
        assert!(
            !is_plain_uri(b"https://[::1]/"),
            "IP literals go to fluent-uri"
        );
        assert!(!is_plain_uri(b"https://example.com/%zz"));
    }

    #[test]
    fn the_fast_date_time_path_accepts_only_what_time_accepts() {
        let samples = [
            "2024-02-29T12:30:00Z",
            "2024-02-29t12:30:00z",
            "2023-02-29T12:30:00Z",
            "1900-02-29T12:30:00Z",
            "2000-02-29T12:30:00Z",
            "2024-04-31T12:30:00Z",
            "2024-02-29T12:30:00.123456789123+02:00",
            "2024-02-29T12:30:00.+02:00",
            "2024-02-29T24:00:00Z",
            "2024-02-29T23:60:00Z",
            "2024-12-31T23:59:60Z",
            "2024-02-29T12:30:00+24:00",
            "2024-02-29T12:30:00+23:60",
            "2024-02-29T12:30:00-00:00",
            "2024-02-29 12:30:00Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2024-02-29T12:30:00",
            "2024-02-29T12:30:00Z ",
            "2024-02-29T12:30:00+0200",
            "+2024-02-29T12:30:00Z",
        ];
        for sample in samples {
            if is_plain_date_time(sample.as_bytes()) {
                assert!(
                    parse_date_time(sample).is_ok(),
                    "the fast path accepted {sample}, which time rejects"
                );
            }
        }
        for plain in [
            "2024-02-29T12:30:00Z",
            "2024-02-29t12:30:00z",
            "2000-02-29T00:00:00.5-05:30",
            "2026-03-01T09:30:00+01:00",
        ] {
            assert!(is_plain_date_time(plain.as_bytes()), "{plain}");
        }
        for not_a_date_time in [
            "2023-02-29T12:30:00Z",
            "2024-04-31T12:30:00Z",
            "1900-02-29T12:30:00Z",
        ] {
            assert!(
                check(StringFormat::DateTime, not_a_date_time).is_err(),
                "{not_a_date_time}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_date_time_path_is_a_subset_of_time(
            value in "[0-9]{4}-[0-3][0-9]-[0-3][0-9][Tt ][0-2][0-9]:[0-6][0-9]:[0-6][0-9](\\.[0-9]{0,3})?([Zz]|[+-][0-2][0-9]:[0-6][0-9])?",
        ) {
            if is_plain_date_time(value.as_bytes()) {
                proptest::prop_assert!(parse_date_time(&value).is_ok(), "{}", value);
            }
        }

        #[test]
        fn fast_uri_path_is_a_subset_of_fluent_uri(
            value in "[a-z+.1-]{0,4}:(//([a-z:%@]{0,4}@)?[a-z0-9.%~-]{0,6}(:[0-9a-z]{0,3})?)?[/a-z%2F:@!$'()*+,;=.]{0,8}(\\?[a-z/?%=&#]{0,6})?(#[a-z/?#%]{0,4})?",
        ) {
            if is_plain_uri(value.as_bytes()) {
                proptest::prop_assert!(fluent_uri::Uri::parse(value.as_str()).is_ok(), "{}", value);
            }
        }


        #[test]
        fn fast_email_path_is_a_subset_of_email_address(
            value in "[a-z0-9.+_'-]{0,8}@?[a-z0-9.-]{0,10}(\\.[a-z0-9]{0,4})?",
        ) {
            if is_plain_address(&value) {
                proptest::prop_assert!(value.parse::<email_address::EmailAddress>().is_ok(), "{}", value);
            }
        }
    }
}
