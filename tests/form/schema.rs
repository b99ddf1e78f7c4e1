//! The schemas `#[derive(Elicit)]` emits: golden tests against the spec's own examples, the
//! form request params, and the type mapping (integers and their ranges, floats, options,
//! selects, formats, order, renames, skip, defaults, generics, aliases, escapes).
//!
//! Every derived type goes through `support::forms::check_schema`: its JSON text equals
//! `serde_json::to_string` of the typed schema byte for byte, it validates against the spec's
//! `requestedSchema` definition, and it reads back as itself.

// Most forms here are only asked for, never read: their fields are unused by design.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

use elicit_mcp::schema::{PrimitiveSchema, RequestedSchema};
use elicit_mcp::{Elicit, HasMessage};
use elicit_test_support as support;
use elicit_test_support::forms::{Color, HexColor, check_schema, check_schemas};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// The spec's examples.

/// "Example: Simple Text Request". The spec's example gives its property no title, so the
/// form opts out of the titles the derive makes (`untitled`) to be that text exactly.
#[derive(Elicit)]
#[elicit(message = "Please provide your GitHub username", untitled)]
struct GitHubUsername {
    name: String,
}

/// "Example: Structured Data Request". The spec types `age` as `number`, so it is an `f64`;
/// `ContactInfoU8` below shows what an integer type emits instead. Untitled, as the spec's
/// example is.
#[derive(Elicit)]
#[elicit(message = "Please provide your contact information", untitled)]
struct ContactInfo {
    /// Your full name
    name: String,
    /// Your email address
    #[elicit(format = "email")]
    email: String,
    /// Your age
    #[elicit(minimum = 18)]
    age: Option<f64>,
}

#[derive(Elicit)]
struct ContactInfoU8 {
    /// Your age
    #[elicit(minimum = 18)]
    age: Option<u8>,
}

/// "Single-select enum (without titles)".
#[derive(Elicit)]
struct UntitledSingle {
    /// Choose your favorite color
    #[elicit(title = "Color Selection", default = Color::Red)]
    color: Color,
}

/// "Single-select enum (with titles)".
#[derive(Elicit)]
struct TitledSingle {
    /// Choose your favorite color
    #[elicit(title = "Color Selection", default = HexColor::Red)]
    color: HexColor,
}

/// "Multi-select enum (without titles)".
#[derive(Elicit)]
struct UntitledMulti {
    /// Choose your favorite colors
    #[elicit(title = "Color Selection", min_items = 1, max_items = 2, default = [Color::Red, Color::Green])]
    colors: Vec<Color>,
}

/// "Multi-select enum (with titles)".
#[derive(Elicit)]
struct TitledMulti {
    /// Choose your favorite colors
    #[elicit(title = "Color Selection", min_items = 1, max_items = 2, default = [HexColor::Red, HexColor::Green])]
    colors: Vec<HexColor>,
}

/// "Number Schema", with `default = 50.0` since the field is an `f64`.
#[derive(Elicit)]
struct SpecNumber {
    #[elicit(title = "Display Name", description = "Description text")]
    #[elicit(minimum = 0, maximum = 100, default = 50.0)]
    value: f64,
}

/// "Boolean Schema".
#[derive(Elicit)]
struct SpecBoolean {
    #[elicit(
        title = "Display Name",
        description = "Description text",
        default = false
    )]
    value: bool,
}

/// "String Schema", without its `pattern`: the spec's example default `user@example.com` does
/// not match its own pattern `^[A-Za-z]+$`, which the derive rightly refuses to compile.
#[derive(Elicit)]
struct SpecString {
    #[elicit(title = "Display Name", description = "Description text")]
    #[elicit(
        min_length = 3,
        max_length = 50,
        format = "email",
        default = "user@example.com"
    )]
    value: String,
}

/// One property's schema, wrapped the way a form without required fields emits it.
fn optional_form(name: &str, property: Value) -> Value {
    json!({"type": "object", "properties": {name: property}})
}

#[test]
fn simple_text_request_is_the_spec_example() {
    let spec =
        support::spec_page::spec_example("Example: Simple Text Request").value["params"].clone();
    assert_eq!(check_schema::<GitHubUsername>(), spec["requestedSchema"]);
    // The key order of the spec's example, too.
    assert_eq!(
        GitHubUsername::requested_schema_json(),
        r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#
    );
    let params = serde_json::to_value(GitHubUsername::form_request()).unwrap();
    assert_eq!(params, spec);
    support::spec::assert_valid("ElicitRequestFormParams", &params);
    assert_eq!(
        GitHubUsername::MESSAGE,
        "Please provide your GitHub username"
    );
}

