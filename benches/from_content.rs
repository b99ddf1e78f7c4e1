//! The derived parser against what a server author has otherwise: serde, which checks nothing,
//! and jsonschema (formats on) in front of serde. Three forms: `Signup`, ten fields of every kind
//! (lengths, email, URI, date, integer and float ranges, a choice, a multi-select, a bool);
//! `Contact`, ten fields heavy on strings and formats (email, uri, date, date-time, pattern);
//! and `example`, the form of the main example (`examples/contact.rs`): five fields, one left to
//! its default, and a multi-select. Three more, `unchecked_signup`, `unchecked_contact` and
//! `unchecked_example`, read the same contents into the same fields with no rule beyond their
//! types: the parser's cost apart from the checks serde does not make, and so the floor under
//! each form's ratio.
//!
//! The pairs, and why each is fair:
//! - borrowed: `T::from_content(&map)` against serde's `T::deserialize(&value)`. Both read the
//!   same content tree by reference, copy out the strings the output keeps, and their output is
//!   dropped inside the timing; the content is built once, outside.
//! - consuming: `T::from_content_owned(map)` against `serde_json::from_value::<T>(value)`. Both
//!   take their content by value and free whatever of it the output does not keep inside the
//!   timing, output dropped inside too; each call's input is a fresh clone made before the
//!   batch's clock starts, the same way for both.
//! - jsonschema: `validator.is_valid(&value)` then serde's `T::deserialize(&value)`, against
//!   `T::from_content(&map)`: both borrowed, both checking every rule of the same schema (the
//!   one the derive emits), formats included.
//! - `crates_signup`, `crates_contact`: `T::from_content(&map)` against serde's
//!   `T::deserialize(&value)` followed by `validate()` of garde, and of validator, on structs
//!   with the same fields and the same rules (lengths in code points, email, URI, ranges, item
//!   counts, patterns; `date` and `date-time`, which neither crate has, as a custom rule calling
//!   chrono's `NaiveDate::parse_from_str(_, "%Y-%m-%d")` and `DateTime::parse_from_rfc3339`, the
//!   same function on both). All three borrowed, output dropped inside the timing.
//! - `typed_fields`: a `chrono::NaiveDate` and a `url::Url` field read by `from_content`, against
//!   the same fields as strings of formats `date` and `uri` read by `from_content` and then
//!   parsed by chrono and url: both borrowed, output dropped inside.
//!
//! The routines of a group alternate round by round within one run (see `common/mod.rs`); each
//! figure is the median of several runs with their spread, from this run's samples only.
//!
//! Run with `cargo bench --bench from_content` (`-- signup`, `-- contact`, `-- example`,
//! `-- unchecked_signup`, `-- unchecked_contact`, `-- unchecked_example`, `-- crates_signup`,
//! `-- crates_contact` or `-- typed` for one group, `-- unchecked` or `-- crates` for all of
//! theirs, `-- --quick` for a first look). `-- GROUP --only N` runs the group's routine N alone,
//! printing nothing, for `valgrind --tool=callgrind`.

#[path = "common/mod.rs"]
mod common;

use common::{Comparison, Plan, Routine, compare, consuming, timed};
use elicit_mcp::Elicit;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct Signup {
    #[elicit(min_length = 3, max_length = 50)]
    full_name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(minimum = 18)]
    age: u8,
    country: Country,
    #[elicit(min_items = 1, max_items = 3)]
    interests: Vec<Interest>,
    newsletter: bool,
    #[elicit(minimum = 0.0, maximum = 100.0)]
    score: f64,
    #[elicit(format = "uri")]
    website: Option<String>,
    #[elicit(format = "date")]
    birthday: String,
    #[elicit(max_length = 500)]
    bio: Option<String>,
}

#[derive(Elicit, Deserialize)]
#[allow(dead_code)]
enum Country {
    #[serde(rename = "fr")]
    #[elicit(rename = "fr", title = "France")]
    France,
    #[serde(rename = "jp")]
    #[elicit(rename = "jp", title = "Japan")]
    Japan,
    #[serde(rename = "br")]
    #[elicit(rename = "br", title = "Brazil")]
    Brazil,
}

// `Serialize` for validator, whose `length` rule keeps the value in its error.
#[derive(Elicit, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
#[elicit(rename_all = "lowercase")]
#[allow(dead_code)]
enum Interest {
    Rust,
    Music,
    Hiking,
    Chess,
}

fn signup() -> Value {
    json!({
        "fullName": "Monalisa Octocat",
        "email": "octocat@github.com",
        "age": 30,
        "country": "jp",
        "interests": ["rust", "chess"],
        "newsletter": true,
        "score": 87.5,
        "website": "https://github.com/octocat",
        "birthday": "1990-04-01",
        "bio": "Ships code, collects cats."
    })
}

