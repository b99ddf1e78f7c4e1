//! Property tests that hold the derived parser to an independent JSON Schema validator:
//!
//! - round trip: a generated value, serialized by serde, is content the emitted schema accepts
//!   (per `jsonschema`, per `RequestedSchema::validate_content` and per the spec's patched
//!   `ElicitResult`), and `from_content` gives the value back;
//! - agreement: on content generated from each form's schema, valid and invalid alike,
//!   `from_content` accepts each field exactly when `jsonschema` (with format checks on) does
//!   against the emitted schema, and `validate_content` says the same problems; the check is
//!   `elicit_test_support::differential`, which every test module runs on its own forms
//!   (`every_form_here_agrees_with_jsonschema`), with the differences it allows listed there
//!   and tested in their direction here;
//! - never panic: arbitrary JSON fed to the parsers and to the schema reader.
//!
//! The differences the agreement allows, each tested below:
//! 1. elicit refuses a multi-select that picks a choice twice, which the emitted schema does not
//!    state (the spec's multi-select has no `uniqueItems`): the validator's copy of the schema
//!    gets `"uniqueItems": true` on every array property (see
//!    `support::forms::schema_with_unique_items`).
//! 2. elicit reads `null` on an optional field as absent, as the issue requires, where JSON
//!    Schema would see a value of the wrong type: the validator is given the answer without
//!    those `null`s.
//! 3. where two implementations of a format part (`differential::SCHEMA_READING_STRICTER` and
//!    `VALIDATOR_STRICTER`): a leap second, an empty quoted local part, IDNA's rule on labels.
//! 4. the rules a field's type adds beyond its schema (`differential::Beyond`), declared by the
//!    module of the form that has such a field (`typed_values`).
//! 5. a pattern is read in the `regex` crate's syntax, not ECMA-262's: a form whose pattern uses
//!    a class the two read apart (`\d`) is outside the agreement, and the check would say so
//!    (`Digits` below is kept out of it for that reason).

use std::collections::{BTreeSet, HashSet};
use std::fmt::Debug;
use std::sync::LazyLock;

use elicit_mcp::schema::{RequestedSchema, StringFormat};
use elicit_mcp::{Elicit, Problem};
use elicit_test_support::agree_with_jsonschema;
use elicit_test_support::differential::{
    SCHEMA_READING_STRICTER, VALIDATOR_STRICTER, float_json, format_fixtures,
};
use elicit_test_support::forms::{
    Color, HexColor, REQUESTED_SCHEMA, check_schemas, is_valid, schema_with_unique_items,
};
use elicit_test_support::spec::validator;
use jsonschema::Validator;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use proptest::test_runner::TestCaseError;
use serde::Serialize;
use serde_json::{Map, Value, json};

const CASES: u32 = 256;
const SAFE: i64 = (1 << 53) - 1;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// The forms.

#[derive(Elicit, Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Profile {
    #[elicit(min_length = 2, max_length = 8)]
    display_name: String,
    #[elicit(pattern = "^[a-z]+$")]
    handle: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "date")]
    #[serde(skip_serializing_if = "Option::is_none")]
    birthday: Option<String>,
    #[elicit(minimum = 18, maximum = 120)]
    age: u8,
    #[elicit(minimum = -1.5, maximum = 1.5)]
    score: f64,
    newsletter: bool,
    favorite: Color,
    #[elicit(min_items = 1, max_items = 2)]
    accents: Vec<HexColor>,
}

#[derive(Elicit, Serialize, Debug, Clone, PartialEq)]
struct Numbers {
    tiny: i8,
    small: u16,
    big: u64,
    huge: i128,
    pointer: isize,
    single: f32,
    double: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    maybe: Option<u32>,
    #[elicit(default = 7)]
    defaulted: i16,
}

