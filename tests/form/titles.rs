//! Titles by default (issue 37): every property gets a `title` made from its field's Rust name
//! unless one is written, choice enums are titled selects whose labels are made from their
//! variants' names, and `untitled` opts out, on a field, a form or an enum.

// The forms here are only asked for, never read: their fields are unused by design.
#![allow(dead_code)]

use std::collections::BTreeSet;

use elicit_mcp::Elicit;
use elicit_mcp::schema::PrimitiveSchema;
use elicit_test_support::forms::check_schema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Each property's title under its key (a JSON object, so that the comparison holds whatever
/// order the map keeps its keys in).
fn titles(schema: &Value) -> Value {
    let titles = schema["properties"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(key, property)| (key.clone(), property["title"].clone()));
    Value::Object(titles.collect())
}

#[derive(Elicit, Deserialize)]
#[elicit(rename_all = "camelCase")]
#[allow(non_snake_case)]
struct Names {
    check_in: String,
    r#type: String,
    address_line2: String,
    #[elicit(rename = "addressLineTwo")]
    address_line_2: String,
    #[elicit(rename = "zip")]
    postal_code: String,
    #[serde(rename = "mail")]
    email: String,
    _leading_and__double_: bool,
    #[elicit(rename = "proxy")]
    HTTPSProxy: bool,
    #[elicit(title = "Arrival")]
    arrival_time: Option<String>,
}

#[test]
fn titles_are_made_from_rust_names_not_wire_names() {
    assert_eq!(
        titles(&check_schema::<Names>()),
        json!({
            "checkIn": "Check in",
            "type": "Type",
            "addressLine2": "Address line2",
            "addressLineTwo": "Address line 2",
            "zip": "Postal code",
            "mail": "Email",
            "leadingAndDouble": "Leading and double",
            "proxy": "HTTPS proxy",
            "arrivalTime": "Arrival",
        })
    );
}

/// Variants titled from their names: a titled select, single and multi.
#[derive(Elicit, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[elicit(rename_all = "snake_case")]
enum Delivery {
    NextDay,
    #[elicit(title = "In a week (free)")]
    Standard,
    // serde's snake case would send `h_t_t_p_s_pickup`.
    #[elicit(rename = "https_pickup")]
    HTTPSPickup,
}

/// Every made-up title would repeat its value: the plain form.
#[derive(Elicit, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Size {
    Small,
    Large,
}

/// `untitled` brings the plain form back where titles would say more than the values.
#[derive(Elicit, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[elicit(rename_all = "lowercase", untitled)]
enum Room {
    Single,
    Double,
}

/// `untitled` with a title written: titled, the other variants labelled by their value.
#[derive(Elicit, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[elicit(rename_all = "lowercase", untitled)]
enum Meal {
    #[elicit(title = "Breakfast only")]
    Breakfast,
    HalfBoard,
}

#[derive(Elicit)]
struct Choices {
    delivery: Delivery,
    deliveries: BTreeSet<Delivery>,
    size: Size,
    sizes: Vec<Size>,
    room: Room,
    rooms: Vec<Room>,
    meal: Option<Meal>,
}

#[test]
fn choices_are_titled_from_variant_names_unless_that_says_nothing_or_they_opt_out() {
    let schema = check_schema::<Choices>();
    let p = &schema["properties"];
    let delivery = json!([
        {"const": "next_day", "title": "Next day"},
        {"const": "standard", "title": "In a week (free)"},
        {"const": "https_pickup", "title": "HTTPS pickup"}
    ]);
    assert_eq!(
        p["delivery"],
        json!({"type": "string", "title": "Delivery", "oneOf": delivery})
    );
    assert_eq!(
        p["deliveries"],
        json!({"type": "array", "title": "Deliveries", "items": {"anyOf": delivery}})
    );
    assert_eq!(
        p["size"],
        json!({"type": "string", "title": "Size", "enum": ["Small", "Large"]})
    );
    assert_eq!(
        p["sizes"],
        json!({"type": "array", "title": "Sizes", "items": {"type": "string", "enum": ["Small", "Large"]}})
    );
    assert_eq!(
        p["room"],
        json!({"type": "string", "title": "Room", "enum": ["single", "double"]})
    );
    assert_eq!(
        p["rooms"],
        json!({"type": "array", "title": "Rooms", "items": {"type": "string", "enum": ["single", "double"]}})
    );
    assert_eq!(
        p["meal"],
        json!({"type": "string", "title": "Meal", "oneOf": [
            {"const": "breakfast", "title": "Breakfast only"},
            {"const": "halfboard", "title": "halfboard"}
        ]})
    );
    // The typed model says the same.
    let typed = Choices::requested_schema();
    assert!(matches!(
        typed.property("delivery").unwrap().schema,
        PrimitiveSchema::TitledSingleSelect(_)
    ));
    assert!(matches!(
        typed.property("room").unwrap().schema,
        PrimitiveSchema::SingleSelect(_)
    ));
}

#[derive(Elicit)]
struct FieldOptsOut {
    #[elicit(untitled)]
    nights: u8,
    #[elicit(untitled, description = "Who comes along")]
    guests: Option<String>,
    note: String,
}

#[derive(Elicit)]
#[elicit(untitled, rename_all = "camelCase")]
struct FormOptsOut {
    check_in: String,
    #[elicit(title = "Nights in a row")]
    nights: u8,
    delivery: Delivery,
}

#[test]
fn untitled_leaves_a_field_or_a_form_without_made_up_titles() {
    assert_eq!(
        check_schema::<FieldOptsOut>(),
        json!({
            "type": "object",
            "properties": {
                "nights": {"type": "integer", "minimum": 0, "maximum": 255},
                "guests": {"type": "string", "description": "Who comes along"},
                "note": {"type": "string", "title": "Note"}
            },
            "required": ["nights", "note"]
        })
    );
    // On the form, no field gets a made-up title; a title written stays, and a choice's own
    // titles are the enum's business.
    let schema = check_schema::<FormOptsOut>();
    assert_eq!(
        titles(&schema),
        json!({"checkIn": null, "nights": "Nights in a row", "delivery": null})
    );
    assert_eq!(
        schema["properties"]["delivery"]["oneOf"][0],
        json!({"const": "next_day", "title": "Next day"})
    );
}

/// A newtype declares what its values are; the title is the field's.
#[derive(Elicit)]
#[elicit(pattern = "^[0-9]{5}$")]
struct Postcode(String);

#[derive(Elicit)]
struct Addresses {
    home_postcode: Postcode,
    #[elicit(title = "Work")]
    work_postcode: Option<Postcode>,
    #[elicit(untitled)]
    other_postcode: Option<Postcode>,
}

#[test]
fn a_newtype_field_is_titled_by_the_field() {
    let schema = check_schema::<Addresses>();
    let p = &schema["properties"];
    assert_eq!(
        p["home_postcode"],
        json!({"type": "string", "title": "Home postcode", "pattern": "^[0-9]{5}$"})
    );
    assert_eq!(p["work_postcode"]["title"], "Work");
    assert_eq!(
        p["other_postcode"],
        json!({"type": "string", "pattern": "^[0-9]{5}$"})
    );
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(
        Names,
        Choices,
        FieldOptsOut,
        FormOptsOut,
        Addresses
    );
}
