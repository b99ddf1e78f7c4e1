//! Typed values: fields whose type is the value a server wants, not a string to parse again.
//! Each maps to a string property of its format and parses to the typed value, checking the
//! same rules as the string field of that format does, then building the value with its own
//! crate. [`Email`] is always here; the dates, times and URLs of `chrono`, `time`, `jiff` and
//! `url` come with the feature of the same name.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use crate::form::matcher::Matcher;
use serde_json::Value;

use crate::form::error::Problem;
use crate::form::field::{ElicitValue, StringField};
use crate::form::format;
use crate::form::validate;
use crate::schema::derived::{Kind, StringRules};
use crate::schema::{PrimitiveSchema, StringFormat};

/// An email address, checked to be one (`format: email`, the same check as a `String` field
/// with `#[elicit(format = "email")]`).
///
/// ```
/// use elicit_mcp::{Elicit, Email};
///
/// #[derive(Elicit, Debug)]
/// struct Invite {
///     #[elicit(default = "team@example.com")]
///     to: Email,
/// }
///
/// assert_eq!(
///     Invite::requested_schema_json(),
///     concat!(
///         r#"{"type":"object","properties":{"#,
///         r#""to":{"type":"string","title":"To","format":"email","#,
///         r#""default":"team@example.com"}}}"#,
///     )
/// );
/// let content = serde_json::json!({"to": "octocat@github.com"});
/// let invite = Invite::from_content(content.as_object().unwrap()).unwrap();
/// assert_eq!(invite.to.as_str(), "octocat@github.com");
/// assert!("not-an-email".parse::<Email>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Email(String);

impl Email {
    /// The address, checked.
    pub fn parse(text: &str) -> Result<Email, InvalidEmail> {
        format::check(StringFormat::Email, text)
            .map(|()| Email(text.to_owned()))
            .map_err(InvalidEmail)
    }

    /// The address as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The address as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for Email {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Email {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Email {
    type Err = InvalidEmail;
    fn from_str(text: &str) -> Result<Self, InvalidEmail> {
        Email::parse(text)
    }
}

impl From<Email> for String {
    fn from(email: Email) -> String {
        email.0
    }
}

/// Why a text is not an email address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidEmail(String);

impl fmt::Display for InvalidEmail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not an email address: {}", self.0)
    }
}

impl std::error::Error for InvalidEmail {}

/// The text of a typed value's field, checked against its lengths and pattern; its format is the
/// typed value's parser's to check.
///
/// A deliberate near-copy of `field/scalar.rs`'s `checked_str` (which checks the format too), kept
/// apart for speed: see there. Change one, change the other.
fn text_of<'v>(
    value: &'v Value,
    schema: &PrimitiveSchema,
    pattern: Option<&Matcher>,
) -> Result<&'v str, Problem> {
    let text = validate::as_text(value)?;
    if let PrimitiveSchema::String(s) = schema {
        validate::check_length_and_pattern(s, text, pattern)?;
    }
    Ok(text)
}