#[derive(Elicit, Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Picks {
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<Color>,
    tags: BTreeSet<Color>,
    hexes: HashSet<HexColor>,
    #[elicit(default = HexColor::Blue)]
    fallback: HexColor,
    #[elicit(default = [Color::Red], max_items = 2)]
    picks: Vec<Color>,
    #[elicit(format = "uri")]
    site: String,
    #[elicit(format = "date-time")]
    #[serde(skip_serializing_if = "Option::is_none")]
    when: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[elicit(max_length = 3)]
    note: Option<String>,
}

/// The validator of each form's content, with `uniqueItems` added (difference 1 above), for
/// the round trips.
static PROFILE: LazyLock<Validator> =
    LazyLock::new(|| validator(&schema_with_unique_items::<Profile>()));
static NUMBERS: LazyLock<Validator> =
    LazyLock::new(|| validator(&schema_with_unique_items::<Numbers>()));
static PICKS: LazyLock<Validator> =
    LazyLock::new(|| validator(&schema_with_unique_items::<Picks>()));

#[test]
fn every_schema_of_this_file_is_spec_valid_and_consistent() {
    check_schemas!(Profile, Numbers, Picks);
}

// ---------------------------------------------------------------------------------------------
// Clearly valid and clearly invalid strings of each format.

#[test]
fn the_format_strings_are_what_the_validator_says() {
    // The fixtures themselves, checked against the independent validator: if one of them sat
    // on an edge where implementations differ, this is where it would show.
    for format in [
        StringFormat::Email,
        StringFormat::Uri,
        StringFormat::Date,
        StringFormat::DateTime,
    ] {
        let v = validator(&json!({"type": "string", "format": format.as_str()}));
        let (valid, invalid) = format_fixtures(format);
        for s in valid {
            assert!(v.is_valid(&json!(s)), "{format:?} {s:?} should be valid");
        }
        for s in invalid {
            assert!(!v.is_valid(&json!(s)), "{format:?} {s:?} should be invalid");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Valid values of each form, for the round trip.

fn date() -> impl Strategy<Value = String> {
    (1900i32..2100, 1u32..=12, 1u32..=31).prop_filter_map("a real day", |(y, m, d)| {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days = match m {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        (d <= days).then(|| format!("{y:04}-{m:02}-{d:02}"))
    })
}

fn date_time() -> impl Strategy<Value = String> {
    (
        date(),
        0u32..24,
        0u32..60,
        0u32..60,
        prop_oneof![
            Just("Z".to_owned()),
            (0u32..14, 0u32..60, any::<bool>())
                .prop_map(|(h, m, east)| format!("{}{h:02}:{m:02}", if east { '+' } else { '-' })),
        ],
    )
        .prop_map(|(d, h, m, s, offset)| format!("{d}T{h:02}:{m:02}:{s:02}{offset}"))
}

fn email() -> impl Strategy<Value = String> {
    "[a-z]{1,8}(\\.[a-z]{1,5})?@[a-z]{1,8}\\.(com|org|io)"
}

fn uri() -> impl Strategy<Value = String> {
    "https://[a-z]{1,10}\\.(com|org)(/[a-z0-9]{1,8}){0,2}"
}

fn profile() -> impl Strategy<Value = Profile> {
    (
        "\\PC{2,8}",
        "[a-z]{1,10}",
        email(),
        proptest::option::of(date()),
        18u8..=120,
        -1.5f64..=1.5,
        any::<bool>(),
        select(Color::ALL.to_vec()),
        subsequence(HexColor::ALL.to_vec(), 1..=2).prop_shuffle(),
    )
        .prop_map(
            |(display_name, handle, email, birthday, age, score, newsletter, favorite, accents)| {
                Profile {
                    display_name,
                    handle,
                    email,
                    birthday,
                    age,
                    score,
                    newsletter,
                    favorite,
                    accents,
                }
            },
        )
}

fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>().prop_filter("finite", |f| f.is_finite()),
        -1000f32..1000f32,
        Just(f32::MAX),
        Just(f32::MIN),
        Just(f32::MIN_POSITIVE),
    ]
}

/// Any finite double (`any::<f64>()` also yields NaN and infinities, which JSON cannot carry).
fn finite_f64() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite", |f| f.is_finite())
}

fn numbers() -> impl Strategy<Value = Numbers> {
    (
        any::<i8>(),
        any::<u16>(),
        0..=SAFE as u64,
        i128::from(-SAFE)..=i128::from(SAFE),
        -SAFE as isize..=SAFE as isize,
        finite_f32(),
        finite_f64(),
        proptest::option::of(any::<u32>()),
        any::<i16>(),
    )
        .prop_map(
            |(tiny, small, big, huge, pointer, single, double, maybe, defaulted)| Numbers {
                tiny,
                small,
                big,
                huge,
                pointer,
                single,
                double,
                maybe,
                defaulted,
            },
        )
}

fn picks() -> impl Strategy<Value = Picks> {
    (
        proptest::option::of(select(Color::ALL.to_vec())),
        subsequence(Color::ALL.to_vec(), 0..=3),
        subsequence(HexColor::ALL.to_vec(), 0..=3),
        select(HexColor::ALL.to_vec()),
        subsequence(Color::ALL.to_vec(), 0..=2).prop_shuffle(),
        uri(),
        proptest::option::of(date_time()),
        proptest::option::of("\\PC{0,3}"),
    )
        .prop_map(
            |(plan, tags, hexes, fallback, picks, site, when, note)| Picks {
                plan,
                tags: tags.into_iter().collect(),
                hexes: hexes.into_iter().collect(),
                fallback,
                picks,
                site,
                when,
                note,
            },
        )
}

/// serde writes the value; every reader agrees it is valid content; elicit reads it back.
fn round_trip<T>(value: &T, validator: &Validator) -> Result<(), TestCaseError>
where
    T: Elicit + Serialize + PartialEq + Debug,
{
    let wire = serde_json::to_value(value).unwrap();
    let content = wire.as_object().unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&wire)
        .map(|e| e.to_string())
        .collect();
    prop_assert!(
        errors.is_empty(),
        "jsonschema rejects {}: {:?}",
        wire,
        errors
    );
    prop_assert_eq!(T::requested_schema().validate_content(content), Ok(()));
    let result = json!({"action": "accept", "content": wire});
    prop_assert!(
        is_valid("ElicitResult", &result),
        "not an ElicitResult: {}",
        result
    );
    match T::from_content(content) {
        Ok(parsed) => prop_assert_eq!(&parsed, value),
        Err(e) => prop_assert!(false, "from_content rejects {}: {}", wire, e),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn profiles_round_trip(value in profile()) {
        round_trip(&value, &PROFILE)?;
    }

    #[test]
    fn numbers_round_trip(value in numbers()) {
        round_trip(&value, &NUMBERS)?;
    }

    #[test]
    fn picks_round_trip(value in picks()) {
        round_trip(&value, &PICKS)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Content of every kind, valid and invalid, generated from each form's schema.

#[test]
fn every_form_here_agrees_with_jsonschema() {
    agree_with_jsonschema!(Profile, Numbers, Picks, Formats);
}

#[test]
fn the_rules_the_derive_adds_to_the_schema_refuse_what_it_accepts() {
    // 1. Duplicates: the emitted schema alone allows them, elicit and the test's copy do not.
    let emitted: Value = serde_json::from_str(Picks::requested_schema_json()).unwrap();
    let duplicate = json!({"tags": ["Red", "Red"], "hexes": [], "site": "https://example.com"});
    assert!(validator(&emitted).is_valid(&duplicate));
    assert!(!PICKS.is_valid(&duplicate));
    let refused = Picks::from_content(duplicate.as_object().unwrap()).unwrap_err();
    assert_eq!(
        refused.field("tags").unwrap().problem(),
        &Problem::DuplicateItem {
            value: "Red".into()
        }
    );
    assert_eq!(
        Picks::requested_schema().validate_content(duplicate.as_object().unwrap()),
        Err(refused)
    );
}

#[test]
fn null_on_an_optional_field_is_read_as_absent() {
    // 2. The one place elicit takes what the schema alone refuses: JSON Schema sees a value of
    // the wrong type.
    let null =
        json!({"tags": [], "hexes": [], "site": "https://example.com", "plan": null, "note": null});
    assert!(!PICKS.is_valid(&null));
    let parsed = Picks::from_content(null.as_object().unwrap()).unwrap();
    assert_eq!((parsed.plan, parsed.note), (None, None));
    // The same goes for a field with a default: null takes the default.
    let null_default =
        json!({"tags": [], "hexes": [], "site": "https://example.com", "fallback": null});
    let parsed = Picks::from_content(null_default.as_object().unwrap()).unwrap();
    assert_eq!(parsed.fallback, HexColor::Blue);
    assert_eq!(parsed.picks, [Color::Red]);
    // On a required field, null is no answer: refused by both.
    let required_null = json!({"tags": null, "hexes": [], "site": "https://example.com"});
    assert!(!PICKS.is_valid(&required_null));
    let refused = Picks::from_content(required_null.as_object().unwrap()).unwrap_err();
    assert_eq!(refused.field("tags").unwrap().problem(), &Problem::Missing);
}

/// Where two readings of a format part; read only through `from_content`'s verdict.
#[derive(Elicit, Debug)]
#[allow(dead_code)]
struct Formats {
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(format = "date-time")]
    at: Option<String>,
}

#[test]
fn where_two_readings_of_a_format_part_each_is_named_and_holds_in_its_direction() {
    // 3. Each value is one the difference names; the validator and elicit part as it says.
    let independent = validator(&serde_json::from_str(Formats::requested_schema_json()).unwrap());
    let cases: [(&str, StringFormat, &str, bool); 6] = [
        ("at", StringFormat::DateTime, "2024-02-15T23:59:60Z", true),
        ("email", StringFormat::Email, "\"\"@example.com", true),
        ("email", StringFormat::Email, "Ada <ada@example.com>", true),
        ("email", StringFormat::Email, "a@ab--cd.example", false),
        ("email", StringFormat::Email, "a@xn--zz.example", false),
        ("email", StringFormat::Email, "a@xn--e9a.example", false),
    ];
    for (field, format, text, elicit_stricter) in cases {
        let content = json!({ field: text });
        let by_validator = independent.is_valid(&content);
        let by_elicit = Formats::from_content(content.as_object().unwrap()).is_ok();
        let list = if elicit_stricter {
            SCHEMA_READING_STRICTER
        } else {
            VALIDATOR_STRICTER
        };
        let named = list.iter().any(|d| (d.applies)(format, &json!(text)));
        if elicit_stricter {
            assert!(
                by_validator && !by_elicit,
                "{text}: {by_validator} {by_elicit}"
            );
            assert!(named, "{text} is not named by SCHEMA_READING_STRICTER");
        } else if by_validator != by_elicit {
            // A valid A-label is taken by both; an invalid one, or a reserved label, only by
            // elicit.
            assert!(
                !by_validator && by_elicit,
                "{text}: {by_validator} {by_elicit}"
            );
            assert!(named, "{text} is not named by VALIDATOR_STRICTER");
        }
    }
    // A leap second where one falls (the last second of a month in UTC): both take it.
    for text in ["2016-12-31T23:59:60Z", "2017-01-01T00:59:60+01:00"] {
        let leap = json!({ "at": text });
        assert!(independent.is_valid(&leap), "{text}");
        assert!(
            Formats::from_content(leap.as_object().unwrap()).is_ok(),
            "{text}"
        );
    }
}

/// A pattern in the `regex` crate's syntax, whose `\d` ECMA-262 reads as ASCII digits alone.
#[derive(Elicit, Debug)]
#[allow(dead_code)]
struct Digits {
    #[elicit(pattern = "^\\d+$")]
    code: String,
}

#[test]
fn a_pattern_is_read_in_the_regex_crate_s_syntax_not_ecma_262_s() {
    // The derive's reference says so, and why to write `[0-9]`: a class the two dialects read
    // apart takes, in elicit, what a client checking with ECMA-262 refuses.
    let independent = validator(&serde_json::from_str(Digits::requested_schema_json()).unwrap());
    let ascii = json!({"code": "2024"});
    assert!(independent.is_valid(&ascii));
    assert!(Digits::from_content(ascii.as_object().unwrap()).is_ok());
    let arabic_indic = json!({"code": "٢٠٢٤"});
    assert!(!independent.is_valid(&arabic_indic));
    assert!(Digits::from_content(arabic_indic.as_object().unwrap()).is_ok());
}

#[test]
fn what_elicit_took_beyond_a_mailbox_or_a_date_time_is_refused_as_jsonschema_refuses_it() {
    // Found by this differential: `email_address` takes a display name, a non-ASCII local
    // part and domains that are no host name, `time` any byte between the date and the time.
    let independent = validator(&serde_json::from_str(Formats::requested_schema_json()).unwrap());
    for (field, text) in [
        ("email", "josé@example.com"),
        ("email", "a@exa_mple.com"),
        ("email", "a@[8]"),
        ("at", "2024-02-29 12:30:00Z"),
        ("at", "2024-02-29_12:30:00Z"),
    ] {
        let content = json!({ field: text });
        let refused = Formats::from_content(content.as_object().unwrap()).unwrap_err();
        assert!(
            matches!(
                refused.field(field).unwrap().problem(),
                Problem::InvalidFormat { .. }
            ),
            "{text}: {refused}"
        );
        assert!(!independent.is_valid(&content), "{text}");
    }
    // And one that jsonschema takes too (it parses with `email_address`'s defaults), which
    // RFC 5321's Mailbox has no room for: named among the differences above.
    let named = json!({"email": "Ada <ada@example.com>"});
    assert!(Formats::from_content(named.as_object().unwrap()).is_err());
}

// ---------------------------------------------------------------------------------------------
// Never panic.

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(float_json),
        "\\PC{0,12}".prop_map(Value::String),
        select(vec![
            "Red",
            "#FF0000",
            "2024-02-29",
            "a@b.co",
            "https://x.io",
            "string",
            "object"
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..5).prop_map(Value::Array),
            btree_map("[a-zA-Z$]{0,6}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Maps whose keys are often the forms' property names, with any values at all.
fn any_content() -> impl Strategy<Value = Map<String, Value>> {
    let names: Vec<String> = [
        Profile::requested_schema(),
        Numbers::requested_schema(),
        Picks::requested_schema(),
    ]
    .iter()
    .flat_map(|s| s.properties().iter().map(|p| p.name.to_string()))
    .collect();
    let key = prop_oneof![3 => select(names), 1 => "[a-z]{0,6}"];
    btree_map(key, any_json(), 0..12).prop_map(|m| m.into_iter().collect())
}

/// A property schema made of the subset's keywords with plausible or arbitrary values, so the
/// reader gets past its first checks often.
fn schema_like_property() -> impl Strategy<Value = Value> {
    let keyword_value = prop_oneof![
        (Just("title"), any_json()),
        (Just("description"), "\\PC{0,8}".prop_map(Value::String)),
        (Just("minLength"), (-2i64..20).prop_map(Value::from)),
        (Just("maxLength"), any_json()),
        (
            Just("pattern"),
            select(vec!["^[a-z]+$", "(", "a{2,}", "\\d", "[", "é+"]).prop_map(|s| json!(s))
        ),
        (
            Just("format"),
            select(vec!["email", "uri", "date", "date-time", "hostname"]).prop_map(|s| json!(s))
        ),
        (Just("minimum"), any_json()),
        (Just("maximum"), (-100i64..100).prop_map(Value::from)),
        (Just("default"), any_json()),
        (
            Just("enum"),
            vec(select(vec!["a", "b", "c"]), 0..4).prop_map(|v| json!(v))
        ),
        (
            Just("enumNames"),
            vec(select(vec!["A", "B", "C"]), 0..4).prop_map(|v| json!(v))
        ),
        (
            Just("oneOf"),
            vec((select(vec!["a", "b"]), select(vec!["A", "B"])), 0..3).prop_map(|v| json!(
                v.into_iter()
                    .map(|(c, t)| json!({"const": c, "title": t}))
                    .collect::<Vec<_>>()
            ))
        ),
        (
            Just("items"),
            prop_oneof![
                Just(json!({"type": "string", "enum": ["a", "b"]})),
                Just(json!({"anyOf": [{"const": "a", "title": "A"}]})),
                any_json(),
            ]
        ),
        (Just("minItems"), (0i64..4).prop_map(Value::from)),
        (Just("maxItems"), any_json()),
        (Just("anyOf"), any_json()),
    ];
    let kind = prop_oneof![
        6 => select(vec!["string", "number", "integer", "boolean", "array", "object", "null"]).prop_map(|s| json!(s)),
        1 => any_json(),
    ];
    (
        proptest::option::weighted(0.95, kind),
        vec(keyword_value, 0..4),
    )
        .prop_map(|(kind, keywords)| {
            let mut object: Map<String, Value> = keywords
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            if let Some(kind) = kind {
                object.insert("type".into(), kind);
            }
            Value::Object(object)
        })
}

fn schema_like() -> impl Strategy<Value = Value> {
    let properties = btree_map(
        "[a-c]{1,2}",
        prop_oneof![8 => schema_like_property(), 1 => any_json()],
        0..4,
    );
    let required = prop_oneof![vec("[a-c]{1,2}", 0..3).prop_map(|v| json!(v)), any_json(),];
    (
        proptest::option::weighted(0.95, Just(json!("object"))),
        proptest::option::weighted(0.95, properties),
        proptest::option::of(required),
        proptest::option::weighted(0.1, any_json()),
    )
        .prop_map(|(kind, properties, required, title)| {
            let mut object = Map::new();
            if let Some(kind) = kind {
                object.insert("type".into(), kind);
            }
            if let Some(properties) = properties {
                object.insert(
                    "properties".into(),
                    Value::Object(properties.into_iter().collect()),
                );
            }
            if let Some(required) = required {
                object.insert("required".into(), required);
            }
            if let Some(title) = title {
                object.insert("title".into(), title);
            }
            Value::Object(object)
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn from_content_never_panics(content in any_content()) {
        let _ = Profile::from_content(&content);
        let _ = Numbers::from_content(&content);
        let _ = Picks::from_content(&content);
        let _ = Profile::from_content_owned(content.clone());
        let _ = Numbers::from_content_owned(content.clone());
        let _ = Picks::from_content_owned(content.clone());
        for schema in [Profile::requested_schema(), Numbers::requested_schema(), Picks::requested_schema()] {
            let _ = schema.validate_content(&content);
            let _ = schema.apply_defaults(&mut content.clone());
        }
    }

    #[test]
    fn the_schema_reader_never_panics(value in prop_oneof![3 => schema_like(), 1 => any_json()], content in any_content()) {
        let from_value = RequestedSchema::from_value(&value);
        let from_serde = serde_json::from_value::<RequestedSchema>(value.clone());
        let from_text = serde_json::from_str::<RequestedSchema>(&value.to_string());
        // The three readers agree on what is in the subset.
        prop_assert_eq!(from_value.is_ok(), from_serde.is_ok());
        prop_assert_eq!(from_value.is_ok(), from_text.is_ok());
        if let Ok(schema) = from_value {
            // What the strict reader accepts, the spec's schema accepts too.
            prop_assert!(is_valid(REQUESTED_SCHEMA, &value), "spec-invalid schema accepted: {}", value);
            // Written back, it is spec-valid and reads as itself.
            let written = serde_json::to_value(&schema).unwrap();
            prop_assert!(is_valid(REQUESTED_SCHEMA, &written), "wrote a spec-invalid schema: {}", written);
            let reread = RequestedSchema::from_value(&written);
            prop_assert_eq!(reread, Ok(schema.clone()));
            let _ = schema.validate_content(&content);
            let _ = schema.apply_defaults(&mut content.clone());
        }
    }
}
