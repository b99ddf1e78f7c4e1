//! The conversions between elicit's model and rmcp's, in both directions, for every schema
//! variant; rmcp's own schema parser and `ElicitationSchema::from_type` (through the
//! `schemars::JsonSchema` the derive implements) as independent checks of the derived schemas;
//! and the refusals where rmcp's model cannot carry a value.

use elicit_mcp::Elicit;
use elicit_mcp::rmcp::UnrepresentableError;
use elicit_mcp::schema::{PrimitiveSchema, RequestedSchema};
use elicit_mcp::wire::ElicitRequestFormParams;
use elicit_mcp::wire::{
    ElicitAction, ElicitRequestParams, ElicitResult, ElicitationCapability,
    ElicitationCompleteNotification, ElicitationId, JsonRpcError, UrlElicitationRequiredError,
};
use rmcp::model as sdk;
use serde_json::{Value, json};

/// Whether two JSON values are the same document: numbers compare by value (rmcp writes a
/// `number` schema's `30` as `30.0`), everything else exactly, object keys in any order.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

#[track_caller]
fn assert_same_json(a: &Value, b: &Value) {
    assert!(same_json(a, b), "not the same JSON:\n  {a}\n  {b}");
}

/// Which of rmcp's variants a property landed in, by name.
fn sdk_variant(definition: &sdk::PrimitiveSchemaDefinition) -> &'static str {
    use sdk::{
        EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition as Def, SingleSelectEnumSchema,
    };
    match definition {
        Def::String(_) => "string",
        Def::Number(_) => "number",
        Def::Integer(_) => "integer",
        Def::Boolean(_) => "boolean",
        Def::Enum(EnumSchema::Single(SingleSelectEnumSchema::Untitled(_))) => "untitled single",
        Def::Enum(EnumSchema::Single(SingleSelectEnumSchema::Titled(_))) => "titled single",
        Def::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Untitled(_))) => "untitled multi",
        Def::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Titled(_))) => "titled multi",
        Def::Enum(EnumSchema::Legacy(_)) => "legacy",
        _ => "unknown",
    }
}

fn elicit_variant(schema: &PrimitiveSchema) -> &'static str {
    match schema {
        PrimitiveSchema::String(_) => "string",
        PrimitiveSchema::Number(n) if n.kind == elicit_mcp::schema::NumberType::Integer => {
            "integer"
        }
        PrimitiveSchema::Number(_) => "number",
        PrimitiveSchema::Boolean(_) => "boolean",
        PrimitiveSchema::SingleSelect(_) => "untitled single",
        PrimitiveSchema::TitledSingleSelect(_) => "titled single",
        PrimitiveSchema::MultiSelect(_) => "untitled multi",
        PrimitiveSchema::TitledMultiSelect(_) => "titled multi",
        PrimitiveSchema::LegacyTitled(_) => "legacy",
        // Mirrors the `_` of `rmcp_variant`: a later variant matches neither model's names.
        _ => "unknown (ours)",
    }
}

