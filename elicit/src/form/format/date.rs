//! `date` and `date-time`: RFC 3339, by `time`, with fast paths for the common shapes.

use time::format_description::well_known::Rfc3339;

/// RFC 3339 `full-date`: exactly `YYYY-MM-DD`, a real day of the Gregorian calendar.
pub(super) fn date(value: &str) -> Result<(), String> {
    // Every `YYYY` is within `time`'s years, so a real day is what `parse_date` accepts; it
    // runs only to word the refusal.
    let b = value.as_bytes();
    if b.len() == 10 && real_day_year(b).is_some() {
        return Ok(());
    }
    by_time(parse_date, value)
}

/// `time`'s parse, out of line, as for emails: it decides what the fast paths leave and words
/// the refusal.
#[cold]
#[inline(never)]
fn by_time<T>(parse: fn(&str) -> Result<T, String>, value: &str) -> Result<(), String> {
    parse(value).map(drop)
}

/// A `full-date` as `time`'s date.
pub(crate) fn parse_date(value: &str) -> Result<time::Date, String> {
    let (year, month, day) = year_month_day(value)?;
    time::Month::try_from(month)
        .ok()
        .and_then(|named| time::Date::from_calendar_date(year, named, day).ok())
        .ok_or_else(|| not_a_day(year, month, day))
}

/// Why a text shaped `YYYY-MM-DD` is not a day, in words: "February 2026 has no day 30",
/// "there is no month 13".
pub(crate) fn not_a_day(year: i32, month: u8, day: u8) -> String {
    match time::Month::try_from(month) {
        Ok(named) => format!("{named} {year} has no day {day}"),
        Err(_) => format!("there is no month {month}"),
    }
}

/// The numbers of a text shaped `YYYY-MM-DD`, not yet checked to be a day of the calendar: each
/// date type checks that itself when built from them.
pub(crate) fn year_month_day(value: &str) -> Result<(i32, u8, u8), String> {
    let bytes = value.as_bytes();
    match (bytes.len() == 10).then(|| date_numbers(bytes)).flatten() {
        // Four digits and two: each number fits.
        Some((year, month, day)) => Ok((year as i32, month as u8, day as u8)),
        // The format's example says how it is written.
        None => Err(String::new()),
    }
}

