//! What the form tests share: the check every derived form goes through, content builders,
//! the spec's choice enums as derived types, and the schema an independent validator gets.

use elicit_mcp::Elicit;
use elicit_mcp::schema::RequestedSchema;
use serde_json::{Map, Value};

use crate::spec::{assert_valid, spec_def};

/// What a `requestedSchema` must be.
pub const REQUESTED_SCHEMA: &str = "ElicitRequestFormParams/properties/requestedSchema";

/// Whether `instance` is valid against `#/$defs/{pointer}` of the spec's schema.
pub fn is_valid(pointer: &str, instance: &Value) -> bool {
    spec_def(pointer).is_valid(instance)
}

/// The check every derived form goes through, returning its schema as a JSON value:
/// - `requested_schema_json()` is byte for byte `serde_json::to_string(requested_schema())`;
/// - the schema validates against the spec's `requestedSchema` definition;
/// - the client-side model reads the text back into the same typed schema;
/// - both accessors hand out one cached value, not a fresh one per call.
pub fn check_schema<T: Elicit>() -> Value {
    let typed = T::requested_schema();
    let text = T::requested_schema_json();
    let serialized = serde_json::to_string(typed).expect("a schema serializes");
    assert_eq!(
        text,
        serialized,
        "requested_schema_json() differs from serde_json::to_string(requested_schema()) for {}",
        std::any::type_name::<T>()
    );
    let value: Value = serde_json::from_str(text).expect("requested_schema_json() is JSON");
    assert_valid(REQUESTED_SCHEMA, &value);
    let parsed: RequestedSchema = serde_json::from_str(text).unwrap_or_else(|e| {
        panic!(
            "RequestedSchema rejects the schema derived for {}: {e}",
            std::any::type_name::<T>()
        )
    });
    assert_eq!(&parsed, typed, "the schema does not read back as itself");
    assert!(std::ptr::eq(T::requested_schema(), typed));
    assert!(std::ptr::eq(T::requested_schema_json(), text));
    value
}

/// Runs [`check_schema`] on each listed type.
#[macro_export]
macro_rules! check_schemas {
    ($($ty:ty),* $(,)?) => {$(
        $crate::forms::check_schema::<$ty>();
    )*};
}
// Exported at the crate's root, as every `macro_export` is; named here too, beside the check it runs.
pub use check_schemas;

/// The object of a `json!({..})` literal, as form content.
pub fn content(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("content must be an object, not {other}"),
    }
}

/// `T::from_content` on a `json!({..})` literal, checked to agree with `T::from_content_owned`
/// on the same content: the same outcome, the same errors.
pub fn parse<T: Elicit>(value: Value) -> Result<T, elicit_mcp::ContentError> {
    let content = content(value);
    let borrowed = T::from_content(&content);
    let owned = T::from_content_owned(content);
    assert_eq!(
        borrowed.as_ref().err(),
        owned.as_ref().err(),
        "from_content and from_content_owned differ on {}",
        std::any::type_name::<T>()
    );
    borrowed
}

/// The schema of a derived form with `"uniqueItems": true` on every array property, for an
/// independent validator. elicit rejects a multi-select that picks one choice twice, a rule the
/// emitted schema does not state (the spec's multi-select schema has no `uniqueItems`), so the
/// test states it in its own copy instead of ignoring the difference.
pub fn schema_with_unique_items<T: Elicit>() -> Value {
    let mut schema: Value = serde_json::from_str(T::requested_schema_json()).unwrap();
    for property in schema["properties"].as_object_mut().unwrap().values_mut() {
        if property["type"] == "array" {
            property["uniqueItems"] = Value::Bool(true);
        }
    }
    schema
}

/// Three colours without titles: the spec's untitled enum examples.
#[derive(
    Elicit,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum Color {
    Red,
    Green,
    Blue,
}

/// Three colours with titles: the spec's titled enum examples. The serde renames let serde
/// write content elicit reads (elicit honors `#[serde(rename)]`, checked in `form::schema`).
#[derive(
    Elicit,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum HexColor {
    #[elicit(title = "Red")]
    #[serde(rename = "#FF0000")]
    Red,
    #[elicit(title = "Green")]
    #[serde(rename = "#00FF00")]
    Green,
    #[elicit(title = "Blue")]
    #[serde(rename = "#0000FF")]
    Blue,
}

impl Color {
    pub const ALL: [Color; 3] = [Color::Red, Color::Green, Color::Blue];
}

impl HexColor {
    pub const ALL: [HexColor; 3] = [HexColor::Red, HexColor::Green, HexColor::Blue];
}