#[test]
fn structured_data_request_is_the_spec_example() {
    let spec = support::spec_page::spec_example("Example: Structured Data Request").value["params"]
        .clone();
    assert_eq!(check_schema::<ContactInfo>(), spec["requestedSchema"]);
    let params = serde_json::to_value(ContactInfo::form_request()).unwrap();
    assert_eq!(params, spec);
    support::spec::assert_valid("ElicitRequestFormParams", &params);
    // `minimum = 18` stays the integer 18 on the wire, not 18.0.
    assert!(ContactInfo::requested_schema_json().contains(r#""minimum":18}"#));

    // The same form with an integer type: integer, with the type's maximum.
    assert_eq!(
        check_schema::<ContactInfoU8>(),
        optional_form(
            "age",
            json!({"type": "integer", "title": "Age", "description": "Your age", "minimum": 18, "maximum": 255})
        )
    );
}

#[test]
fn form_request_with_overrides_the_message() {
    let params =
        serde_json::to_value(ContactInfoU8::form_request_with_message("How old are you?")).unwrap();
    assert_eq!(
        params,
        json!({
            "mode": "form",
            "message": "How old are you?",
            "requestedSchema": check_schema::<ContactInfoU8>(),
        })
    );
    support::spec::assert_valid("ElicitRequestFormParams", &params);
}

#[test]
fn untitled_single_select_is_the_spec_example() {
    let spec = support::spec_page::spec_example("Single-select enum (without titles)").value;
    assert_eq!(
        check_schema::<UntitledSingle>(),
        optional_form("color", spec)
    );
}

#[test]
fn titled_single_select_is_the_spec_example() {
    let spec = support::spec_page::spec_example("Single-select enum (with titles)").value;
    assert_eq!(check_schema::<TitledSingle>(), optional_form("color", spec));
}

#[test]
fn untitled_multi_select_is_the_spec_example() {
    let spec = support::spec_page::spec_example("Multi-select enum (without titles)").value;
    assert_eq!(
        check_schema::<UntitledMulti>(),
        optional_form("colors", spec)
    );
}

#[test]
fn titled_multi_select_is_the_spec_example() {
    let spec = support::spec_page::spec_example("Multi-select enum (with titles)").value;
    assert_eq!(check_schema::<TitledMulti>(), optional_form("colors", spec));
}

#[test]
fn primitive_examples_of_the_spec() {
    // The field is an `f64`, so its default is written as a float: `50.0` where the spec's
    // example writes `50`, the same JSON number.
    let mut number = support::spec_page::spec_example("**Number Schema**").value;
    assert_eq!(number["default"], json!(50));
    number["default"] = json!(50.0);
    assert_eq!(check_schema::<SpecNumber>(), optional_form("value", number));

    let boolean = support::spec_page::spec_example("**Boolean Schema**").value;
    assert_eq!(
        check_schema::<SpecBoolean>(),
        optional_form("value", boolean)
    );

    // Without the example's pattern, which its own default does not match (see `SpecString`).
    let mut string = support::spec_page::spec_example("**String Schema**").value;
    assert_eq!(string["pattern"], "^[A-Za-z]+$");
    string.as_object_mut().unwrap().remove("pattern");
    assert_eq!(check_schema::<SpecString>(), optional_form("value", string));
}

// ---------------------------------------------------------------------------------------------
// Type mapping.

#[derive(Elicit)]
struct Integers {
    a_u8: u8,
    a_u16: u16,
    a_u32: u32,
    a_u64: u64,
    a_u128: u128,
    a_usize: usize,
    a_i8: i8,
    a_i16: i16,
    a_i32: i32,
    a_i64: i64,
    a_i128: i128,
    a_isize: isize,
}

#[test]
fn every_integer_type_has_its_range() {
    const SAFE: i64 = (1 << 53) - 1;
    let range = |title: &str, min: i64, max: i64| json!({"type": "integer", "title": title, "minimum": min, "maximum": max});
    let schema = check_schema::<Integers>();
    let expected = [
        ("a_u8", range("A u8", 0, 255)),
        ("a_u16", range("A u16", 0, 65535)),
        ("a_u32", range("A u32", 0, 4_294_967_295)),
        // 64-bit, 128-bit and pointer-sized types: only what a JSON number holds exactly.
        ("a_u64", range("A u64", 0, SAFE)),
        ("a_u128", range("A u128", 0, SAFE)),
        ("a_usize", range("A usize", 0, SAFE)),
        ("a_i8", range("A i8", -128, 127)),
        ("a_i16", range("A i16", -32768, 32767)),
        ("a_i32", range("A i32", -2_147_483_648, 2_147_483_647)),
        ("a_i64", range("A i64", -SAFE, SAFE)),
        ("a_i128", range("A i128", -SAFE, SAFE)),
        ("a_isize", range("A isize", -SAFE, SAFE)),
    ];
    for (name, property) in &expected {
        assert_eq!(&schema["properties"][name], property, "{name}");
    }
    assert_eq!(
        schema["properties"].as_object().unwrap().len(),
        expected.len()
    );
    let names: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    assert_eq!(schema["required"], json!(names));
    assert_eq!(elicit_mcp::schema::MAX_SAFE_INTEGER, SAFE);
}

#[derive(Elicit)]
struct NarrowedIntegers {
    #[elicit(minimum = 18)]
    adult: u8,
    #[elicit(maximum = 10)]
    small: i16,
    #[elicit(minimum = -5, maximum = 5)]
    around_zero: i64,
    #[elicit(minimum = 1, maximum = 9_007_199_254_740_991)]
    positive: u64,
}

#[test]
fn integer_attributes_narrow_the_type_range() {
    let schema = check_schema::<NarrowedIntegers>();
    let p = &schema["properties"];
    assert_eq!(
        p["adult"],
        json!({"type": "integer", "title": "Adult", "minimum": 18, "maximum": 255})
    );
    assert_eq!(
        p["small"],
        json!({"type": "integer", "title": "Small", "minimum": -32768, "maximum": 10})
    );
    assert_eq!(
        p["around_zero"],
        json!({"type": "integer", "title": "Around zero", "minimum": -5, "maximum": 5})
    );
    assert_eq!(
        p["positive"],
        json!({"type": "integer", "title": "Positive", "minimum": 1, "maximum": 9_007_199_254_740_991_i64})
    );
}

#[derive(Elicit)]
struct Floats {
    single: f32,
    double: f64,
    #[elicit(minimum = -0.5, maximum = 1e10)]
    bounded: f64,
    #[elicit(minimum = 0.5)]
    half_up: f32,
    #[elicit(maximum = 3)]
    integral_bound: f64,
}

#[test]
fn floats_are_numbers() {
    let schema = check_schema::<Floats>();
    let p = &schema["properties"];
    // An f32 cannot hold every JSON number: it is bounded by ±f32::MAX, so nothing overflows.
    let f32_max = f64::from(f32::MAX);
    assert_eq!(
        p["single"],
        json!({"type": "number", "title": "Single", "minimum": -f32_max, "maximum": f32_max})
    );
    assert_eq!(p["double"], json!({"type": "number", "title": "Double"}));
    assert_eq!(
        p["bounded"],
        json!({"type": "number", "title": "Bounded", "minimum": -0.5, "maximum": 1e10})
    );
    assert_eq!(
        p["half_up"],
        json!({"type": "number", "title": "Half up", "minimum": 0.5, "maximum": f32_max})
    );
    assert_eq!(
        p["integral_bound"],
        json!({"type": "number", "title": "Integral bound", "maximum": 3})
    );
}

/// Floats past the range where JSON text is plain decimal: the derive must lay down the exact
/// text serde_json prints (`1e+300`, not ryu's `1e300`).
#[derive(Elicit)]
struct ExponentFloats {
    #[elicit(minimum = 1e-7, maximum = 1e300, default = 2.5e20)]
    wide: f64,
    #[elicit(minimum = -1.5e-10)]
    tiny: f32,
}

#[test]
fn floats_in_exponent_notation() {
    let schema = check_schema::<ExponentFloats>();
    assert_eq!(
        schema["properties"]["wide"],
        json!({"type": "number", "title": "Wide", "minimum": 1e-7, "maximum": 1e300, "default": 2.5e20})
    );
    assert_eq!(
        schema["properties"]["tiny"],
        json!({"type": "number", "title": "Tiny", "minimum": -1.5e-10, "maximum": f64::from(f32::MAX)})
    );
}

#[derive(Elicit)]
struct Scalars {
    text: String,
    flag: bool,
}

#[test]
fn strings_and_booleans() {
    assert_eq!(
        check_schema::<Scalars>(),
        json!({
            "type": "object",
            "properties": {
                "text": {"type": "string", "title": "Text"},
                "flag": {"type": "boolean", "title": "Flag"}
            },
            "required": ["text", "flag"]
        })
    );
}

#[derive(Elicit)]
struct Optionals {
    maybe_text: Option<String>,
    maybe_count: Option<u8>,
    maybe_ratio: Option<f32>,
    maybe_flag: Option<bool>,
    maybe_color: Option<Color>,
    maybe_hex: Option<HexColor>,
    maybe_colors: Option<Vec<Color>>,
    maybe_hexes: Option<BTreeSet<HexColor>>,
    definitely: bool,
}

#[test]
fn options_are_the_same_property_out_of_required() {
    let schema = check_schema::<Optionals>();
    let p = &schema["properties"];
    assert_eq!(
        p["maybe_text"],
        json!({"type": "string", "title": "Maybe text"})
    );
    assert_eq!(
        p["maybe_count"],
        json!({"type": "integer", "title": "Maybe count", "minimum": 0, "maximum": 255})
    );
    assert_eq!(p["maybe_ratio"]["type"], "number");
    assert_eq!(
        p["maybe_flag"],
        json!({"type": "boolean", "title": "Maybe flag"})
    );
    // An optional choice keeps its choices.
    assert_eq!(
        p["maybe_color"],
        json!({"type": "string", "title": "Maybe color", "enum": ["Red", "Green", "Blue"]})
    );
    assert_eq!(
        p["maybe_hex"]["oneOf"][1],
        json!({"const": "#00FF00", "title": "Green"})
    );
    assert_eq!(
        p["maybe_colors"],
        json!({"type": "array", "title": "Maybe colors", "items": {"type": "string", "enum": ["Red", "Green", "Blue"]}})
    );
    assert_eq!(p["maybe_hexes"]["items"]["anyOf"][2]["const"], "#0000FF");
    assert_eq!(schema["required"], json!(["definitely"]));
}

#[derive(Elicit)]
struct AllOptional {
    a: Option<String>,
    b: Option<u8>,
}

#[test]
fn a_form_without_required_fields_has_no_required_list() {
    // An empty `required` is legal JSON Schema but the spec's examples leave it out.
    assert_eq!(
        check_schema::<AllOptional>(),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "string", "title": "A"},
                "b": {"type": "integer", "title": "B", "minimum": 0, "maximum": 255}
            }
        })
    );
}

