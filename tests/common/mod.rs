//! Helpers shared by the form-mode test files: the official schema of the spec as a validator,
//! the check every derived schema goes through, and small content builders.
//!
//! Each test file compiles this module on its own, so not every file uses every item.
#![allow(dead_code)]

use std::sync::LazyLock;

use elicit::schema::RequestedSchema;
use elicit::{Elicit, ElicitChoice};
use jsonschema::Validator;
use serde_json::{Map, Value, json};

/// The official JSON Schema of MCP revision 2025-11-25, read at compile time (no network).
pub const SPEC_SCHEMA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/spec/schema-2025-11-25.json"
));

/// The spec's schema file, parsed.
pub static SPEC: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(SPEC_SCHEMA).expect("the spec's schema file is JSON"));

/// A draft 2020-12 validator, with `format` checked (it is only an annotation by default).
pub fn validator(schema: &Value) -> Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("cannot build a validator for {schema}: {e}"))
}

/// A validator for one definition of the spec's schema file, by JSON pointer below `$defs`.
fn spec_def(pointer: &str, defs: Value) -> Validator {
    validator(&json!({ "$ref": format!("#/$defs/{pointer}"), "$defs": defs }))
}

/// `#/$defs/ElicitRequestFormParams/properties/requestedSchema`: what a requestedSchema must be.
pub static REQUESTED_SCHEMA: LazyLock<Validator> = LazyLock::new(|| {
    spec_def(
        "ElicitRequestFormParams/properties/requestedSchema",
        SPEC["$defs"].clone(),
    )
});

/// `#/$defs/ElicitRequestFormParams`: the params of a form-mode `elicitation/create`.
pub static FORM_PARAMS: LazyLock<Validator> =
    LazyLock::new(|| spec_def("ElicitRequestFormParams", SPEC["$defs"].clone()));

/// `#/$defs/ElicitResult`, patched: the file types a content value as
/// `string | integer | boolean | string[]`, but the TypeScript source of the spec (and the
/// number properties forms ask for) say `string | number | boolean | string[]`. The file is wrong,
/// so the test's copy says `number`.
pub static ELICIT_RESULT: LazyLock<Validator> = LazyLock::new(|| {
    let mut defs = SPEC["$defs"].clone();
    let scalar = &mut defs["ElicitResult"]["properties"]["content"]["additionalProperties"]["anyOf"]
        [1]["type"];
    assert_eq!(
        *scalar,
        json!(["string", "integer", "boolean"]),
        "the known defect of the schema file changed; revisit this patch"
    );
    *scalar = json!(["string", "number", "boolean"]);
    spec_def("ElicitResult", defs)
});

/// Panics with every error of `validator` on `instance`.
pub fn assert_valid(validator: &Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} is not valid: {errors:#?}\n{instance:#}"
    );
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
    assert_valid(
        &REQUESTED_SCHEMA,
        &value,
        &format!("the schema of {}", std::any::type_name::<T>()),
    );
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
        $crate::common::check_schema::<$ty>();
    )*};
}

/// The object of a `json!({..})` literal, as form content.
pub fn content(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("content must be an object, not {other}"),
    }
}

/// `T::from_content` on a `json!({..})` literal.
pub fn parse<T: Elicit>(value: Value) -> Result<T, elicit::ContentError> {
    T::from_content(&content(value))
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
/// write content elicit reads (elicit honors `#[serde(rename)]`, checked in form_schema.rs).
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

/// The wire values of a choice enum.
pub fn wire_values<E: ElicitChoice>(all: &[E]) -> Vec<&'static str> {
    all.iter().map(E::to_wire).collect()
}
