//! The client-side model of the restricted schema subset, `RequestedSchema`: it reads every
//! example of the spec and each `PrimitiveSchemaDefinition` variant (legacy `enumNames`
//! included), writes them back unchanged, refuses what lies outside the subset naming the
//! property, and its `validate_content` agrees with the derived `from_content`.

use std::collections::BTreeSet;

use elicit_mcp::Elicit;
use elicit_mcp::schema::{
    LegacyTitledEnumSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringFormat,
    StringSchema, TitledOption,
};
use elicit_mcp::wire::ElicitRequestFormParams;
use elicit_test_support as support;
use elicit_test_support::forms::{Color, HexColor, REQUESTED_SCHEMA, check_schema, content};
use elicit_test_support::spec::assert_valid;
use serde_json::{Map, Value, json};

/// Reads `value` both ways (from a value and from its text) and checks they agree.
fn read(value: &Value) -> RequestedSchema {
    let from_value = RequestedSchema::from_value(value)
        .unwrap_or_else(|e| panic!("from_value rejects {value}: {e}"));
    let from_text: RequestedSchema = serde_json::from_str(&value.to_string())
        .unwrap_or_else(|e| panic!("Deserialize rejects {value}: {e}"));
    assert_eq!(from_value, from_text);
    from_text
}

/// The properties sorted by name: `from_value` reads a `serde_json::Map`, whose order is not
/// the sender's.
fn by_name(schema: &RequestedSchema) -> Vec<Property> {
    let mut properties = schema.properties().to_vec();
    properties.sort_by(|a, b| a.name.cmp(&b.name));
    properties
}

/// Reads the schema `text`, writes it back, and checks nothing changed and it is spec-valid.
fn round_trip(text: &str) -> RequestedSchema {
    let value: Value = serde_json::from_str(text).unwrap();
    assert_valid(REQUESTED_SCHEMA, &value);
    let schema: RequestedSchema =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("Deserialize rejects {text}: {e}"));
    let from_value = RequestedSchema::from_value(&value)
        .unwrap_or_else(|e| panic!("from_value rejects {text}: {e}"));
    assert_eq!(by_name(&from_value), by_name(&schema));
    let written = serde_json::to_value(&schema).unwrap();
    assert_eq!(written, value, "the schema did not round-trip");
    // Writing is stable: reading the written text gives the same schema.
    let again: RequestedSchema =
        serde_json::from_str(&serde_json::to_string(&schema).unwrap()).unwrap();
    assert_eq!(again, schema);
    schema
}

fn one_property(property: Value) -> String {
    json!({"type": "object", "properties": {"p": property}, "required": ["p"]}).to_string()
}

fn the_property(schema: &RequestedSchema) -> &PrimitiveSchema {
    assert_eq!(schema.properties().len(), 1);
    &schema.properties()[0].schema
}

// ---------------------------------------------------------------------------------------------
// The spec's examples.

#[test]
fn the_spec_request_schemas_read_and_round_trip() {
    // The spec's texts as written, so the sender's order of properties is kept.
    let simple = round_trip(
        &support::spec_page::spec_example("Example: Simple Text Request")
            .member_text(&["params", "requestedSchema"]),
    );
    assert_eq!(simple.required().collect::<Vec<_>>(), ["name"]);
    assert!(
        matches!(&simple.properties()[0].schema, PrimitiveSchema::String(s) if *s == StringSchema::default())
    );

    let contact = round_trip(
        &support::spec_page::spec_example("Example: Structured Data Request")
            .member_text(&["params", "requestedSchema"]),
    );
    let names: Vec<&str> = contact.properties().iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["name", "email", "age"]);
    assert_eq!(contact.required().collect::<Vec<_>>(), ["name", "email"]);
    match &contact.property("email").unwrap().schema {
        PrimitiveSchema::String(s) => {
            assert_eq!(s.format, Some(StringFormat::Email));
            assert_eq!(s.description.as_deref(), Some("Your email address"));
        }
        other => panic!("{other:?}"),
    }
    match &contact.property("age").unwrap().schema {
        PrimitiveSchema::Number(n) => {
            assert_eq!(n.kind, NumberType::Number);
            assert_eq!(n.minimum, Some(18.into()));
            assert_eq!(n.maximum, None);
        }
        other => panic!("{other:?}"),
    }
    assert!(!contact.property("age").unwrap().required);
}