#[derive(Elicit)]
struct Empty {}

#[test]
fn an_empty_form() {
    assert_eq!(
        check_schema::<Empty>(),
        json!({"type": "object", "properties": {}})
    );
}

/// Doc comments on variants are documentation, not titles. The titles made from the variants'
/// names would only repeat their values, so the select stays the plain `enum` form.
#[derive(Elicit)]
enum Plan {
    /// The free tier.
    Free,
    /// The paid tier,
    /// on two lines.
    Pro,
}

/// With one title written, the select is titled; a variant without one shows the title made
/// from its name.
#[derive(Elicit)]
enum Tier {
    /// Documented and titled.
    #[elicit(title = "Basic tier")]
    Basic,
    /// Documented, not titled.
    Premium,
}

#[derive(Elicit)]
struct Selects {
    plan: Plan,
    tier: Tier,
}

#[test]
fn enums_are_plain_or_titled_and_variant_docs_do_not_break_them() {
    let schema = check_schema::<Selects>();
    assert_eq!(
        schema["properties"]["plan"],
        json!({"type": "string", "title": "Plan", "enum": ["Free", "Pro"]})
    );
    assert_eq!(
        schema["properties"]["tier"],
        json!({"type": "string", "title": "Tier", "oneOf": [
            {"const": "Basic", "title": "Basic tier"},
            {"const": "Premium", "title": "Premium"}
        ]})
    );
}