/// Strings and formats: what a contact or profile form asks.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct Contact {
    #[elicit(min_length = 1, max_length = 80)]
    display_name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "email")]
    work_email: Option<String>,
    #[elicit(format = "uri")]
    homepage: String,
    #[elicit(format = "uri")]
    avatar: Option<String>,
    #[elicit(format = "date")]
    birthday: String,
    #[elicit(format = "date-time")]
    available_from: String,
    #[elicit(pattern = "^\\+?[0-9][0-9 ]{6,18}[0-9]$")]
    phone: String,
    #[elicit(
        pattern = "^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$",
        min_length = 5,
        max_length = 8
    )]
    postcode: String,
    #[elicit(max_length = 280)]
    bio: Option<String>,
}

fn contact() -> Value {
    json!({
        "displayName": "Ada Lovelace",
        "email": "ada.lovelace@analytical-engine.org",
        "workEmail": "ada@babbage.co.uk",
        "homepage": "https://analytical-engine.org/people/ada?lang=en",
        "avatar": "https://cdn.example.com/avatars/ada.png",
        "birthday": "1815-12-10",
        "availableFrom": "2026-03-01T09:30:00+01:00",
        "phone": "+44 20 7946 0958",
        "postcode": "SW1A 1AA",
        "bio": "Wrote the first program, for an engine that was never built."
    })
}

/// The form of the main example (`examples/contact.rs`), the one a newcomer runs first: five
/// fields, an email, an optional bounded number, a choice left to its default, and a
/// multi-select of hex colours.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct ExampleContact {
    #[elicit(min_length = 3, max_length = 50)]
    full_name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(minimum = 18)]
    age: Option<u8>,
    #[elicit(default = Color::Red)]
    #[serde(default = "red")]
    favorite: Color,
    #[elicit(min_items = 1, max_items = 2)]
    colors: Vec<Color>,
}

/// The default serde needs a function for, as the derive's `default = Color::Red`.
fn red() -> Color {
    Color::Red
}

#[derive(Elicit, Deserialize)]
#[allow(dead_code)]
enum Color {
    #[elicit(rename = "#FF0000")]
    #[serde(rename = "#FF0000")]
    Red,
    #[elicit(rename = "#00FF00")]
    #[serde(rename = "#00FF00")]
    Green,
    #[elicit(rename = "#0000FF")]
    #[serde(rename = "#0000FF")]
    Blue,
}

/// The example's good answer: `favorite` left out, to take its default.
fn example_contact() -> Value {
    json!({
        "fullName": "Monalisa Octocat",
        "email": "octocat@github.com",
        "age": 30,
        "colors": ["#00FF00", "#0000FF"]
    })
}

/// `Signup`'s fields and content with no rule beyond their types: no lengths, formats, bounds
/// or item counts. What the parser costs apart from the checks, which serde does not make.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct UncheckedSignup {
    full_name: String,
    email: String,
    age: u8,
    country: Country,
    interests: Vec<Interest>,
    newsletter: bool,
    score: f64,
    website: Option<String>,
    birthday: String,
    bio: Option<String>,
}

/// `Contact`'s fields and content with no rule beyond their types: no lengths, formats or
/// patterns. Against serde, what `Contact`'s ratio would be if its checks cost nothing.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct UncheckedContact {
    display_name: String,
    email: String,
    work_email: Option<String>,
    homepage: String,
    avatar: Option<String>,
    birthday: String,
    available_from: String,
    phone: String,
    postcode: String,
    bio: Option<String>,
}

/// The main example's fields and content with no rule beyond their types: no lengths, format,
/// bound or item counts; the default stays, as serde's does (it is how a left-out field is
/// read, not a check). What the form a newcomer meets first would cost if its checks cost
/// nothing.
#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct UncheckedExample {
    full_name: String,
    email: String,
    age: Option<u8>,
    #[elicit(default = Color::Red)]
    #[serde(default = "red")]
    favorite: Color,
    colors: Vec<Color>,
}

/// The `date` rule of the garde and validator forms: what elicit checks for `format = "date"`.
fn is_date(value: &str) -> bool {
    chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok()
}

/// The `date-time` rule of the garde and validator forms: RFC 3339, as `format = "date-time"`.
fn is_date_time(value: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(value).is_ok()
}

fn garde_date(value: &str, _: &()) -> garde::Result {
    match is_date(value) {
        true => Ok(()),
        false => Err(garde::Error::new("not a date")),
    }
}