/// One schema per variant, every keyword of the variant set, with the variant both models
/// must read it as.
fn every_variant() -> Vec<(&'static str, Value)> {
    let one = |name: &str, property: Value, required: bool| {
        let mut schema = json!({"type": "object", "properties": {name: property}});
        if required {
            schema["required"] = json!([name]);
        }
        schema
    };
    vec![
        (
            "string",
            one(
                "name",
                json!({"type": "string", "title": "Display Name",
            "description": "Description text", "minLength": 3, "maxLength": 50,
            "format": "email", "default": "user@example.com"}),
                true,
            ),
        ),
        (
            "string",
            one("day", json!({"type": "string", "format": "date"}), false),
        ),
        (
            "string",
            one(
                "at",
                json!({"type": "string", "format": "date-time"}),
                false,
            ),
        ),
        (
            "string",
            one("site", json!({"type": "string", "format": "uri"}), false),
        ),
        (
            "number",
            one(
                "score",
                json!({"type": "number", "title": "Score",
            "description": "0 to 100", "minimum": 0, "maximum": 100.5, "default": 95.5}),
                true,
            ),
        ),
        (
            "integer",
            one(
                "age",
                json!({"type": "integer", "title": "Age",
            "description": "years", "minimum": 18, "maximum": 120, "default": 30}),
                false,
            ),
        ),
        (
            "boolean",
            one(
                "verified",
                json!({"type": "boolean", "title": "Verified",
            "description": "checked", "default": true}),
                false,
            ),
        ),
        (
            "untitled single",
            one(
                "status",
                json!({"type": "string", "title": "Status",
            "description": "pick one", "enum": ["active", "inactive", "pending"],
            "default": "active"}),
                true,
            ),
        ),
        (
            "titled single",
            one(
                "color",
                json!({"type": "string", "title": "Color",
            "description": "pick one", "oneOf": [{"const": "#FF0000", "title": "Red"},
            {"const": "#00FF00", "title": "Green"}], "default": "#00FF00"}),
                true,
            ),
        ),
        (
            "untitled multi",
            one(
                "tags",
                json!({"type": "array", "title": "Tags",
            "description": "pick some", "minItems": 1, "maxItems": 2,
            "items": {"type": "string", "enum": ["a", "b", "c"]}, "default": ["a"]}),
                true,
            ),
        ),
        (
            "titled multi",
            one(
                "colors",
                json!({"type": "array", "title": "Colors",
            "description": "pick some", "minItems": 1, "maxItems": 2,
            "items": {"anyOf": [{"const": "#FF0000", "title": "Red"},
            {"const": "#00FF00", "title": "Green"}]}, "default": ["#FF0000"]}),
                false,
            ),
        ),
        (
            "legacy",
            one(
                "size",
                json!({"type": "string", "title": "Size",
            "description": "deprecated titles", "enum": ["s", "m", "l"],
            "enumNames": ["Small", "Medium", "Large"], "default": "m"}),
                true,
            ),
        ),
    ]
}

#[test]
fn every_variant_converts_from_elicit_to_rmcp_and_back() {
    for (variant, json) in every_variant() {
        let ours: RequestedSchema = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(
            elicit_variant(&ours.properties()[0].schema),
            variant,
            "{json}"
        );

        let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
        let definition = theirs.properties.values().next().unwrap();
        assert_eq!(sdk_variant(definition), variant, "{json}");
        // rmcp writes what elicit writes.
        assert_same_json(&serde_json::to_value(&theirs).unwrap(), &json);

        let back = RequestedSchema::try_from(&theirs).unwrap();
        assert_eq!(back, ours, "{variant}");
    }
}

#[test]
fn every_variant_converts_from_rmcp_to_elicit_and_back() {
    for (variant, json) in every_variant() {
        // rmcp's own parser is the independent reading of the same document.
        let theirs: sdk::ElicitationSchema = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(
            sdk_variant(theirs.properties.values().next().unwrap()),
            variant
        );

        let ours = RequestedSchema::try_from(&theirs).unwrap();
        assert_eq!(
            ours,
            serde_json::from_value::<RequestedSchema>(json.clone()).unwrap()
        );

        let back = sdk::ElicitationSchema::try_from(&ours).unwrap();
        assert_eq!(back.properties, theirs.properties, "{variant}");
        assert_eq!(back.required, theirs.required, "{variant}");
        assert_same_json(&serde_json::to_value(&back).unwrap(), &json);
    }
}

#[test]
fn property_order_survives_both_directions() {
    let text = r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"},"mid":{"type":"integer"}},"required":["mid","zeta"]}"#;
    let ours: RequestedSchema = serde_json::from_str(text).unwrap();
    let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
    assert_eq!(
        serde_json::to_string(&theirs).unwrap(),
        r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"},"mid":{"type":"integer"}},"required":["zeta","mid"]}"#,
        "rmcp sends the properties in elicit's order; `required` is a set, listed in property order"
    );
    let from_rmcp: sdk::ElicitationSchema = serde_json::from_str(text).unwrap();
    let names: Vec<String> = RequestedSchema::try_from(&from_rmcp)
        .unwrap()
        .properties()
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
}

#[test]
fn outer_keywords_convert_both_ways() {
    let json = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
        "title": "Contact", "description": "How to reach you",
        "properties": {"email": {"type": "string", "format": "email"}}, "required": ["email"]});
    let ours: RequestedSchema = serde_json::from_value(json.clone()).unwrap();
    let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
    assert_same_json(&serde_json::to_value(&theirs).unwrap(), &json);
    assert_eq!(RequestedSchema::try_from(&theirs).unwrap(), ours);
}