#[test]
fn the_spec_request_params_read_as_form_params() {
    // Untitled, as the spec's example is.
    #[derive(Elicit)]
    #[elicit(message = "Please provide your GitHub username", untitled)]
    struct GitHubUsername {
        #[allow(dead_code)]
        name: String,
    }
    check_schema::<GitHubUsername>();
    elicit_test_support::agree_with_jsonschema!(GitHubUsername);
    let params = json!({
      "mode": "form",
      "message": "Please provide your GitHub username",
      "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    });
    let read: ElicitRequestFormParams = serde_json::from_value(params.clone()).unwrap();
    assert_eq!(&*read.requested_schema, GitHubUsername::requested_schema());
    assert_eq!(read, GitHubUsername::form_request());
    assert_eq!(serde_json::to_value(&read).unwrap(), params);
    // Without `mode` it is form mode; with another mode it is not form params.
    let mut without_mode = params.clone();
    without_mode.as_object_mut().unwrap().remove("mode");
    assert!(serde_json::from_value::<ElicitRequestFormParams>(without_mode).is_ok());
    let mut url = params;
    url["mode"] = json!("url");
    assert!(serde_json::from_value::<ElicitRequestFormParams>(url).is_err());
}

#[test]
fn every_primitive_example_of_the_spec_reads() {
    // String Schema, verbatim: the model reads what peers send, even a default its own pattern
    // does not match (the derive would refuse to emit that).
    let string = round_trip(&one_property(json!({
      "type": "string",
      "title": "Display Name",
      "description": "Description text",
      "minLength": 3,
      "maxLength": 50,
      "pattern": "^[A-Za-z]+$",
      "format": "email",
      "default": "user@example.com"
    })));
    match the_property(&string) {
        PrimitiveSchema::String(s) => {
            assert_eq!(s.title.as_deref(), Some("Display Name"));
            assert_eq!(s.description.as_deref(), Some("Description text"));
            assert_eq!((s.min_length, s.max_length), (Some(3), Some(50)));
            assert_eq!(s.pattern.as_deref(), Some("^[A-Za-z]+$"));
            assert_eq!(s.format, Some(StringFormat::Email));
            assert_eq!(s.default.as_deref(), Some("user@example.com"));
        }
        other => panic!("{other:?}"),
    }

    // Number Schema, with both of its types.
    for kind in ["number", "integer"] {
        let number = round_trip(&one_property(json!({
          "type": kind,
          "title": "Display Name",
          "description": "Description text",
          "minimum": 0,
          "maximum": 100,
          "default": 50
        })));
        match the_property(&number) {
            PrimitiveSchema::Number(n) => {
                let expected = if kind == "integer" {
                    NumberType::Integer
                } else {
                    NumberType::Number
                };
                assert_eq!(n.kind, expected);
                assert_eq!(
                    (n.minimum, n.maximum, n.default),
                    (Some(0.into()), Some(100.into()), Some(50.into()))
                );
            }
            other => panic!("{other:?}"),
        }
    }

    // Boolean Schema.
    let boolean = round_trip(&one_property(json!({
      "type": "boolean",
      "title": "Display Name",
      "description": "Description text",
      "default": false
    })));
    assert!(
        matches!(the_property(&boolean), PrimitiveSchema::Boolean(b) if b.default == Some(false))
    );

    // Single-select without titles.
    let untitled = round_trip(&one_property(json!({
      "type": "string",
      "title": "Color Selection",
      "description": "Choose your favorite color",
      "enum": ["Red", "Green", "Blue"],
      "default": "Red"
    })));
    match the_property(&untitled) {
        PrimitiveSchema::SingleSelect(s) => {
            assert_eq!(*s.values, ["Red", "Green", "Blue"]);
            assert_eq!(s.default.as_deref(), Some("Red"));
        }
        other => panic!("{other:?}"),
    }

    // Single-select with titles.
    let titled = round_trip(&one_property(json!({
      "type": "string",
      "title": "Color Selection",
      "description": "Choose your favorite color",
      "oneOf": [
        { "const": "#FF0000", "title": "Red" },
        { "const": "#00FF00", "title": "Green" },
        { "const": "#0000FF", "title": "Blue" }
      ],
      "default": "#FF0000"
    })));
    match the_property(&titled) {
        PrimitiveSchema::TitledSingleSelect(s) => {
            assert_eq!(s.options.len(), 3);
            assert_eq!(s.options[1], TitledOption::new("#00FF00", "Green"));
            assert_eq!(s.default.as_deref(), Some("#FF0000"));
        }
        other => panic!("{other:?}"),
    }

    // Multi-select without titles.
    let multi = round_trip(&one_property(json!({
      "type": "array",
      "title": "Color Selection",
      "description": "Choose your favorite colors",
      "minItems": 1,
      "maxItems": 2,
      "items": {
        "type": "string",
        "enum": ["Red", "Green", "Blue"]
      },
      "default": ["Red", "Green"]
    })));
    match the_property(&multi) {
        PrimitiveSchema::MultiSelect(s) => {
            assert_eq!((s.min_items, s.max_items), (Some(1), Some(2)));
            assert_eq!(*s.values, ["Red", "Green", "Blue"]);
            assert_eq!(s.default.as_deref().unwrap(), ["Red", "Green"]);
        }
        other => panic!("{other:?}"),
    }

    // Multi-select with titles.
    let titled_multi = round_trip(&one_property(json!({
      "type": "array",
      "title": "Color Selection",
      "description": "Choose your favorite colors",
      "minItems": 1,
      "maxItems": 2,
      "items": {
        "anyOf": [
          { "const": "#FF0000", "title": "Red" },
          { "const": "#00FF00", "title": "Green" },
          { "const": "#0000FF", "title": "Blue" }
        ]
      },
      "default": ["#FF0000", "#00FF00"]
    })));
    match the_property(&titled_multi) {
        PrimitiveSchema::TitledMultiSelect(s) => {
            assert_eq!(s.options[2].title, "Blue");
            assert_eq!(s.default.as_deref().unwrap(), ["#FF0000", "#00FF00"]);
        }
        other => panic!("{other:?}"),
    }

    // The deprecated titled single-select, still accepted from peers.
    let legacy = round_trip(&one_property(json!({
      "type": "string",
      "title": "Color Selection",
      "enum": ["#FF0000", "#00FF00"],
      "enumNames": ["Red", "Green"],
      "default": "#00FF00"
    })));
    match the_property(&legacy) {
        PrimitiveSchema::LegacyTitled(s) => {
            assert_eq!(*s.values, ["#FF0000", "#00FF00"]);
            assert_eq!(*s.names, ["Red", "Green"]);
            assert_eq!(s.default.as_deref(), Some("#00FF00"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        legacy.properties()[0].schema.choices().unwrap(),
        ["#FF0000", "#00FF00"]
    );
}

#[test]
fn optional_outer_keywords_round_trip() {
    let text = r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"Sign up","description":"Tell us about you","properties":{"b":{"type":"boolean"},"a":{"type":"integer","minimum":-1.5}}}"#;
    let schema = round_trip(text);
    // In the serializer's own key order, the text comes back byte for byte.
    assert_eq!(serde_json::to_string(&schema).unwrap(), text);
    assert_eq!(
        schema.schema_uri.as_deref(),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
    assert_eq!(schema.title.as_deref(), Some("Sign up"));
    assert_eq!(schema.description.as_deref(), Some("Tell us about you"));
    assert_eq!(schema.required().count(), 0);
    // Deserialize keeps the sender's order of properties.
    let names: Vec<&str> = schema.properties().iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["b", "a"]);
}

#[test]
fn a_hand_built_schema_serializes_to_the_spec_shape() {
    let schema = RequestedSchema::new(vec![
        Property::new(
            "colour",
            true,
            PrimitiveSchema::LegacyTitled(LegacyTitledEnumSchema::new([
                TitledOption::new("r", "Red"),
                TitledOption::new("g", "Green"),
            ])),
        ),
        Property::new(
            "note",
            false,
            PrimitiveSchema::String(
                StringSchema::default()
                    .with_max_length(140)
                    .with_format(StringFormat::Uri),
            ),
        ),
    ]);
    let value = serde_json::to_value(&schema).unwrap();
    assert_eq!(
        value,
        json!({
            "type": "object",
            "properties": {
                "colour": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]},
                "note": {"type": "string", "maxLength": 140, "format": "uri"}
            },
            "required": ["colour"]
        })
    );
    assert_valid(REQUESTED_SCHEMA, &value);
    assert_eq!(read(&value), schema);
}

#[test]
fn property_helpers() {
    let schema = read(&json!({"type": "object", "properties": {
        "c": {"type": "string", "title": "C", "description": "pick", "oneOf": [{"const": "x", "title": "X"}], "default": "x"},
        "n": {"type": "integer", "default": 3},
        "m": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["b"]},
        "s": {"type": "string"}
    }}));
    let c = &schema.property("c").unwrap().schema;
    assert_eq!((c.title(), c.description()), (Some("C"), Some("pick")));
    assert_eq!(c.choices().unwrap(), ["x"]);
    assert!(c.contains_choice("x"));
    assert!(!c.contains_choice("X"), "a title is not a value");
    assert_eq!(c.default_value(), Some(json!("x")));
    let m = &schema.property("m").unwrap().schema;
    assert_eq!(m.default_value(), Some(json!(["b"])));
    assert!(m.contains_choice("a") && !m.contains_choice("c"));
    assert_eq!(
        schema.property("n").unwrap().schema.default_value(),
        Some(json!(3))
    );
    let s = &schema.property("s").unwrap().schema;
    assert_eq!((s.choices(), s.default_value()), (None, None));
    assert!(!s.contains_choice(""));
    assert!(schema.property("missing").is_none());

    let mut filled = Map::new();
    filled.insert("s".into(), json!("kept"));
    filled.insert("n".into(), Value::Null);
    // Fields present (even null) are left alone; absent ones with a default are filled.
    assert_eq!(schema.apply_defaults(&mut filled), ["c", "m"]);
    assert_eq!(
        Value::Object(filled),
        json!({"s": "kept", "n": null, "c": "x", "m": ["b"]})
    );
}

// ---------------------------------------------------------------------------------------------
// Outside the subset.

/// `value` must be refused by both readers, naming `property` (or the outer object) and
/// `keyword`.
fn refused(value: Value, property: Option<&str>, keyword: Option<&str>) {
    let error =
        RequestedSchema::from_value(&value).expect_err(&format!("from_value accepts {value}"));
    assert_eq!(
        error.property(),
        property,
        "property of {error} for {value}"
    );
    assert_eq!(error.keyword(), keyword, "keyword of {error} for {value}");
    assert!(!error.message().is_empty());
    let text_error = serde_json::from_str::<RequestedSchema>(&value.to_string())
        .expect_err(&format!("Deserialize accepts {value}"))
        .to_string();
    if let Some(property) = property {
        let named = format!("property `{property}`");
        assert!(error.to_string().contains(&named), "{error}");
        assert!(text_error.contains(&named), "{text_error}");
    }
    // The spec's own schema is looser than the subset, so no validator check here: the
    // model is the strict reader a client runs.
}

fn with(name: &str, property: Value) -> Value {
    json!({"type": "object", "properties": {name: property}})
}

#[test]
fn out_of_subset_properties_are_refused_by_name() {
    // A nested object: the form is flat.
    refused(
        with(
            "address",
            json!({"type": "object", "properties": {"street": {"type": "string"}}}),
        ),
        Some("address"),
        Some("type"),
    );
    // An array of anything but string choices.
    refused(
        with(
            "tags",
            json!({"type": "array", "items": {"type": "number"}}),
        ),
        Some("tags"),
        Some("items"),
    );
    refused(
        with(
            "tags",
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        Some("tags"),
        Some("items"),
    );
    refused(
        with(
            "tags",
            json!({"type": "array", "items": {"type": "object", "properties": {}}}),
        ),
        Some("tags"),
        Some("items"),
    );
    refused(
        with("tags", json!({"type": "array"})),
        Some("tags"),
        Some("items"),
    );
    refused(
        with(
            "tags",
            json!({"type": "array", "items": [{"type": "string", "enum": ["a"]}]}),
        ),
        Some("tags"),
        Some("items"),
    );
    refused(
        with(
            "tags",
            json!({"type": "array", "items": {"type": "string", "enum": ["a"], "pattern": "a"}}),
        ),
        Some("tags"),
        Some("items"),
    );
    // Unknown or misplaced keywords.
    refused(
        with("name", json!({"type": "string", "minimum": 3})),
        Some("name"),
        Some("minimum"),
    );
    refused(
        with("name", json!({"type": "string", "$ref": "#/$defs/x"})),
        Some("name"),
        Some("$ref"),
    );
    refused(
        with("n", json!({"type": "number", "multipleOf": 2})),
        Some("n"),
        Some("multipleOf"),
    );
    refused(
        with("n", json!({"type": "integer", "minLength": 2})),
        Some("n"),
        Some("minLength"),
    );
    refused(
        with("b", json!({"type": "boolean", "enum": [true]})),
        Some("b"),
        Some("enum"),
    );
    refused(
        with(
            "c",
            json!({"type": "string", "enum": ["a"], "pattern": "a"}),
        ),
        Some("c"),
        Some("pattern"),
    );
    refused(
        with(
            "m",
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "uniqueItems": true}),
        ),
        Some("m"),
        Some("uniqueItems"),
    );
    // Formats outside the four the spec allows.
    refused(
        with("site", json!({"type": "string", "format": "hostname"})),
        Some("site"),
        Some("format"),
    );
    refused(
        with("site", json!({"type": "string", "format": "URI"})),
        Some("site"),
        Some("format"),
    );
    // Types outside the subset, or none.
    refused(with("x", json!({"type": "null"})), Some("x"), Some("type"));
    refused(
        with("x", json!({"type": ["string", "null"]})),
        Some("x"),
        Some("type"),
    );
    refused(with("x", json!({"title": "X"})), Some("x"), Some("type"));
    refused(with("x", json!(true)), Some("x"), None);
    // Keywords with values of the wrong shape.
    refused(
        with("s", json!({"type": "string", "minLength": -1})),
        Some("s"),
        Some("minLength"),
    );
    refused(
        with("s", json!({"type": "string", "maxLength": 1.5})),
        Some("s"),
        Some("maxLength"),
    );
    refused(
        with("s", json!({"type": "string", "default": 5})),
        Some("s"),
        Some("default"),
    );
    refused(
        with("s", json!({"type": "string", "title": ["t"]})),
        Some("s"),
        Some("title"),
    );
    refused(
        with("n", json!({"type": "number", "maximum": "10"})),
        Some("n"),
        Some("maximum"),
    );
    refused(
        with("b", json!({"type": "boolean", "default": "false"})),
        Some("b"),
        Some("default"),
    );
    refused(
        with("e", json!({"type": "string", "enum": ["a", 1]})),
        Some("e"),
        Some("enum"),
    );
    refused(
        with(
            "e",
            json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}),
        ),
        Some("e"),
        Some("enumNames"),
    );
    refused(
        with("o", json!({"type": "string", "oneOf": [{"const": "a"}]})),
        Some("o"),
        Some("oneOf"),
    );
    refused(
        with(
            "o",
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A", "description": "d"}]}),
        ),
        Some("o"),
        Some("oneOf"),
    );
    refused(
        with(
            "m",
            json!({"type": "array", "items": {"anyOf": [{"const": 1, "title": "One"}]}}),
        ),
        Some("m"),
        Some("items"),
    );
    refused(
        with(
            "m",
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "minItems": "1"}),
        ),
        Some("m"),
        Some("minItems"),
    );
}