fn garde_date_time(value: &str, _: &()) -> garde::Result {
    match is_date_time(value) {
        true => Ok(()),
        false => Err(garde::Error::new("not a date-time")),
    }
}

fn validator_date(value: &str) -> Result<(), validator::ValidationError> {
    match is_date(value) {
        true => Ok(()),
        false => Err(validator::ValidationError::new("date")),
    }
}

fn validator_date_time(value: &str) -> Result<(), validator::ValidationError> {
    match is_date_time(value) {
        true => Ok(()),
        false => Err(validator::ValidationError::new("date_time")),
    }
}

/// `Signup`'s fields and rules, checked by garde after serde.
#[derive(Deserialize, garde::Validate)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct GardeSignup {
    #[garde(length(chars, min = 3, max = 50))]
    full_name: String,
    #[garde(email)]
    email: String,
    #[garde(range(min = 18))]
    age: u8,
    #[garde(skip)]
    country: Country,
    #[garde(length(min = 1, max = 3))]
    interests: Vec<Interest>,
    #[garde(skip)]
    newsletter: bool,
    #[garde(range(min = 0.0, max = 100.0))]
    score: f64,
    #[garde(url)]
    website: Option<String>,
    #[garde(custom(garde_date))]
    birthday: String,
    #[garde(length(chars, max = 500))]
    bio: Option<String>,
}

/// `Signup`'s fields and rules, checked by validator after serde.
#[derive(Deserialize, validator::Validate)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct ValidatorSignup {
    #[validate(length(min = 3, max = 50))]
    full_name: String,
    #[validate(email)]
    email: String,
    #[validate(range(min = 18))]
    age: u8,
    country: Country,
    #[validate(length(min = 1, max = 3))]
    interests: Vec<Interest>,
    newsletter: bool,
    #[validate(range(min = 0.0, max = 100.0))]
    score: f64,
    #[validate(url)]
    website: Option<String>,
    #[validate(custom(function = "validator_date"))]
    birthday: String,
    #[validate(length(max = 500))]
    bio: Option<String>,
}

static PHONE: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new("^\\+?[0-9][0-9 ]{6,18}[0-9]$").expect("phone pattern"));
static POSTCODE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new("^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$").expect("postcode pattern")
});

/// `Contact`'s fields and rules, checked by garde after serde.
#[derive(Deserialize, garde::Validate)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct GardeContact {
    #[garde(length(chars, min = 1, max = 80))]
    display_name: String,
    #[garde(email)]
    email: String,
    #[garde(email)]
    work_email: Option<String>,
    #[garde(url)]
    homepage: String,
    #[garde(url)]
    avatar: Option<String>,
    #[garde(custom(garde_date))]
    birthday: String,
    #[garde(custom(garde_date_time))]
    available_from: String,
    #[garde(pattern(PHONE))]
    phone: String,
    #[garde(pattern(POSTCODE), length(chars, min = 5, max = 8))]
    postcode: String,
    #[garde(length(chars, max = 280))]
    bio: Option<String>,
}

/// `Contact`'s fields and rules, checked by validator after serde.
#[derive(Deserialize, validator::Validate)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct ValidatorContact {
    #[validate(length(min = 1, max = 80))]
    display_name: String,
    #[validate(email)]
    email: String,
    #[validate(email)]
    work_email: Option<String>,
    #[validate(url)]
    homepage: String,
    #[validate(url)]
    avatar: Option<String>,
    #[validate(custom(function = "validator_date"))]
    birthday: String,
    #[validate(custom(function = "validator_date_time"))]
    available_from: String,
    #[validate(regex(path = *PHONE))]
    phone: String,
    #[validate(regex(path = *POSTCODE), length(min = 5, max = 8))]
    postcode: String,
    #[validate(length(max = 280))]
    bio: Option<String>,
}

const PLAN: Plan = Plan {
    runs: 7,
    rounds: 101,
    batch: 1000,
};