#[test]
fn rmcp_schemas_outside_the_subset_are_refused_with_the_property() {
    // rmcp accepts a `required` name that is no property; elicit's checks do not.
    let theirs: sdk::ElicitationSchema = serde_json::from_value(json!({"type": "object",
        "properties": {"name": {"type": "string"}}, "required": ["name", "ghost"]}))
    .unwrap();
    let err = RequestedSchema::try_from(&theirs).unwrap_err();
    assert_eq!(err.property(), Some("ghost"));

    let theirs: sdk::ElicitationSchema = serde_json::from_value(json!({"type": "object",
        "properties": {"size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small"]}}}))
    .unwrap();
    let err = RequestedSchema::try_from(&theirs).unwrap_err();
    assert_eq!(
        (err.property(), err.keyword()),
        (Some("size"), Some("enumNames"))
    );
}

#[test]
fn what_rmcp_cannot_carry_is_refused_not_dropped() {
    let refused = |json: Value| -> UnrepresentableError {
        let ours: RequestedSchema = serde_json::from_value(json).unwrap();
        sdk::ElicitationSchema::try_from(&ours).unwrap_err()
    };
    let err = refused(json!({"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"}}}));
    assert_eq!(err.property(), Some("code"));
    assert!(err.reason().contains("pattern"), "{err}");

    let err = refused(json!({"type": "object", "properties": {
        "bio": {"type": "string", "maxLength": 5_000_000_000u64}}}));
    assert!(err.reason().contains("maxLength"), "{err}");

    let err = refused(json!({"type": "object", "properties": {
        "big": {"type": "number", "maximum": 1_152_921_504_606_846_976i64}}}));
    assert!(err.reason().contains("maximum"), "{err}");

    let err = refused(json!({"type": "object", "properties": {
        "count": {"type": "integer", "minimum": 1.5}}}));
    assert!(err.reason().contains("minimum"), "{err}");

    // A whole number written as a float is an integer rmcp holds exactly.
    let ours: RequestedSchema = serde_json::from_value(json!({"type": "object", "properties": {
        "count": {"type": "integer", "minimum": 2.0}}}))
    .unwrap();
    let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
    assert_eq!(
        serde_json::to_value(&theirs).unwrap()["properties"]["count"]["minimum"],
        2
    );
}

// ---------------------------------------------------------------------------------------------
// The derived corpus

#[derive(Elicit, Debug)]
#[elicit(message = "Tell us about you", rename_all = "camelCase")]
#[allow(dead_code)]
struct Profile {
    /// Your full name
    #[elicit(title = "Name", min_length = 1, max_length = 50, default = "John Doe")]
    full_name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "date")]
    birthday: Option<String>,
    #[elicit(format = "date-time")]
    available_from: Option<String>,
    #[elicit(format = "uri")]
    website: Option<String>,
    #[elicit(minimum = 18, default = 30)]
    age: u8,
    big: u64,
    offset: i32,
    #[elicit(minimum = 0.0, maximum = 100.0, default = 95.5)]
    score: f64,
    ratio: f32,
    #[elicit(default = true)]
    verified: bool,
    #[elicit(default = Status::Active)]
    status: Status,
    color: Option<Color>,
    #[elicit(min_items = 1, max_items = 2, default = [Status::Active])]
    statuses: Vec<Status>,
    colors: Option<Vec<Color>>,
}

#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

#[derive(Elicit, Debug, PartialEq)]
enum Color {
    #[elicit(rename = "#FF0000", title = "Red")]
    Red,
    #[elicit(rename = "#00FF00", title = "Green")]
    Green,
}

/// The conformance suite's three forms.
#[derive(Elicit, Debug)]
#[elicit(message = "Please provide your information")]
#[allow(dead_code)]
struct Conformance {
    username: String,
    #[elicit(format = "email")]
    email: String,
}

#[derive(Elicit, Debug)]
#[allow(dead_code)]
struct Defaults {
    #[elicit(default = "John Doe")]
    name: String,
    #[elicit(default = 30)]
    age: i64,
    #[elicit(default = 95.5)]
    score: f64,
    #[elicit(default = Status::Active)]
    status: Status,
    #[elicit(default = true)]
    verified: bool,
}

#[derive(Elicit, Debug)]
#[allow(dead_code)]
struct Generic<T> {
    value: T,
    note: Option<String>,
}

/// Every derived form of the corpus: its schema JSON and rmcp's `from_type` of it.
fn corpus() -> Vec<(
    &'static str,
    &'static str,
    Result<sdk::ElicitationSchema, serde_json::Error>,
)> {
    fn entry<T: Elicit + schemars::JsonSchema>() -> (
        &'static str,
        &'static str,
        Result<sdk::ElicitationSchema, serde_json::Error>,
    ) {
        (
            std::any::type_name::<T>(),
            T::requested_schema_json(),
            sdk::ElicitationSchema::from_type::<T>(),
        )
    }
    vec![
        entry::<Profile>(),
        entry::<Conformance>(),
        entry::<Defaults>(),
        entry::<Generic<u16>>(),
        entry::<Generic<Vec<Color>>>(),
    ]
}