#[derive(Elicit)]
struct Collections {
    list: Vec<Color>,
    tree: BTreeSet<Color>,
    hash: HashSet<HexColor>,
    #[elicit(min_items = 1)]
    at_least_one: Vec<HexColor>,
    #[elicit(max_items = 3)]
    at_most_three: HashSet<Color>,
}

#[test]
fn vec_btreeset_and_hashset_of_enums_are_multi_selects() {
    let schema = check_schema::<Collections>();
    let p = &schema["properties"];
    let untitled_items = json!({"type": "string", "enum": ["Red", "Green", "Blue"]});
    let titled_items = json!({"anyOf": [
        {"const": "#FF0000", "title": "Red"},
        {"const": "#00FF00", "title": "Green"},
        {"const": "#0000FF", "title": "Blue"}
    ]});
    assert_eq!(
        p["list"],
        json!({"type": "array", "title": "List", "items": untitled_items})
    );
    assert_eq!(
        p["tree"],
        json!({"type": "array", "title": "Tree", "items": untitled_items})
    );
    assert_eq!(
        p["hash"],
        json!({"type": "array", "title": "Hash", "items": titled_items})
    );
    assert_eq!(
        p["at_least_one"],
        json!({"type": "array", "title": "At least one", "minItems": 1, "items": titled_items})
    );
    assert_eq!(
        p["at_most_three"],
        json!({"type": "array", "title": "At most three", "maxItems": 3, "items": untitled_items})
    );
    assert_eq!(
        schema["required"],
        json!(["list", "tree", "hash", "at_least_one", "at_most_three"])
    );
}

#[derive(Elicit)]
struct Formats {
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "uri")]
    homepage: String,
    #[elicit(format = "date")]
    birthday: String,
    #[elicit(format = "date-time")]
    meeting: Option<String>,
}

#[test]
fn string_formats() {
    let schema = check_schema::<Formats>();
    let p = &schema["properties"];
    assert_eq!(
        p["email"],
        json!({"type": "string", "title": "Email", "format": "email"})
    );
    assert_eq!(
        p["homepage"],
        json!({"type": "string", "title": "Homepage", "format": "uri"})
    );
    assert_eq!(
        p["birthday"],
        json!({"type": "string", "title": "Birthday", "format": "date"})
    );
    assert_eq!(
        p["meeting"],
        json!({"type": "string", "title": "Meeting", "format": "date-time"})
    );
}