/// The format's own check, then the typed value's crate building it: the value is accepted
/// exactly when a string field of the format accepts it and the crate can hold it.
#[cfg(any(feature = "chrono", feature = "jiff", feature = "url"))]
fn checked<T, E: fmt::Display>(
    format: StringFormat,
    text: &str,
    build: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, String> {
    format::check(format, text)?;
    build(text).map_err(format::reason)
}

macro_rules! typed_values {
    ($($(#[$attr:meta])* $ty:ty: $format:ident = $parse:expr, text = $text:expr;)*) => {$(
        $(#[$attr])*
        #[diagnostic::do_not_recommend]
        impl ElicitValue for $ty {
            const KIND: Kind = Kind::String(StringRules {
                format: Some(StringFormat::$format),
                ..StringRules::NONE
            });
            type DefaultLiteral = &'static str;
            fn from_default(literal: &'static str) -> Result<Self, Problem> {
                parse_typed(StringFormat::$format, literal, $parse)
            }
            fn from_json(
                value: &Value,
                schema: &PrimitiveSchema,
                pattern: Option<&Matcher>,
            ) -> Result<Self, Problem> {
                parse_typed(StringFormat::$format, text_of(value, schema, pattern)?, $parse)
            }
            fn to_json(&self) -> Value {
                let text: fn(&$ty) -> String = $text;
                Value::String(text(self))
            }
        }
        $(#[$attr])*
        crate::__impl_field_for_value!($ty);
        $(#[$attr])*
        #[diagnostic::do_not_recommend]
        impl StringField for $ty {}
        $(#[$attr])*
        #[diagnostic::do_not_recommend]
        impl StringField for Option<$ty> {}
    )*};
}

fn parse_typed<T>(
    format: StringFormat,
    text: &str,
    parse: fn(&str) -> Result<T, String>,
) -> Result<T, Problem> {
    parse(text).map_err(|reason| Problem::InvalidFormat { format, reason })
}

typed_values! {
    Email: Email = |text| format::check(StringFormat::Email, text).map(|()| Email(text.to_owned())),
        text = |email| email.0.clone();

    // `chrono::NaiveDate`: `format: date`.
    #[cfg(feature = "chrono")]
    #[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
    chrono::NaiveDate: Date = |text| {
        let (year, month, day) = format::date::year_month_day(text)?;
        chrono::NaiveDate::from_ymd_opt(year, month.into(), day.into())
            .ok_or_else(|| format::date::not_a_day(year, month, day))
    }, text = |date| {
        use chrono::Datelike;
        wire::date(date.year(), date.month(), date.day())
    };
    // `chrono::DateTime<FixedOffset>`: `format: date-time`, keeping the offset sent.
    #[cfg(feature = "chrono")]
    #[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
    chrono::DateTime<chrono::FixedOffset>: DateTime = |text| {
        checked(StringFormat::DateTime, text, chrono::DateTime::parse_from_rfc3339)
    }, text = |at| at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    // `chrono::DateTime<Utc>`: `format: date-time`, converted to UTC.
    #[cfg(feature = "chrono")]
    #[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
    chrono::DateTime<chrono::Utc>: DateTime = |text| {
        checked(StringFormat::DateTime, text, chrono::DateTime::parse_from_rfc3339)
            .map(|at| at.with_timezone(&chrono::Utc))
    }, text = |at| at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);

    // `time::Date`: `format: date`.
    #[cfg(feature = "time")]
    #[cfg_attr(docsrs, doc(cfg(feature = "time")))]
    time::Date: Date = format::date::parse_date,
        text = |date| wire::date(date.year(), u8::from(date.month()).into(), date.day().into());
    // `time::OffsetDateTime`: `format: date-time`; the format's check is this very parse.
    #[cfg(feature = "time")]
    #[cfg_attr(docsrs, doc(cfg(feature = "time")))]
    time::OffsetDateTime: DateTime = format::date::parse_date_time, text = |at| {
        let date = wire::date(at.year(), u8::from(at.month()).into(), at.day().into());
        let (hours, minutes, _) = at.offset().as_hms();
        wire::date_time(
            &date,
            (at.hour(), at.minute(), at.second(), at.nanosecond()),
            i32::from(hours) * 60 + i32::from(minutes),
        )
    };

    // `jiff::civil::Date`: `format: date`.
    #[cfg(feature = "jiff")]
    #[cfg_attr(docsrs, doc(cfg(feature = "jiff")))]
    jiff::civil::Date: Date = |text| {
        let (year, month, day) = format::date::year_month_day(text)?;
        jiff::civil::Date::new(year as i16, month as i8, day as i8)
            .map_err(|_| format::date::not_a_day(year, month, day))
    }, text = |date| {
        wire::date(date.year().into(), date.month().unsigned_abs().into(), date.day().unsigned_abs().into())
    };
    // `jiff::Timestamp`: `format: date-time`.
    #[cfg(feature = "jiff")]
    #[cfg_attr(docsrs, doc(cfg(feature = "jiff")))]
    jiff::Timestamp: DateTime = |text| checked(StringFormat::DateTime, text, str::parse::<jiff::Timestamp>),
        // RFC 3339 in UTC, `Z`, with the fraction only when there is one.
        text = |at| at.to_string();

    // `url::Url`: `format: uri`.
    #[cfg(feature = "url")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url")))]
    url::Url: Uri = |text| checked(StringFormat::Uri, text, url::Url::parse),
        text = |url| url.as_str().to_owned();
}

/// The wire texts of dates and times, written from their numbers so that every crate's type
/// gives the same text, the one its field parses.
#[allow(dead_code)] // `date_time` only with the `time` feature
mod wire {
    /// RFC 3339 `full-date`: `YYYY-MM-DD`. A year outside 0 to 9999 has no such text, and is
    /// written with its sign and digits (`+10000-01-01`), which the field's check refuses.
    pub(super) fn date(year: i32, month: u32, day: u32) -> String {
        if (0..=9999).contains(&year) {
            format!("{year:04}-{month:02}-{day:02}")
        } else {
            format!("{year:+}-{month:02}-{day:02}")
        }
    }

    /// RFC 3339 `date-time` from a `full-date`, the time of day (nanoseconds written only when
    /// there are some, without trailing zeros) and the offset in minutes (`Z` for none).
    pub(super) fn date_time(
        date: &str,
        (hour, minute, second, nanosecond): (u8, u8, u8, u32),
        offset_minutes: i32,
    ) -> String {
        let mut text = format!("{date}T{hour:02}:{minute:02}:{second:02}");
        if nanosecond > 0 {
            let fraction = format!("{nanosecond:09}");
            text.push('.');
            text.push_str(fraction.trim_end_matches('0'));
        }
        if offset_minutes == 0 {
            text.push('Z');
        } else {
            let sign = if offset_minutes < 0 { '-' } else { '+' };
            let minutes = offset_minutes.unsigned_abs();
            text.push_str(&format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60));
        }
        text
    }
}