#[test]
fn rmcp_from_type_accepts_every_derived_form_with_the_same_schema() {
    for (name, ours, from_type) in corpus() {
        let theirs = from_type.unwrap_or_else(|e| panic!("{name}: rmcp refused the schema: {e}"));
        let mut theirs = serde_json::to_value(&theirs).unwrap();
        // A root schema of schemars carries the dialect and a title naming the type.
        let object = theirs.as_object_mut().unwrap();
        assert_eq!(
            object.remove("$schema"),
            Some(json!("http://json-schema.org/draft-07/schema#"))
        );
        assert!(
            object
                .remove("title")
                .is_some_and(|t| name.contains(t.as_str().unwrap()))
        );
        assert_same_json(&theirs, &serde_json::from_str(ours).unwrap());
    }
}

#[test]
fn rmcp_parses_every_derived_schema_as_the_same_document() {
    for (name, ours, _) in corpus() {
        let theirs: sdk::ElicitationSchema = serde_json::from_str(ours)
            .unwrap_or_else(|e| panic!("{name}: rmcp's parser refused the schema: {e}"));
        assert_same_json(
            &serde_json::to_value(&theirs).unwrap(),
            &serde_json::from_str(ours).unwrap(),
        );
        // The converted schema is the one rmcp parses.
        let schema: RequestedSchema = serde_json::from_str(ours).unwrap();
        let converted = sdk::ElicitationSchema::try_from(&schema).unwrap();
        assert_eq!(converted.properties, theirs.properties, "{name}");
        assert_eq!(converted.property_order, theirs.property_order, "{name}");
    }
}

#[test]
fn an_optional_enum_keeps_its_choices_where_rmcp_own_path_loses_them() {
    // The derived schema keeps an `Option<enum>`'s choices, through rmcp's from_type too.
    let schema = sdk::ElicitationSchema::from_type::<Profile>().unwrap();
    let color = serde_json::to_value(&schema.properties["color"]).unwrap();
    assert_eq!(
        color["oneOf"][1],
        json!({"const": "#00FF00", "title": "Green"})
    );

    // rmcp's own path, on the same field derived with schemars (inlined: rmcp's model cannot
    // follow a `$ref` at all), silently makes it a free-text string.
    #[derive(schemars::JsonSchema)]
    #[schemars(inline)]
    #[allow(dead_code)]
    enum Shade {
        Red,
        Green,
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Theirs {
        shade: Option<Shade>,
    }
    let theirs = sdk::ElicitationSchema::from_type::<Theirs>().unwrap();
    assert_eq!(
        serde_json::to_value(&theirs.properties["shade"]).unwrap(),
        json!({"type": "string"})
    );
}

#[test]
fn schemars_sees_the_derived_schema() {
    let schema = schemars::schema_for!(Profile);
    let mut value = serde_json::to_value(&schema).unwrap();
    let object = value.as_object_mut().unwrap();
    assert_eq!(object.remove("title"), Some(json!("Profile")));
    assert!(object.remove("$schema").is_some());
    assert_eq!(
        value,
        serde_json::from_str::<Value>(Profile::requested_schema_json()).unwrap()
    );

    // Titled by default: each title, made from the variant's name, is not its value.
    let status_options = json!([
        {"const": "active", "title": "Active"},
        {"const": "inactive", "title": "Inactive"},
        {"const": "pending", "title": "Pending"}
    ]);
    assert_eq!(
        serde_json::to_value(schemars::schema_for!(Status)).unwrap()["oneOf"],
        status_options
    );
    assert_eq!(
        serde_json::to_value(schemars::schema_for!(Color)).unwrap()["oneOf"],
        json!([{"const": "#FF0000", "title": "Red"}, {"const": "#00FF00", "title": "Green"}])
    );
    // Each instantiation of a generic form is its own schema.
    assert_ne!(
        <Generic<u16> as schemars::JsonSchema>::schema_id(),
        <Generic<bool> as schemars::JsonSchema>::schema_id()
    );
}

#[test]
fn a_derived_enum_used_in_a_schemars_type_gives_its_choices() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Order {
        status: Status,
    }
    let schema = serde_json::to_value(schemars::schema_for!(Order)).unwrap();
    let reference = schema["properties"]["status"]["$ref"].as_str().unwrap();
    let name = reference.rsplit('/').next().unwrap();
    assert_eq!(
        schema["$defs"][name]["oneOf"],
        json!([
            {"const": "active", "title": "Active"},
            {"const": "inactive", "title": "Inactive"},
            {"const": "pending", "title": "Pending"}
        ])
    );
}