#[derive(Elicit)]
struct Strings {
    /// Ignored: the attribute wins over the doc comment.
    #[elicit(
        title = "Code",
        description = "Letters only",
        min_length = 3,
        max_length = 50
    )]
    #[elicit(pattern = "^[A-Za-z]+$")]
    code: String,
    /// First line of the doc,
    /// continued.
    ///
    /// A second paragraph.
    documented: String,
}

#[test]
fn string_attributes_and_doc_comments() {
    let schema = check_schema::<Strings>();
    let p = &schema["properties"];
    assert_eq!(
        p["code"],
        json!({
            "type": "string",
            "title": "Code",
            "description": "Letters only",
            "minLength": 3,
            "maxLength": 50,
            "pattern": "^[A-Za-z]+$"
        })
    );
    // Lines of a paragraph are joined by spaces, paragraphs by a blank line.
    assert_eq!(
        p["documented"]["description"],
        "First line of the doc, continued.\n\nA second paragraph."
    );
}

#[derive(Elicit)]
struct Order {
    zulu: bool,
    alpha: Option<bool>,
    mike: bool,
    bravo: bool,
}

#[test]
fn properties_and_required_keep_declaration_order() {
    check_schema::<Order>();
    // Compare text: a `serde_json::Value` map would not show the order.
    assert_eq!(
        Order::requested_schema_json(),
        concat!(
            r#"{"type":"object","properties":{"zulu":{"type":"boolean","title":"Zulu"},"#,
            r#""alpha":{"type":"boolean","title":"Alpha"},"mike":{"type":"boolean","title":"Mike"},"#,
            r#""bravo":{"type":"boolean","title":"Bravo"}},"required":["zulu","mike","bravo"]}"#
        )
    );
    let names: Vec<&str> = Order::requested_schema()
        .properties()
        .iter()
        .map(|p| &*p.name)
        .collect();
    assert_eq!(names, ["zulu", "alpha", "mike", "bravo"]);
    // The client-side model keeps the sender's order too.
    let parsed: RequestedSchema = serde_json::from_str(Order::requested_schema_json()).unwrap();
    let parsed_names: Vec<&str> = parsed.properties().iter().map(|p| &*p.name).collect();
    assert_eq!(parsed_names, names);
    assert_eq!(
        parsed.required().collect::<Vec<_>>(),
        ["zulu", "mike", "bravo"]
    );
}

// ---------------------------------------------------------------------------------------------
// Wire names.

#[derive(Elicit)]
#[elicit(rename_all = "kebab-case")]
enum Size {
    ExtraSmall,
    #[elicit(rename = "M")]
    Medium,
    ExtraLarge,
}

#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Renamed {
    full_name: String,
    #[elicit(rename = "e-mail")]
    email_address: String,
    r#type: String,
    shirt_size: Size,
}

#[test]
fn rename_and_rename_all() {
    let schema = check_schema::<Renamed>();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 4);
    assert_eq!(
        schema["required"],
        json!(["fullName", "e-mail", "type", "shirtSize"])
    );
    // Titles are made from the Rust names, never from the wire names.
    let p = &schema["properties"];
    assert_eq!(p["fullName"]["title"], "Full name");
    assert_eq!(p["e-mail"]["title"], "Email address");
    assert_eq!(p["type"]["title"], "Type");
    assert_eq!(
        p["shirtSize"],
        json!({"type": "string", "title": "Shirt size", "oneOf": [
            {"const": "extra-small", "title": "Extra small"},
            {"const": "M", "title": "Medium"},
            {"const": "extra-large", "title": "Extra large"}
        ]})
    );
}

/// serde's attributes alone decide the wire names, and elicit follows them.
#[derive(Elicit, Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct SerdeRenamed {
    first_name: String,
    #[serde(rename = "zip")]
    postal_code: String,
    #[serde(rename(serialize = "ignored_when_serializing", deserialize = "wireSize"))]
    size: SerdeSize,
}

#[derive(Elicit, Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum SerdeSize {
    Small,
    #[serde(rename = "L")]
    Large,
}

#[test]
fn serde_rename_and_rename_all_are_honored() {
    let schema = check_schema::<SerdeRenamed>();
    assert_eq!(schema["required"], json!(["FIRST_NAME", "zip", "wireSize"]));
    assert_eq!(
        schema["properties"]["wireSize"],
        json!({"type": "string", "title": "Size", "oneOf": [
            {"const": "small", "title": "Small"},
            {"const": "L", "title": "Large"}
        ]})
    );
    // Content serde reads is content elicit reads, to the same value.
    let wire = json!({"FIRST_NAME": "Ada", "zip": "12345", "wireSize": "L"});
    let by_serde: SerdeRenamed = serde_json::from_value(wire.clone()).unwrap();
    let by_elicit = support::forms::parse::<SerdeRenamed>(wire).unwrap();
    assert_eq!(by_elicit, by_serde);
    assert_eq!(by_elicit.size, SerdeSize::Large);
}

