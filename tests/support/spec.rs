//! What the integration tests share: the spec's own material (its JSON schema as validators,
//! the JSON examples of its elicitation page), the check every derived form goes through, and
//! small content builders; in [`tracker`], what the tests of URL mode's tracker share; in
//! [`rmcp`], the harness of the tests on rmcp.
//!
//! The spec files are copies in `tests/data/spec/` (see the README there for their sources and
//! sha256), read at compile time, so a clone of the repository with nothing beside it runs every
//! test offline. Each test file compiles this module on its own, so not every file uses every
//! item.
#![allow(dead_code)]

pub mod rmcp;
pub mod tracker;

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use elicit_mcp::schema::RequestedSchema;
use elicit_mcp::{Elicit, ElicitChoice};
use jsonschema::Validator;
use serde_json::{Map, Value, json};

/// The elicitation page of MCP revision 2025-11-25.
const SPEC_PAGE: &str = include_str!("../data/spec/elicitation-2025-11-25.md");

/// The official JSON Schema of MCP revision 2025-11-25, as published.
pub const SPEC_SCHEMA: &str = include_str!("../data/spec/schema-2025-11-25.json");

/// The `$defs` of the spec's schema, with its one known defect patched.
///
/// The file types a content value of `ElicitResult` as `string | integer | boolean | string[]`,
/// while the TypeScript source of the spec (and the number properties forms ask for) say
/// `string | number | boolean | string[]`. The file is wrong, so this copy says `number`. The
/// assertion makes the patch fail loudly once the file is fixed or changes there.
static DEFS: LazyLock<Value> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SPEC_SCHEMA).expect("the spec's schema file is JSON");
    let mut defs = schema["$defs"].clone();
    let scalar = &mut defs["ElicitResult"]["properties"]["content"]["additionalProperties"]["anyOf"]
        [1]["type"];
    assert_eq!(
        *scalar,
        json!(["string", "integer", "boolean"]),
        "the known defect of the schema file changed; revisit this patch"
    );
    *scalar = json!(["string", "number", "boolean"]);
    defs
});

/// A draft 2020-12 validator for `schema`, with `format` checked (it is only an annotation by
/// default).
pub fn validator(schema: &Value) -> Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("cannot build a validator for {schema}: {e}"))
}

/// The validator of `#/$defs/{pointer}` of the spec's (patched) schema, built once per pointer.
///
/// `pointer` is a definition name (`"ElicitResult"`) or a JSON pointer below `$defs`
/// (`"ElicitRequestFormParams/properties/requestedSchema"`).
pub fn spec_def(pointer: &str) -> &'static Validator {
    static BUILT: LazyLock<Mutex<HashMap<String, &'static Validator>>> =
        LazyLock::new(Mutex::default);
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    built.entry(pointer.to_owned()).or_insert_with(|| {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": format!("#/$defs/{pointer}"),
            "$defs": DEFS.clone(),
        });
        // Leaked once per pointer for the life of the test process, so callers hold a plain
        // reference instead of a lock.
        Box::leak(Box::new(validator(&schema)))
    })
}

/// What a `requestedSchema` must be.
pub const REQUESTED_SCHEMA: &str = "ElicitRequestFormParams/properties/requestedSchema";

/// Panics, listing every error, unless `instance` is valid against `#/$defs/{pointer}` of the
/// spec's schema.
pub fn assert_valid(pointer: &str, instance: &Value) {
    let errors: Vec<String> = spec_def(pointer)
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {pointer}: {errors:#?}\n{instance:#}"
    );
}

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
        $crate::support::check_schema::<$ty>();
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
pub fn parse<T: Elicit>(value: Value) -> Result<T, elicit_mcp::ContentError> {
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

/// One JSON block of the spec page: its text (comments and trailing commas removed) and value.
///
/// Round trips start from the text: a `Value`'s object keys are sorted, which would reorder a
/// form's properties before the type under test ever saw them.
#[derive(Clone, Debug)]
pub struct Example {
    /// The prose between the previous block and this one (headings included): what the spec
    /// calls this example.
    pub caption: String,
    pub text: String,
    pub value: Value,
}

impl Example {
    /// The member `key` of the example, read as `T` straight from the text.
    pub fn read_member<T: serde::de::DeserializeOwned>(&self, key: &str) -> T {
        let mut member = Member { key, found: None };
        let mut de = serde_json::Deserializer::from_str(&self.text);
        serde::Deserializer::deserialize_map(&mut de, &mut member)
            .unwrap_or_else(|e| panic!("`{key}` of the example does not read: {e}\n{}", self.text));
        member
            .found
            .unwrap_or_else(|| panic!("the example has no `{key}`: {}", self.text))
    }

    /// The JSON text of the member at `path` (`["params", "requestedSchema"]`), exactly as the
    /// spec writes it: tests of the sender's property order start from text, since a parsed
    /// `Value` need not keep it.
    pub fn member_text(&self, path: &[&str]) -> String {
        let mut text: &serde_json::value::RawValue = serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("the example does not read: {e}\n{}", self.text));
        for key in path {
            let members: HashMap<&str, &serde_json::value::RawValue> =
                serde_json::from_str(text.get())
                    .unwrap_or_else(|e| panic!("`{key}` is not inside an object: {e}"));
            text = members
                .get(key)
                .unwrap_or_else(|| panic!("the example has no `{key}`: {}", self.text));
        }
        text.get().to_owned()
    }

    /// The whole example read as `T` from the text.
    pub fn read<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("the spec's example does not read: {e}\n{}", self.text))
    }
}

/// Reads one member of an object as `T`, skipping the others.
struct Member<'k, T> {
    key: &'k str,
    found: Option<T>,
}

impl<'de, T: serde::de::DeserializeOwned> serde::de::Visitor<'de> for &mut Member<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == self.key {
                self.found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The JSON and JSONC blocks of the spec page, in order, with comments and trailing commas
/// removed so that they parse.
pub fn examples() -> Vec<Example> {
    let mut blocks = Vec::new();
    let mut rest = SPEC_PAGE;
    while let Some(start) = rest.find("```json") {
        let caption = rest[..start].trim().to_owned();
        let after_fence = &rest[start..];
        let body_start = after_fence.find('\n').expect("a fence line ends") + 1;
        let body = &after_fence[body_start..];
        let end = body.find("```").expect("a fenced block is closed");
        let text = strip_jsonc(&body[..end]);
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("a JSON block of the spec does not parse ({e}):\n{text}"));
        blocks.push(Example {
            caption,
            text,
            value,
        });
        rest = &body[end + 3..];
    }
    blocks
}

/// The first JSON block of the spec page whose caption (the prose just before it) contains
/// `caption`: `spec_example("Example: Simple Text Request")` is that example's request.
pub fn spec_example(caption: &str) -> Example {
    examples()
        .into_iter()
        .find(|e| e.caption.contains(caption))
        .unwrap_or_else(|| panic!("the spec page has no JSON block after `{caption}`"))
}

/// The spec's examples that are whole JSON-RPC messages (they have `jsonrpc`).
pub fn messages() -> Vec<Example> {
    examples()
        .into_iter()
        .filter(|e| e.value.get("jsonrpc").is_some())
        .collect()
}

/// Removes `//` comments and trailing commas outside strings: the spec writes some examples
/// as JSONC.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for skipped in chars.by_ref() {
                    if skipped == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    remove_trailing_commas(&out)
}

fn remove_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
            out.push(c);
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = text[i + 1..].trim_start().chars().next();
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}