// ---------------------------------------------------------------------------------------------
// Params, result, capability, error, notification

#[test]
fn form_params_convert_both_ways_with_meta() {
    let mut meta = serde_json::Map::new();
    meta.insert("trace".to_owned(), json!("abc"));
    let ours = Conformance::form_request().with_meta(meta);
    let theirs = sdk::ElicitRequestParams::try_from(&ours).unwrap();
    assert_same_json(
        &serde_json::to_value(&theirs).unwrap(),
        &serde_json::to_value(&ours).unwrap(),
    );
    let back = ElicitRequestParams::try_from(&theirs).unwrap();
    assert_eq!(back, ElicitRequestParams::Form(ours));
}

#[test]
fn url_params_convert_both_ways() {
    let wire = json!({"mode": "url", "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
        "url": "https://mcp.example.com/ui/set_api_key",
        "message": "Please provide your API key to continue.", "_meta": {"k": 1}});
    let ours: ElicitRequestParams = serde_json::from_value(wire.clone()).unwrap();
    let theirs = sdk::ElicitRequestParams::try_from(&ours).unwrap();
    assert_eq!(serde_json::to_value(&theirs).unwrap(), wire);
    assert_eq!(ElicitRequestParams::try_from(&theirs).unwrap(), ours);

    let theirs: sdk::ElicitRequestParams = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(ElicitRequestParams::try_from(&theirs).unwrap(), ours);
}

#[test]
fn a_form_whose_schema_rmcp_cannot_carry_is_refused_as_params() {
    #[derive(Elicit)]
    #[allow(dead_code)]
    struct Voucher {
        #[elicit(pattern = "^[A-Z]{2}[0-9]{3}$")]
        code: String,
    }
    elicit_test_support::agree_with_jsonschema!(Voucher);
    let params = ElicitRequestFormParams::new("Voucher?", Voucher::requested_schema());
    let err = sdk::ElicitRequestParams::try_from(&params).unwrap_err();
    assert_eq!(err.property(), Some("code"));
}

#[test]
fn an_rmcp_form_outside_the_subset_is_invalid_params_for_the_client() {
    let theirs: sdk::ElicitRequestParams = serde_json::from_value(json!({"mode": "form",
        "message": "m", "requestedSchema": {"type": "object",
        "properties": {"a": {"type": "string"}}, "required": ["b"]}}))
    .unwrap();
    let err = ElicitRequestParams::try_from(&theirs).unwrap_err();
    let error = sdk::ErrorData::from(err);
    assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
    assert_eq!(
        error.data,
        Some(json!({"property": "b", "keyword": "required"}))
    );
}

#[test]
fn results_convert_both_ways() {
    let with_meta: ElicitResult = serde_json::from_value(json!({"action": "accept",
        "content": {"name": "octocat", "n": 3, "tags": ["a"]}, "_meta": {"k": true}}))
    .unwrap();
    for ours in [
        with_meta,
        ElicitResult::decline(),
        ElicitResult::cancel(),
        ElicitResult::accept_url(),
    ] {
        let theirs = rmcp::model::ElicitResult::from(&ours);
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(&ours).unwrap()
        );
        assert_eq!(ElicitResult::try_from(&theirs).unwrap(), ours);
    }

    let null_content =
        sdk::ElicitResult::new(sdk::ElicitationAction::Accept).with_content(Value::Null);
    assert_eq!(ElicitResult::try_from(&null_content).unwrap().content, None);
    let not_an_object =
        sdk::ElicitResult::new(sdk::ElicitationAction::Accept).with_content(json!([1]));
    assert!(
        ElicitResult::try_from(&not_an_object)
            .unwrap_err()
            .to_string()
            .contains("object")
    );
    assert_eq!(
        ElicitResult::try_from(&sdk::ElicitResult::new(sdk::ElicitationAction::Decline))
            .unwrap()
            .action,
        ElicitAction::Decline
    );
}

