//! What the differential tests of the renderers and of the secure page share (tests only):
//! derived forms of every field kind, the texts a person types into each kind of field, and
//! `from_content`'s verdict on one field of an answer.
//!
//! Each renderer judges a field with the shared validator on the schema alone
//! (`answer::verdict`), which is what `from_content` checks but for the rules a field's type
//! adds beyond the schema ([`refused_beyond_schema`]): those a client cannot know, and there
//! the renderer takes what `from_content` refuses, never the other way.

// The page's test uses a part of it; the renderers' use all of it.
#![cfg_attr(not(any(feature = "terminal", feature = "ratatui")), allow(dead_code))]

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value};

use crate::schema::{NumberType, PrimitiveSchema, Property, StringFormat, StringSchema};
use crate::{Elicit, Email, Secret};

/// A select without titles.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[elicit(crate = "crate")]
pub(crate) enum Size {
    Small,
    Large,
}

/// A select with titles and values of its own.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[elicit(crate = "crate")]
pub(crate) enum Tone {
    #[elicit(rename = "#f00", title = "Red")]
    Red,
    #[elicit(rename = "#00f", title = "Blue")]
    Blue,
    Green,
}

/// Every kind of field a renderer draws, required and optional, with each rule the schema
/// states.
#[derive(Elicit, Debug)]
#[elicit(crate = "crate", rename_all = "camelCase")]
#[allow(dead_code)] // read only through `from_content`'s verdict
pub(crate) struct Every {
    #[elicit(min_length = 2, max_length = 5)]
    name: String,
    #[elicit(pattern = "^[a-z]+$")]
    word: Option<String>,
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "uri")]
    site: Option<String>,
    #[elicit(format = "date")]
    day: Option<String>,
    #[elicit(format = "date-time")]
    at: Option<String>,
    #[elicit(minimum = 1, maximum = 30)]
    nights: u8,
    big: Option<i64>,
    #[elicit(minimum = -1.5, maximum = 1.5)]
    ratio: Option<f64>,
    single: Option<f32>,
    vip: bool,
    flag: Option<bool>,
    size: Size,
    #[elicit(default = Tone::Blue)]
    tone: Tone,
    other_tone: Option<Tone>,
    #[elicit(min_items = 1, max_items = 2)]
    sizes: Vec<Size>,
    tones: Option<BTreeSet<Tone>>,
    contact: Option<Email>,
}

/// A secret form, as the secure page shows one.
#[derive(Elicit, Debug)]
#[elicit(crate = "crate", rename_all = "camelCase")]
#[allow(dead_code)]
pub(crate) struct Key {
    #[elicit(min_length = 8, pattern = "^sk-")]
    api_key: Secret<String>,
    #[elicit(max_length = 10)]
    label: Option<String>,
    #[elicit(minimum = 1, maximum = 365, default = 30)]
    days: u32,
    shared: bool,
}

/// Typed values whose parse goes past their format: a renderer, which knows the schema alone,
/// takes some text their field's type refuses ([`refused_beyond_schema`]).
#[cfg(all(feature = "url", feature = "jiff"))]
#[derive(Elicit, Debug)]
#[elicit(crate = "crate")]
#[allow(dead_code)]
pub(crate) struct Typed {
    link: url::Url,
    at: Option<jiff::Timestamp>,
}

/// Whether the rule a field's type adds beyond its schema refuses `value` (see
/// [`Typed`]): a client, which knows the schema alone, cannot apply it.
pub(crate) fn refused_beyond_schema(field: &str, value: &Value) -> bool {
    #[cfg(all(feature = "url", feature = "jiff"))]
    if let Some(text) = value.as_str() {
        return match field {
            "link" => url::Url::parse(text).is_err(),
            "at" => text.parse::<jiff::Timestamp>().is_err(),
            _ => false,
        };
    }
    let _ = (field, value);
    false
}

/// Whether `T::from_content` takes the field `name` of an answer where it is `value` (`None`:
/// left out), whatever it says of the other fields.
pub(crate) fn form_takes<T: Elicit>(name: &str, value: Option<&Value>) -> bool {
    let mut content = Map::new();
    if let Some(value) = value {
        content.insert(name.to_owned(), value.clone());
    }
    match T::from_content(&content) {
        Ok(_) => true,
        Err(errors) => errors.field(name).is_none(),
    }
}

/// The texts a person types into the field of `property`: near its lengths, its pattern, its
/// format or its bounds, and text that is no value of its kind at all.
pub(crate) fn texts_for(property: &Property) -> BoxedStrategy<String> {
    match &property.schema {
        PrimitiveSchema::String(s) => string_texts(s),
        PrimitiveSchema::Number(n) => {
            let lo = n.minimum.map_or(-1e6, |m| m.as_f64());
            let hi = n.maximum.map_or(1e6, |m| m.as_f64());
            number_texts(n.kind, lo, hi)
        }
        _ => select(vec!["", "y", "yes", "Yes", " n ", "no", "true", "maybe"])
            .prop_map(str::to_owned)
            .boxed(),
    }
}

fn string_texts(s: &StringSchema) -> BoxedStrategy<String> {
    let lo = s.min_length.unwrap_or(0) as usize;
    let hi = s.max_length.map_or(lo + 8, |m| m as usize);
    let around = proptest::collection::vec(
        select(vec!['a', 'z', 'é', '😀', ' ', '\u{301}', 'Q', '7', '-']),
        lo.saturating_sub(1)..=hi + 1,
    )
    .prop_map(String::from_iter);
    match (s.format, &s.pattern) {
        (Some(format), _) => prop_oneof![
            4 => select(format_texts(format)).prop_map(str::to_owned),
            1 => around,
        ]
        .boxed(),
        (None, Some(_)) => prop_oneof![
            2 => "[a-z]{0,8}",
            2 => "sk-[a-z0-9-]{0,9}",
            1 => "[A-Za-z0-9 é٣-]{0,9}",
            1 => around,
        ]
        .boxed(),
        (None, None) => around.boxed(),
    }
}