/// One struct and one enum per serde rule, with serde's own output as the oracle.
macro_rules! rename_rule {
    ($rule:literal, $form:ident, $choice:ident) => {
        #[derive(Elicit, Serialize, Default)]
        #[serde(rename_all = $rule)]
        struct $form {
            user_name: bool,
            a: bool,
            html_parser2: bool,
            x_y_z: bool,
            choice: $choice,
        }

        #[derive(Elicit, Serialize, Default, Clone, Copy)]
        #[serde(rename_all = $rule)]
        #[allow(clippy::upper_case_acronyms)]
        enum $choice {
            #[default]
            UserName,
            A,
            HTMLParser,
            Version2Beta,
        }

        impl $choice {
            const ALL: [$choice; 4] = [
                $choice::UserName,
                $choice::A,
                $choice::HTMLParser,
                $choice::Version2Beta,
            ];
        }
    };
}

rename_rule!("lowercase", LowerForm, LowerChoice);
rename_rule!("UPPERCASE", UpperForm, UpperChoice);
rename_rule!("PascalCase", PascalForm, PascalChoice);
rename_rule!("camelCase", CamelForm, CamelChoice);
rename_rule!("snake_case", SnakeForm, SnakeChoice);
rename_rule!(
    "SCREAMING_SNAKE_CASE",
    ScreamingSnakeForm,
    ScreamingSnakeChoice
);
rename_rule!("kebab-case", KebabForm, KebabChoice);
rename_rule!(
    "SCREAMING-KEBAB-CASE",
    ScreamingKebabForm,
    ScreamingKebabChoice
);

fn agrees_with_serde<F: Elicit + Serialize + Default, C: elicit_mcp::ElicitChoice + Serialize>(
    all: &[C],
) {
    let schema = check_schema::<F>();
    let serde_keys: Vec<String> = match serde_json::to_value(F::default()).unwrap() {
        Value::Object(map) => map.keys().cloned().collect(),
        _ => unreachable!(),
    };
    let elicit_keys: Vec<String> = F::requested_schema()
        .properties()
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    let mut sorted = elicit_keys.clone();
    sorted.sort();
    let mut serde_sorted = serde_keys.clone();
    serde_sorted.sort();
    assert_eq!(
        sorted,
        serde_sorted,
        "field names of {}",
        std::any::type_name::<F>()
    );
    for choice in all {
        let by_serde = serde_json::to_value(choice).unwrap();
        assert_eq!(
            by_serde,
            choice.to_wire(),
            "variant of {}",
            std::any::type_name::<C>()
        );
    }
    // The labels are made from the variants' Rust names whatever the rule, so every rule's
    // select is titled (`UserName` is never "User name" on the wire).
    let choice_key = elicit_keys.last().unwrap();
    let options: Vec<Value> = all
        .iter()
        .zip(["User name", "A", "HTML parser", "Version2 beta"])
        .map(|(c, title)| json!({"const": c.to_wire(), "title": title}))
        .collect();
    assert_eq!(
        schema["properties"][choice_key],
        json!({"type": "string", "title": "Choice", "oneOf": options})
    );
}

#[test]
fn every_serde_rename_all_rule_gives_serde_names() {
    agrees_with_serde::<LowerForm, _>(&LowerChoice::ALL);
    agrees_with_serde::<UpperForm, _>(&UpperChoice::ALL);
    agrees_with_serde::<PascalForm, _>(&PascalChoice::ALL);
    agrees_with_serde::<CamelForm, _>(&CamelChoice::ALL);
    agrees_with_serde::<SnakeForm, _>(&SnakeChoice::ALL);
    agrees_with_serde::<ScreamingSnakeForm, _>(&ScreamingSnakeChoice::ALL);
    agrees_with_serde::<KebabForm, _>(&KebabChoice::ALL);
    agrees_with_serde::<ScreamingKebabForm, _>(&ScreamingKebabChoice::ALL);
}

// ---------------------------------------------------------------------------------------------
// Skip, defaults, generics, aliases.

/// Not a form field type at all: a skipped field needs only `Default`.
#[derive(Default, Debug, PartialEq)]
struct Session {
    visits: Vec<String>,
}

#[derive(Elicit)]
struct WithSkip {
    name: String,
    #[elicit(skip)]
    session: Session,
    #[elicit(skip)]
    notes: Vec<String>,
}

