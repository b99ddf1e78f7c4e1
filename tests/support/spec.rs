//! The spec's JSON schema as validators: any value checked against a definition of MCP
//! revision 2025-11-25.
//!
//! The schema is a copy in `tests/data/spec/` (see the README there for its source and sha256),
//! read at compile time, so a clone of the repository with nothing beside it runs every test
//! offline.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use jsonschema::Validator;
use serde_json::{Value, json};

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