#[test]
fn out_of_subset_outer_objects_are_refused() {
    // `required` naming a property that is not defined names that property.
    refused(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "ghost"]}),
        Some("ghost"),
        Some("required"),
    );
    refused(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"]}),
        Some("a"),
        Some("required"),
    );
    refused(json!({"properties": {}}), None, Some("type"));
    refused(
        json!({"type": "array", "properties": {}}),
        None,
        Some("type"),
    );
    refused(json!({"type": "object"}), None, Some("properties"));
    refused(
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        None,
        Some("additionalProperties"),
    );
    refused(
        json!({"type": "object", "properties": {}, "required": "a"}),
        None,
        Some("required"),
    );
    refused(
        json!({"type": "object", "properties": {}, "title": 1}),
        None,
        Some("title"),
    );
    refused(
        json!({"type": "object", "properties": []}),
        None,
        Some("properties"),
    );
    refused(json!([]), None, None);

    // A name defined twice can only be seen in text.
    let twice = r#"{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"boolean"}}}"#;
    let error = serde_json::from_str::<RequestedSchema>(twice)
        .unwrap_err()
        .to_string();
    assert!(error.contains("property `a`"), "{error}");
}

// ---------------------------------------------------------------------------------------------
// validate_content agrees with from_content.

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct Everything {
    #[elicit(min_length = 2, max_length = 4, pattern = "^[a-zé]+$")]
    short_word: String,
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(format = "date")]
    day: Option<String>,
    #[elicit(minimum = 18)]
    age: Option<u8>,
    big: Option<u64>,
    #[elicit(minimum = -1.5, maximum = 1.5)]
    ratio: Option<f64>,
    single: Option<f32>,
    flag: Option<bool>,
    #[elicit(default = Color::Blue)]
    color: Color,
    hex: Option<HexColor>,
    #[elicit(min_items = 1, max_items = 2)]
    picks: Vec<HexColor>,
    set: Option<BTreeSet<Color>>,
}