#[test]
fn skipped_fields_are_not_asked() {
    assert_eq!(
        check_schema::<WithSkip>(),
        json!({"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}, "required": ["name"]})
    );
}

#[derive(Elicit)]
struct Defaults {
    #[elicit(default = "John Doe")]
    name: String,
    #[elicit(default = 30)]
    age: u8,
    #[elicit(default = -3)]
    offset: i32,
    #[elicit(default = true)]
    subscribe: bool,
    #[elicit(default = 1.5)]
    ratio: f64,
    #[elicit(default = Color::Green)]
    color: Color,
    #[elicit(default = [HexColor::Red, HexColor::Blue])]
    colors: Vec<HexColor>,
    #[elicit(default = [])]
    none_picked: BTreeSet<Color>,
    #[elicit(default = 7)]
    maybe: Option<u8>,
    needed: String,
}

#[test]
fn defaults_are_emitted_and_leave_required() {
    let schema = check_schema::<Defaults>();
    let p = &schema["properties"];
    assert_eq!(
        p["name"],
        json!({"type": "string", "title": "Name", "default": "John Doe"})
    );
    assert_eq!(
        p["age"],
        json!({"type": "integer", "title": "Age", "minimum": 0, "maximum": 255, "default": 30})
    );
    assert_eq!(p["offset"]["default"], json!(-3));
    assert_eq!(
        p["subscribe"],
        json!({"type": "boolean", "title": "Subscribe", "default": true})
    );
    assert_eq!(
        p["ratio"],
        json!({"type": "number", "title": "Ratio", "default": 1.5})
    );
    assert_eq!(p["color"]["default"], "Green");
    assert_eq!(p["colors"]["default"], json!(["#FF0000", "#0000FF"]));
    assert_eq!(p["none_picked"]["default"], json!([]));
    assert_eq!(p["maybe"]["default"], 7);
    // A field with a default may be left out: only `needed` is required.
    assert_eq!(schema["required"], json!(["needed"]));
}

#[derive(Elicit)]
struct Wrapper<T> {
    value: T,
    label: String,
}

#[derive(Elicit)]
struct Pair<A, B: Clone> {
    first: A,
    second: Option<B>,
}

#[test]
fn generic_forms_have_one_schema_per_instantiation() {
    let as_u8 = check_schema::<Wrapper<u8>>();
    let as_bool = check_schema::<Wrapper<bool>>();
    let as_color = check_schema::<Wrapper<Option<Color>>>();
    assert_eq!(
        as_u8["properties"]["value"],
        json!({"type": "integer", "title": "Value", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        as_bool["properties"]["value"],
        json!({"type": "boolean", "title": "Value"})
    );
    assert_eq!(
        as_color["properties"]["value"],
        json!({"type": "string", "title": "Value", "enum": ["Red", "Green", "Blue"]})
    );
    assert_eq!(as_u8["required"], json!(["value", "label"]));
    assert_eq!(as_color["required"], json!(["label"]));
    // Asking again hands out the cached schema of the same instantiation.
    assert_eq!(check_schema::<Wrapper<u8>>(), as_u8);

    let pair = check_schema::<Pair<String, Vec<HexColor>>>();
    assert_eq!(
        pair["properties"]["first"],
        json!({"type": "string", "title": "First"})
    );
    assert_eq!(pair["properties"]["second"]["type"], "array");
    assert_eq!(pair["required"], json!(["first"]));
}

type Age = u8;
type Picks = Option<BTreeSet<Color>>;
type Text = String;

#[derive(Elicit)]
struct Aliased {
    #[elicit(minimum = 18)]
    age: Age,
    picks: Picks,
    #[elicit(max_length = 3)]
    text: Text,
}

#[test]
fn type_aliases_map_like_their_targets() {
    let schema = check_schema::<Aliased>();
    let p = &schema["properties"];
    assert_eq!(
        p["age"],
        json!({"type": "integer", "title": "Age", "minimum": 18, "maximum": 255})
    );
    assert_eq!(
        p["picks"],
        json!({"type": "array", "title": "Picks", "items": {"type": "string", "enum": ["Red", "Green", "Blue"]}})
    );
    assert_eq!(
        p["text"],
        json!({"type": "string", "title": "Text", "maxLength": 3})
    );
    assert_eq!(schema["required"], json!(["age", "text"]));
}

#[derive(Elicit)]
enum Quoted {
    #[elicit(rename = "say \"hi\"", title = "back\\slash")]
    Hi,
    #[elicit(rename = "tab\there")]
    Tab,
}

#[derive(Elicit)]
struct Escapes {
    #[elicit(title = "quote \" backslash \\ slash / done")]
    #[elicit(description = "line\nbreak\ttab\r\u{8}\u{c}\u{1}\u{1f}\u{7f} é 😀 \u{2028}")]
    text: String,
    #[elicit(default = "\"quoted\"")]
    defaulted: String,
    choice: Quoted,
    #[elicit(rename = "naïve ключ")]
    unicode_name: bool,
}

#[test]
fn the_const_json_writer_escapes_like_serde_json() {
    // check_schema compares the const text with serde_json's byte for byte.
    let schema = check_schema::<Escapes>();
    assert_eq!(
        schema["properties"]["text"]["description"],
        "line\nbreak\ttab\r\u{8}\u{c}\u{1}\u{1f}\u{7f} é 😀 \u{2028}"
    );
    assert_eq!(
        schema["properties"]["choice"]["oneOf"][0],
        json!({"const": "say \"hi\"", "title": "back\\slash"})
    );
    // The other variant's title is made from its name, not its value.
    assert_eq!(
        schema["properties"]["choice"]["oneOf"][1],
        json!({"const": "tab\there", "title": "Tab"})
    );
    assert_eq!(schema["properties"]["naïve ключ"]["title"], "Unicode name");
    assert!(schema["properties"]["naïve ключ"].is_object());
}

#[derive(Elicit)]
#[elicit(
    message = "Please provide your contact information",
    rename_all = "camelCase"
)]
struct IssueContact {
    /// Your full name
    #[elicit(min_length = 3, max_length = 50)]
    full_name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(minimum = 18)]
    age: Option<u8>,
    #[elicit(default = HexColor::Red)]
    favorite: HexColor,
    #[elicit(min_items = 1, max_items = 2)]
    colors: Vec<HexColor>,
}

#[test]
fn the_issue_example() {
    let options = json!([
        {"const": "#FF0000", "title": "Red"},
        {"const": "#00FF00", "title": "Green"},
        {"const": "#0000FF", "title": "Blue"}
    ]);
    assert_eq!(
        check_schema::<IssueContact>(),
        json!({
            "type": "object",
            "properties": {
                "fullName": {"type": "string", "title": "Full name", "description": "Your full name", "minLength": 3, "maxLength": 50},
                "email": {"type": "string", "title": "Email", "format": "email"},
                "age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": 255},
                "favorite": {"type": "string", "title": "Favorite", "oneOf": options, "default": "#FF0000"},
                "colors": {"type": "array", "title": "Colors", "minItems": 1, "maxItems": 2, "items": {"anyOf": options}}
            },
            "required": ["fullName", "email", "colors"]
        })
    );
}