/// The three comparisons of a form `T` on `value`.
fn form_group<T: Elicit + DeserializeOwned>(name: &str, value: Value) {
    let map: Map<String, Value> = value.as_object().expect("an object").clone();
    assert!(T::from_content(&map).is_ok(), "the bench content is valid");
    assert!(
        T::deserialize(&value).is_ok(),
        "serde reads the bench content"
    );
    let schema: Value = serde_json::from_str(T::requested_schema_json()).expect("schema");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("validator");
    assert!(validator.is_valid(&value), "jsonschema accepts the content");

    let routines: Vec<Routine<'_>> = vec![
        timed(|| T::from_content(std::hint::black_box(&map))),
        timed(|| T::deserialize(std::hint::black_box(&value))),
        consuming(|| map.clone(), |m| T::from_content_owned(m)),
        consuming(|| value.clone(), serde_json::from_value::<T>),
        timed(|| {
            let v = std::hint::black_box(&value);
            validator.is_valid(v).then(|| T::deserialize(v))
        }),
    ];
    compare(
        name,
        PLAN,
        &[
            "from_content(&map)",
            "serde T::deserialize(&value)",
            "from_content_owned(map)",
            "serde_json::from_value(value)",
            "jsonschema is_valid(&value) + T::deserialize(&value)",
        ],
        routines,
        &[
            Comparison {
                label: "borrowed: from_content / serde deserialize",
                ours: 0,
                theirs: 1,
            },
            Comparison {
                label: "consuming: from_content_owned / serde from_value",
                ours: 2,
                theirs: 3,
            },
            Comparison {
                label: "jsonschema + serde / from_content",
                ours: 4,
                theirs: 0,
            },
        ],
    );
}

/// `T::from_content(&map)` against serde plus garde (`G`) and serde plus validator (`V`), the
/// same fields and rules, all borrowed.
fn crates_group<T, G, V>(name: &str, value: Value)
where
    T: Elicit,
    G: DeserializeOwned + garde::Validate<Context = ()>,
    V: DeserializeOwned + validator::Validate,
{
    let map: Map<String, Value> = value.as_object().expect("an object").clone();
    assert!(T::from_content(&map).is_ok(), "the bench content is valid");
    let garde_read = |v: &Value| G::deserialize(v).map(|form| form.validate().map(|()| form));
    let validator_read = |v: &Value| V::deserialize(v).map(|form| form.validate().map(|()| form));
    assert!(
        matches!(garde_read(&value), Ok(Ok(_))),
        "garde accepts the content"
    );
    assert!(
        matches!(validator_read(&value), Ok(Ok(_))),
        "validator accepts the content"
    );
    let routines: Vec<Routine<'_>> = vec![
        timed(|| T::from_content(std::hint::black_box(&map))),
        timed(|| garde_read(std::hint::black_box(&value))),
        timed(|| validator_read(std::hint::black_box(&value))),
    ];
    compare(
        name,
        PLAN,
        &[
            "from_content(&map)",
            "serde T::deserialize(&value) + garde validate()",
            "serde T::deserialize(&value) + validator validate()",
        ],
        routines,
        &[
            Comparison {
                label: "from_content / serde + garde",
                ours: 0,
                theirs: 1,
            },
            Comparison {
                label: "from_content / serde + validator",
                ours: 0,
                theirs: 2,
            },
        ],
    );
}

/// The same two fields as strings of their formats ...
#[derive(Elicit)]
#[allow(dead_code)]
struct AsStrings {
    #[elicit(format = "date")]
    day: String,
    #[elicit(format = "uri")]
    site: String,
}

/// ... and as the typed values a server wants.
#[derive(Elicit)]
#[allow(dead_code)]
struct AsTyped {
    day: chrono::NaiveDate,
    site: url::Url,
}

fn typed_group() {
    let value = json!({"day": "1990-04-01", "site": "https://github.com/octocat/hello-world?tab=readme#top"});
    let map = value.as_object().expect("an object").clone();
    assert!(AsStrings::from_content(&map).is_ok() && AsTyped::from_content(&map).is_ok());
    let routines: Vec<Routine<'_>> = vec![
        timed(|| AsTyped::from_content(std::hint::black_box(&map))),
        timed(|| {
            AsStrings::from_content(std::hint::black_box(&map)).map(|strings| {
                (
                    strings.day.parse::<chrono::NaiveDate>(),
                    url::Url::parse(&strings.site),
                )
            })
        }),
    ];
    compare(
        "typed_fields",
        PLAN,
        &[
            "typed: from_content into NaiveDate + Url",
            "strings: from_content, then chrono and url parse",
        ],
        routines,
        &[Comparison {
            label: "typed / strings + the crates' parse",
            ours: 0,
            theirs: 1,
        }],
    );
}

fn main() {
    form_group::<Signup>("signup", signup());
    form_group::<Contact>("contact", contact());
    form_group::<ExampleContact>("example", example_contact());
    form_group::<UncheckedSignup>("unchecked_signup", signup());
    form_group::<UncheckedContact>("unchecked_contact", contact());
    form_group::<UncheckedExample>("unchecked_example", example_contact());
    crates_group::<Signup, GardeSignup, ValidatorSignup>("crates_signup", signup());
    crates_group::<Contact, GardeContact, ValidatorContact>("crates_contact", contact());
    typed_group();
}