#[test]
fn capabilities_convert_both_ways() {
    for wire in [
        json!({}),
        json!({"form": {}}),
        json!({"url": {}}),
        json!({"form": {}, "url": {}}),
        json!({"form": {"schemaValidation": true}, "url": {}}),
    ] {
        let ours: ElicitationCapability = serde_json::from_value(wire.clone()).unwrap();
        let theirs = sdk::ElicitationCapability::try_from(&ours).unwrap();
        assert_eq!(serde_json::to_value(&theirs).unwrap(), wire);
        assert_eq!(ElicitationCapability::from(&theirs), ours);
        for mode in [
            elicit_mcp::wire::ElicitMode::Form,
            elicit_mcp::wire::ElicitMode::Url,
        ] {
            assert_eq!(
                ElicitationCapability::from(&theirs).supports(mode),
                ours.supports(mode)
            );
        }
    }
    for lossy in [
        json!({"form": {}, "sampling": {}}),
        json!({"form": {"x": 1}}),
        json!({"url": {"x": 1}}),
        json!({"form": {"schemaValidation": "yes"}}),
    ] {
        let ours: ElicitationCapability = serde_json::from_value(lossy.clone()).unwrap();
        assert!(
            sdk::ElicitationCapability::try_from(&ours).is_err(),
            "{lossy}"
        );
    }

    let caps = sdk::ClientCapabilities::builder()
        .enable_elicitation()
        .build();
    assert!(
        ElicitationCapability::from(caps.elicitation.as_ref().unwrap())
            .supports(elicit_mcp::wire::ElicitMode::Form)
    );
    assert_eq!(sdk::ClientCapabilities::default().elicitation, None);
}

#[test]
fn url_elicitation_required_is_the_spec_error() {
    // The spec's own example, as rmcp sends it back to the client.
    let spec = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32042,
        "message": "This request requires more information.",
        "data": {"elicitations": [{"mode": "url",
            "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
            "url": "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
            "message": "Authorization is required to access your Example Co files."}]}}});
    let ours: UrlElicitationRequiredError = serde_json::from_value(spec["error"].clone()).unwrap();
    let error = sdk::ErrorData::from(&ours);
    let message = sdk::ServerJsonRpcMessage::error(error.clone(), Some(sdk::RequestId::Number(2)));
    assert_eq!(serde_json::to_value(&message).unwrap(), spec);
    assert_eq!(UrlElicitationRequiredError::try_from(&error).unwrap(), ours);

    let other = sdk::ErrorData::invalid_params("nope", None);
    assert!(UrlElicitationRequiredError::try_from(&other).is_err());
    let ours_as_rpc = JsonRpcError::from(&error);
    assert_eq!(sdk::ErrorData::from(&ours_as_rpc), error);
    // Every JSON-RPC code fits the i32 both models hold; a wider one is refused on reading.
    let wide = serde_json::from_value::<JsonRpcError>(json!({"code": 1i64 << 40, "message": "m"}));
    assert!(
        wide.unwrap_err().to_string().contains("i32"),
        "a code past i32"
    );
}

#[test]
fn completion_notification_is_the_spec_notification() {
    let spec = json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
        "params": {"elicitationId": "550e8400-e29b-41d4-a716-446655440000"}});
    let ours = ElicitationCompleteNotification::new(ElicitationId::new(
        "550e8400-e29b-41d4-a716-446655440000",
    ));
    let message = sdk::ServerJsonRpcMessage::notification(sdk::ServerNotification::from(&ours));
    assert_eq!(serde_json::to_value(&message).unwrap(), spec);

    // What an rmcp client reads it as, and back.
    let received: sdk::ServerJsonRpcMessage = serde_json::from_value(spec).unwrap();
    let sdk::ServerJsonRpcMessage::Notification(notification) = received else {
        panic!("not read as a notification")
    };
    let sdk::ServerNotification::CustomNotification(custom) = notification.notification else {
        panic!("rmcp has a type for it after all")
    };
    assert_eq!(
        ElicitationCompleteNotification::try_from(&custom).unwrap(),
        ours
    );

    let other =
        sdk::CustomNotification::new("notifications/other", Some(json!({"elicitationId": "x"})));
    assert!(ElicitationCompleteNotification::try_from(&other).is_err());
    let no_id =
        sdk::CustomNotification::new(ElicitationCompleteNotification::METHOD, Some(json!({})));
    assert!(ElicitationCompleteNotification::try_from(&no_id).is_err());
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(
        Profile,
        Conformance,
        Defaults,
        Generic<u16>,
        Generic<Vec<Color>>
    );
}