/// Texts of `format`: valid, near misses, and the edges where a typed value's own parse is
/// stricter than the format.
fn format_texts(format: StringFormat) -> Vec<&'static str> {
    match format {
        StringFormat::Email => vec![
            "octocat@github.com",
            "a@b.example",
            "a@[127.0.0.1]",
            "\"quoted local\"@example.com",
            "octocat",
            "@example.com",
            "Ada <ada@example.com>",
            "josé@example.com",
            "a@exa_mple.com",
            "a@b@c.com",
            "",
        ],
        StringFormat::Uri => vec![
            "https://example.com/a?b=c#d",
            "urn:isbn:0451450523",
            "http://",
            "http://example.com:65536/",
            "http://1.2.3.256/",
            "foo://[v7.x]/",
            "/relative",
            "http://exa mple.com",
            "example.com",
            "",
        ],
        StringFormat::Date => vec![
            "2024-02-29",
            "0000-01-01",
            "9999-12-31",
            "2023-02-29",
            "2024-2-29",
            "29/02/2024",
            " 2024-02-29",
            "",
        ],
        _ => vec![
            "2024-02-29T12:30:00Z",
            "2024-02-29t12:30:00.5+02:00",
            "2016-12-31T23:59:60Z",
            "9999-12-31T23:59:59Z",
            "2024-01-01T00:00:00.1234567891Z",
            "2024-02-15T23:59:60Z",
            "2024-02-29 12:30:00Z",
            "2024-02-29T12:30:00",
            "2024-02-29T25:00:00Z",
            "tomorrow",
            "",
        ],
    }
}

/// A number as a person types it: in its JSON text around the bounds `lo` and `hi`, in other
/// syntaxes a number may be written in, and text that is no number.
fn number_texts(kind: NumberType, lo: f64, hi: f64) -> BoxedStrategy<String> {
    let edges = vec![lo, hi, lo - 1.0, hi + 1.0, lo + 0.5, hi - 0.5, 0.0];
    let json_text = prop_oneof![
        2 => (lo - 2.0..hi + 2.0).prop_map(move |f| match kind {
            NumberType::Integer => format!("{}", f.round() as i64),
            NumberType::Number => serde_json::Number::from_f64(f).map_or("0".to_owned(), |n| n.to_string()),
        }),
        2 => select(edges).prop_map(|f| serde_json::Number::from_f64(f).map_or("0".to_owned(), |n| n.to_string())),
        1 => select(vec![
            "9007199254740991", "9007199254740992", "-9007199254740992", "18446744073709551615",
            "18446744073709551616", "1e20", "1e300", "-0", "3.0", "2.5", "1e1", "3.4028236e38",
        ])
        .prop_map(str::to_owned),
    ];
    let written = select(vec![
        " 7 ", "+5", ".5", "5.", "1E1", "0005", "-0.0", "", "abc", "1,5", "0x10", "1_000", "٣",
        "inf", "NaN", "1e400", "- 1", "1 2",
    ])
    .prop_map(str::to_owned);
    prop_oneof![4 => json_text, 1 => written].boxed()
}

/// How often each side of each field was seen, and each rule beyond the schema, in one test.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    sides: std::collections::BTreeMap<String, (u32, u32)>,
    beyond: u32,
}

impl Tally {
    /// Holds a renderer's verdict on one field against `from_content` of form `T`: `shown`,
    /// whether the renderer takes `input`; `sent`, the answer it reads from it (`Err`: none, the
    /// input is no value of the field's kind, which the renderer must refuse).
    pub(crate) fn agree<T: Elicit>(
        &mut self,
        name: &str,
        input: &str,
        shown: bool,
        sent: Result<Option<Value>, ()>,
    ) -> Result<(), TestCaseError> {
        let verdict = match &sent {
            Err(()) => false,
            Ok(value) => form_takes::<T>(name, value.as_ref()),
        };
        let beyond = shown
            && !verdict
            && matches!(&sent, Ok(Some(value)) if refused_beyond_schema(name, value));
        if shown != verdict && !beyond {
            return Err(TestCaseError::fail(format!(
                "`{name}` of {}: the renderer {} {input:?} (read as {sent:?}), from_content {}",
                std::any::type_name::<T>(),
                if shown { "takes" } else { "refuses" },
                if verdict { "takes it" } else { "refuses it" },
            )));
        }
        self.beyond += u32::from(beyond);
        let sides = self.sides.entry(name.to_owned()).or_default();
        if shown {
            sides.0 += 1;
        } else {
            sides.1 += 1;
        }
        Ok(())
    }

    /// Panics unless each of `fields` was seen taken and refused, and, with `beyond`, a rule
    /// beyond the schema explained a verdict.
    pub(crate) fn enough(&self, fields: &[&str], beyond: bool) {
        for field in fields {
            let (taken, refused) = self.sides.get(*field).copied().unwrap_or_default();
            assert!(
                taken > 0 && refused > 0,
                "`{field}` taken {taken} and refused {refused} times: the inputs miss a side"
            );
        }
        assert!(
            !beyond || self.beyond > 0,
            "no input tried a rule beyond the schema"
        );
    }
}

/// Runs `check` on `cases` inputs drawn from `inputs`, panicking with the (shrunk) input at
/// the first failure.
pub(crate) fn run<S: Strategy>(
    inputs: S,
    cases: u32,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    });
    if let Err(failure) = runner.run(&inputs, check) {
        panic!("{failure}");
    }
}
