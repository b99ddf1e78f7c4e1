//! A derived form with every kind of field the derive takes: strings with formats, patterns
//! and lengths; integers of every width and floats, with and without bounds; booleans; single
//! and multi-selects, titled and untitled; typed values; newtypes; optional fields and
//! defaults. It derives `Serialize` with the same wire names, so a value it reads is written
//! back and read again.

use elicit_mcp::{Elicit, Email};
use serde::{Serialize, Serializer};

/// Every kind of field.
#[derive(Elicit, Serialize)]
#[elicit(message = "Every kind of field", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct EveryKind {
    /// A name between 2 and 8 characters
    #[elicit(min_length = 2, max_length = 8)]
    name: String,
    #[elicit(format = "email")]
    email: String,
    #[serde(serialize_with = "as_text")]
    typed_email: Option<Email>,
    #[elicit(format = "uri")]
    homepage: Option<String>,
    #[elicit(format = "date")]
    day: String,
    #[elicit(format = "date-time", default = "2025-11-25T09:30:00Z")]
    at: String,
    /// Two capitals, a dash and three to five digits: the matcher's DFA
    #[elicit(pattern = r"^[A-Z]{2}-[0-9]{3,5}$")]
    code: Option<String>,
    /// A Unicode word boundary, which the DFA cannot hold: matched with `regex`
    #[elicit(pattern = r"\bok\b", max_length = 40)]
    word: Option<String>,
    postcode: Postcode,
    #[elicit(minimum = -5, maximum = 40)]
    count: i32,
    small: Option<u8>,
    #[elicit(default = 7)]
    short: i16,
    big: Option<u64>,
    signed: Option<i64>,
    wide: Option<i128>,
    #[elicit(minimum = 0.5, maximum = 99.5)]
    ratio: f64,
    single: Option<f32>,
    percent: Option<Percent>,
    flag: bool,
    #[elicit(default = true)]
    opt_in: bool,
    maybe: Option<bool>,
    #[elicit(default = Size::Medium)]
    size: Size,
    plain: Option<Plain>,
    #[elicit(min_items = 1, max_items = 2)]
    sizes: Vec<Size>,
    #[elicit(default = [Plain::Red])]
    colors: Vec<Plain>,
    more: Option<Vec<Plain>>,
    #[elicit(default = "hello")]
    greeting: String,
}

/// A single-select with titles (`oneOf`), and its multi-select (`items.anyOf`).
#[derive(Elicit, Serialize)]
#[elicit(rename_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum Size {
    #[elicit(title = "Small size")]
    Small,
    Medium,
    #[elicit(rename = "XL", title = "Extra large")]
    #[serde(rename = "XL")]
    ExtraLarge,
}

/// An untitled single-select (`enum`), and its multi-select (`items.enum`).
#[derive(Elicit, Serialize)]
#[elicit(rename_all = "lowercase", untitled)]
#[serde(rename_all = "lowercase")]
pub enum Plain {
    Red,
    Green,
    Blue,
}

/// A newtype with a pattern.
#[derive(Elicit, Serialize)]
#[elicit(pattern = "^[0-9]{5}$")]
pub struct Postcode(String);

/// A newtype with bounds.
#[derive(Elicit, Serialize)]
#[elicit(minimum = 0, maximum = 100)]
pub struct Percent(u8);

fn as_text<S: Serializer>(email: &Option<Email>, serializer: S) -> Result<S::Ok, S::Error> {
    match email {
        Some(email) => serializer.serialize_str(email),
        None => serializer.serialize_none(),
    }
}
