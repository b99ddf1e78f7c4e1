//! The spec's own material for the URL-mode and protocol tests: the JSON examples of the
//! elicitation page and validators for the definitions of the official JSON schema. Both are
//! read from `../shared/spec/` at compile time, so no test touches the network.
//!
//! Each test file compiles this module on its own, so not every file uses every item.
#![allow(dead_code)]

use std::sync::LazyLock;

use jsonschema::Validator;
use serde_json::{Value, json};

const SPEC_PAGE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/spec/elicitation-2025-11-25.md"
));

const SPEC_SCHEMA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/spec/schema-2025-11-25.json"
));

static DEFS: LazyLock<Value> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SPEC_SCHEMA).expect("the spec's schema file is JSON");
    let mut defs = schema["$defs"].clone();
    // Known defect of the file: it types a content value's number as `integer`, where the
    // TypeScript source of the spec says `string | number | boolean | string[]`.
    defs["ElicitResult"]["properties"]["content"]["additionalProperties"] = json!({
        "anyOf": [
            {"type": "array", "items": {"type": "string"}},
            {"type": ["string", "number", "boolean"]}
        ]
    });
    defs
});

/// A validator for `#/$defs/{name}` of the spec's schema, with `format` checked.
pub fn def(name: &str) -> Validator {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/$defs/{name}"),
        "$defs": DEFS.clone(),
    });
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("cannot build a validator for {name}: {e}"))
}

/// Panics, listing every error, unless `instance` is valid against `#/$defs/{name}`.
pub fn assert_valid(name: &str, instance: &Value) {
    let validator = def(name);
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {name}: {instance}\n{}",
        errors.join("\n")
    );
}

/// Whether `instance` is valid against `#/$defs/{name}`.
pub fn is_valid(name: &str, instance: &Value) -> bool {
    def(name).is_valid(instance)
}

/// One JSON block of the spec page: its text (comments and trailing commas removed) and value.
///
/// Round trips start from the text: a `Value`'s object keys are sorted, which would reorder a
/// form's properties before the type under test ever saw them.
#[derive(Clone, Debug)]
pub struct Example {
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
        let after_fence = &rest[start..];
        let body_start = after_fence.find('\n').expect("a fence line ends") + 1;
        let body = &after_fence[body_start..];
        let end = body.find("```").expect("a fenced block is closed");
        let text = strip_jsonc(&body[..end]);
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("a JSON block of the spec does not parse ({e}):\n{text}"));
        blocks.push(Example { text, value });
        rest = &body[end + 3..];
    }
    blocks
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