fn contents() -> Vec<Value> {
    let base = json!({"shortWord": "abé", "picks": ["#FF0000"]});
    let mut all = vec![json!({}), base.clone()];
    let variations = [
        ("shortWord", json!("a")),
        ("shortWord", json!("abcde")),
        ("shortWord", json!("ABC")),
        ("shortWord", json!(3)),
        ("shortWord", Value::Null),
        ("email", json!("octocat@github.com")),
        ("email", json!("octocat")),
        ("email", Value::Null),
        ("day", json!("2024-02-29")),
        ("day", json!("2023-02-29")),
        ("age", json!(18)),
        ("age", json!(17)),
        ("age", json!(256)),
        ("age", json!(30.0)),
        ("age", json!(30.5)),
        ("age", json!("30")),
        ("big", json!(9_007_199_254_740_991_u64)),
        ("big", json!(9_007_199_254_740_992_u64)),
        ("big", json!(-1)),
        ("big", json!(1e20)),
        ("ratio", json!(1.5)),
        ("ratio", json!(1.50001)),
        ("ratio", json!(-2)),
        ("single", json!(1e39)),
        ("single", json!(-1e38)),
        ("flag", json!(true)),
        ("flag", json!(0)),
        ("color", json!("Green")),
        ("color", json!("green")),
        ("color", Value::Null),
        ("hex", json!("#00FF00")),
        ("hex", json!("Green")),
        ("picks", json!([])),
        ("picks", json!(["#FF0000", "#00FF00"])),
        ("picks", json!(["#FF0000", "#00FF00", "#0000FF"])),
        ("picks", json!(["#FF0000", "#FF0000"])),
        ("picks", json!(["#FF0000", null])),
        ("picks", json!("#FF0000")),
        ("set", json!(["Red", "Blue"])),
        ("set", json!(["Red", "Red"])),
        ("set", json!([{}])),
        ("unknown", json!({"any": "thing"})),
    ];
    for (key, value) in variations {
        let mut c = base.clone();
        c[key] = value;
        all.push(c);
    }
    // Several faults at once.
    all.push(json!({"shortWord": "", "age": 5, "picks": [], "hex": 1, "day": "tomorrow"}));
    all
}