#[test]
fn typed_schema_has_the_variants() {
    // The typed schema, not only its JSON, carries the mapping.
    let schema = TitledMulti::requested_schema();
    let property = schema.property("colors").unwrap();
    assert!(!property.required);
    match &property.schema {
        PrimitiveSchema::TitledMultiSelect(s) => {
            assert_eq!((s.min_items, s.max_items), (Some(1), Some(2)));
            assert_eq!(s.options.len(), 3);
            assert_eq!(s.title.as_deref(), Some("Color Selection"));
        }
        other => panic!("expected a titled multi-select, got {other:?}"),
    }
    assert!(matches!(
        UntitledSingle::requested_schema().properties()[0].schema,
        PrimitiveSchema::SingleSelect(_)
    ));
}

/// Every form type of this file, through the common check (most tests above do it too).
#[test]
fn every_schema_of_this_file_is_spec_valid_and_consistent() {
    check_schemas!(
        GitHubUsername,
        ContactInfo,
        ContactInfoU8,
        UntitledSingle,
        TitledSingle,
        UntitledMulti,
        TitledMulti,
        SpecNumber,
        SpecBoolean,
        SpecString,
        Integers,
        NarrowedIntegers,
        Floats,
        ExponentFloats,
        Scalars,
        Optionals,
        AllOptional,
        Empty,
        Selects,
        Collections,
        Formats,
        Strings,
        Order,
        Renamed,
        SerdeRenamed,
        LowerForm,
        UpperForm,
        PascalForm,
        CamelForm,
        SnakeForm,
        ScreamingSnakeForm,
        KebabForm,
        ScreamingKebabForm,
        WithSkip,
        Defaults,
        Wrapper<u8>,
        Wrapper<String>,
        Wrapper<HashSet<Color>>,
        Pair<i128, Color>,
        Aliased,
        Escapes,
        IssueContact,
    );
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    support::agree_with_jsonschema!(
        GitHubUsername,
        ContactInfo,
        ContactInfoU8,
        UntitledSingle,
        TitledSingle,
        UntitledMulti,
        TitledMulti,
        SpecNumber,
        SpecBoolean,
        SpecString,
        Integers,
        NarrowedIntegers,
        Floats,
        ExponentFloats,
        Scalars,
        Optionals,
        AllOptional,
        Empty,
        Selects,
        Collections,
        Formats,
        Strings,
        Order,
        Renamed,
        SerdeRenamed,
        LowerForm,
        UpperForm,
        PascalForm,
        CamelForm,
        SnakeForm,
        ScreamingSnakeForm,
        KebabForm,
        ScreamingKebabForm,
        WithSkip,
        Defaults,
        Wrapper<u8>,
        Wrapper<bool>,
        Wrapper<String>,
        Wrapper<Option<Color>>,
        Wrapper<HashSet<Color>>,
        Pair<i128, Color>,
        Pair<String, Vec<HexColor>>,
        Aliased,
        Escapes,
        IssueContact,
    );
}