pub(super) fn date_time(value: &str) -> Result<(), String> {
    // As for emails and URIs: the common shape is settled in one pass over the bytes, accepting
    // only what `time` accepts (a test holds it to that); anything else (a leap second, another
    // separator, a year at the ends of `time`'s range) goes to `time`, which decides.
    if is_plain_date_time(value.as_bytes()) {
        return Ok(());
    }
    by_time(parse_date_time, value)
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, `T` and `Z` in either case: a real day
/// of a year from 1 to 9998, an hour to 23, minutes and seconds to 59, an offset to 23:59.
fn is_plain_date_time(b: &[u8]) -> bool {
    if b.len() < 20 || !matches!(b[10], b'T' | b't') {
        return false;
    }
    let Some(year) = real_day_year(b) else {
        return false;
    };
    // `HH:MM:SS` as one word: colons at lanes 2 and 5, digits elsewhere.
    let clock = word_at(b, 11);
    let Some(digits) = digit_lanes(clock, 0xFFFF_00FF_FF00_FFFF) else {
        return false;
    };
    let (hour, minute, second) = (
        lanes_number(digits, 0, 2),
        lanes_number(digits, 3, 2),
        lanes_number(digits, 6, 2),
    );
    if clock & 0x0000_FF00_00FF_0000 != 0x0000_3A00_003A_0000
        || !(1..=9998).contains(&year)
        || hour > 23
        || minute > 59
        || second > 59
    {
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

/// The year of the `YYYY-MM-DD` that `b` starts with (at least 10 bytes), when it is a real
/// day of the Gregorian calendar.
fn real_day_year(b: &[u8]) -> Option<u32> {
    let (year, month, day) = date_numbers(b)?;
    let real = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
    real.then_some(year)
}

/// The year, month and day written by the `YYYY-MM-DD` that `b` starts with (at least 10
/// bytes), not yet checked to be a day of the calendar. The first eight bytes are checked as
/// one word.
fn date_numbers(b: &[u8]) -> Option<(u32, u32, u32)> {
    // `YYYY-MM-`: dashes at lanes 4 and 7, digits elsewhere.
    let head = word_at(b, 0);
    let digits = digit_lanes(head, 0x00FF_FF00_FFFF_FFFF)?;
    if head & 0xFF00_00FF_0000_0000 != 0x2D00_002D_0000_0000 {
        return None;
    }
    Some((
        lanes_number(digits, 0, 4),
        lanes_number(digits, 5, 2),
        two_digits(b, 8)?,
    ))
}

/// The eight bytes of `b` from `at`, as a little-endian word (byte `at` in the low lane).
fn word_at(b: &[u8], at: usize) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(bytes)
}

/// The digits' values in the byte lanes of `word` that `lanes` selects (the others zero), when
/// every one of them is an ASCII digit.
fn digit_lanes(word: u64, lanes: u64) -> Option<u64> {
    let values = (word ^ 0x3030_3030_3030_3030) & lanes;
    // A lane holds a digit when its value is under 10: no high nibble, before or after adding
    // 6. (A carry out of a lane only ever rejects: the lane it left already failed.)
    let over =
        (values | values.wrapping_add(0x0606_0606_0606_0606 & lanes)) & 0xF0F0_F0F0_F0F0_F0F0;
    (over == 0).then_some(values)
}

/// The number written by the `count` digit lanes of `digits` from lane `first`.
fn lanes_number(digits: u64, first: u32, count: u32) -> u32 {
    (first..first + count).fold(0, |n, lane| n * 10 + ((digits >> (8 * lane)) & 0xFF) as u32)
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
    let at = time::OffsetDateTime::parse(value, &Rfc3339).map_err(super::reason)?;
    // `time` takes any byte between the date and the time (RFC 3339 lets applications use a
    // space); the `date-time` of the RFC's grammar, which JSON Schema names, has a `T`.
    if !matches!(value.as_bytes().get(10), Some(b'T' | b't')) {
        return Err("the date and the time must be separated by a T".to_owned());
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_exist() {
        assert!(date("2024-02-29").is_ok());
        assert!(date("2023-02-29").is_err());
        assert!(date("2024-2-29").is_err());
        assert!(date("2024-13-01").is_err());
        assert!(date("２０２４-02-29").is_err());
    }

    #[test]
    fn the_fast_date_path_takes_real_days_alone() {
        for (text, year) in [
            ("2024-02-29", Some(2024)),
            ("0000-01-01", Some(0)),
            ("9999-12-31", Some(9999)),
            ("1815-12-10", Some(1815)),
            ("2023-02-29", None),
            ("1900-02-29", None),
            ("2000-02-29", Some(2000)),
            ("2024-04-31", None),
            ("2024-00-10", None),
            ("2024-13-10", None),
            ("2024-01-00", None),
            ("2024/01/01", None),
            ("2024-0a-01", None),
            ("20:4-01-01", None),
            ("2024-01-0:", None),
            ("\u{0}024-01-01", None),
        ] {
            assert_eq!(real_day_year(text.as_bytes()), year, "{text}");
            assert_eq!(date(text).is_ok(), year.is_some(), "{text}");
        }
    }

    #[test]
    fn year_month_day_takes_exactly_ten_bytes() {
        assert_eq!(year_month_day("2024-02-29"), Ok((2024, 2, 29)));
        assert_eq!(
            year_month_day("2024-02-31"),
            Ok((2024, 2, 31)),
            "not checked here"
        );
        for text in ["", "2024", "2024-02-2", "2024-02-290", "2024-0a-29"] {
            assert!(year_month_day(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn date_times_are_rfc3339() {
        assert!(date_time("2024-02-29T12:30:00Z").is_ok());
        assert!(date_time("2024-02-29T12:30:00.5+02:00").is_ok());
        assert!(date_time("2024-02-29 12:30").is_err());
        assert!(date_time("2024-02-29T12:30:00").is_err());
    }

    #[test]
    fn the_date_and_the_time_are_separated_by_a_t() {
        // `time` takes any byte there; found by the differential test against `jsonschema`.
        for separator in [" ", "_", "x", "-", "\u{7f}"] {
            let text = format!("2024-02-29{separator}12:30:00Z");
            assert!(date_time(&text).is_err(), "{text}");
            assert!(parse_date_time(&text).is_err(), "{text}");
        }
        assert!(date_time("2024-02-29t12:30:00Z").is_ok());
        assert!(date_time("2024-12-31T23:59:60Z").is_ok(), "a leap second");
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
            assert!(date_time(not_a_date_time).is_err(), "{not_a_date_time}");
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
    }
}