#[test]
fn validate_content_agrees_with_from_content() {
    check_schema::<Everything>();
    let emitted = Everything::requested_schema();
    // The same schema read from its text by a client: owned data, same checks.
    let received: RequestedSchema =
        serde_json::from_str(Everything::requested_schema_json()).unwrap();
    let mut accepted = 0;
    for value in contents() {
        let c = content(value.clone());
        let derived = Everything::from_content(&c).map(drop);
        assert_eq!(
            emitted.validate_content(&c),
            derived,
            "emitted schema on {value}"
        );
        assert_eq!(
            received.validate_content(&c),
            derived,
            "received schema on {value}"
        );
        accepted += usize::from(derived.is_ok());
    }
    // Both sides of the table are exercised.
    assert!(accepted >= 10, "only {accepted} contents accepted");
    assert!(contents().len() - accepted >= 20);
}

#[test]
fn apply_defaults_then_validate_matches_the_derived_defaults() {
    let schema = Everything::requested_schema();
    let mut c = content(json!({"shortWord": "abc", "picks": ["#0000FF"]}));
    assert_eq!(schema.apply_defaults(&mut c), ["color"]);
    assert_eq!(c["color"], "Blue");
    assert!(schema.validate_content(&c).is_ok());
    assert_eq!(Everything::from_content(&c).unwrap().color, Color::Blue);
}

#[test]
fn validate_content_of_a_peer_schema_with_a_bad_pattern() {
    // The derive proves patterns compile; a peer's schema may carry one that does not.
    let schema =
        read(&json!({"type": "object", "properties": {"p": {"type": "string", "pattern": "("}}}));
    let error = schema
        .validate_content(&content(json!({"p": "x"})))
        .unwrap_err();
    assert!(matches!(
        error.errors()[0].problem(),
        elicit_mcp::Problem::InvalidPattern { .. }
    ));
    // Absent, the field is not checked at all.
    assert!(schema.validate_content(&Map::new()).is_ok());
}

/// `Everything`, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does, and `validate_content` says what `from_content` says
/// (`elicit_test_support::differential`).
#[test]
fn everything_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Everything);
}
