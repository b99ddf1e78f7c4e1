//! Answers generated from a form's own schema: for each property a value its rules allow (as a
//! well-behaved client sends it) or one near them (the wrong type, a number just out of range,
//! a string around its length bounds, a format's near miss, a choice that is not one, `null`),
//! the property left out, and keys the form does not have.

use std::sync::Arc;

use elicit_mcp::schema::{
    NumberSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringSchema,
    TitledMultiSelectEnumSchema, UntitledMultiSelectEnumSchema,
};
use jsonschema::Validator;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use serde_json::{Map, Number, Value, json};

use super::{formats, patterns};
use crate::spec::validator;

/// The largest integer a double holds exactly, and its neighbours past it.
const SAFE: i64 = (1 << 53) - 1;

/// Content for `schema`: each property valid, near its rules, or left out, with on average one
/// property away from valid; plus keys the form does not have.
pub fn content_for(schema: &RequestedSchema) -> BoxedStrategy<Map<String, Value>> {
    let others = schema.properties().len().saturating_sub(1).max(1) as u32;
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = schema
        .properties()
        .iter()
        .map(|property| {
            let name = property.name.to_string();
            let named = move |value: Value| Some((name.clone(), value));
            let valid = valid_value_of(property).prop_map(named.clone());
            let edgy = edgy_value_of(&property.schema).prop_map(named.clone());
            let null = Just(named(Value::Null));
            let (valid, edgy) = if property.required {
                (
                    valid.boxed(),
                    prop_oneof![14 => edgy, 1 => Just(None), 1 => null].boxed(),
                )
            } else {
                (
                    prop_oneof![3 => valid, 1 => Just(None)].boxed(),
                    prop_oneof![6 => edgy, 1 => Just(None), 1 => null].boxed(),
                )
            };
            prop_oneof![others => valid, 1 => edgy].boxed()
        })
        .collect();
    with_unknown_keys(fields)
}

/// Content aimed at the property at `index`: every other property valid, that one `value`.
/// Such answers try what random ones leave to chance on a form of many fields: each side of
/// each field, each rule beyond the schema.
pub fn aimed_at(
    schema: &RequestedSchema,
    index: usize,
    value: BoxedStrategy<Value>,
) -> BoxedStrategy<Map<String, Value>> {
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = schema
        .properties()
        .iter()
        .enumerate()
        .map(|(at, property)| {
            let name = property.name.to_string();
            let value = if at == index {
                value.clone()
            } else {
                valid_value_of(property)
            };
            value
                .prop_map(move |value| Some((name.clone(), value)))
                .boxed()
        })
        .collect();
    with_unknown_keys(fields)
}

/// The values of `fields` as content, among keys the form does not have.
fn with_unknown_keys(
    fields: Vec<BoxedStrategy<Option<(String, Value)>>>,
) -> BoxedStrategy<Map<String, Value>> {
    let unknown = btree_map("[A-Z$][a-z]{0,4}", any_type(), 0..3);
    (fields, unknown)
        .prop_map(|(fields, unknown)| {
            // The form's own values win over an unknown key of the same name.
            let mut content: Map<String, Value> = unknown.into_iter().collect();
            content.extend(fields.into_iter().flatten());
            content
        })
        .boxed()
}

/// A value the property's rules allow, as a well-behaved client sends it. Strings are held to
/// the independent validator, so that a pattern's or a format's generated value is one.
pub fn valid_value_of(property: &Property) -> BoxedStrategy<Value> {
    match &property.schema {
        PrimitiveSchema::String(s) => {
            let judge = property_validator(&property.schema);
            valid_string(s)
                .prop_map(Value::String)
                .prop_filter("a value the property's rules allow", move |value| {
                    judge.is_valid(value)
                })
                .boxed()
        }
        PrimitiveSchema::Number(n) => valid_number(n),
        PrimitiveSchema::Boolean(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        PrimitiveSchema::SingleSelect(_)
        | PrimitiveSchema::TitledSingleSelect(_)
        | PrimitiveSchema::LegacyTitled(_) => select(choices(&property.schema))
            .prop_map(Value::String)
            .boxed(),
        PrimitiveSchema::MultiSelect(UntitledMultiSelectEnumSchema {
            min_items,
            max_items,
            ..
        })
        | PrimitiveSchema::TitledMultiSelect(TitledMultiSelectEnumSchema {
            min_items,
            max_items,
            ..
        }) => {
            let values = choices(&property.schema);
            let lo = min_items.unwrap_or(0) as usize;
            let hi = max_items
                .map_or(values.len(), |m| m as usize)
                .min(values.len());
            subsequence(values, lo..=hi.max(lo))
                .prop_shuffle()
                .prop_map(|picked| json!(picked))
                .boxed()
        }
        other => panic!("no strategy for the schema {other:?}: add one here"),
    }
}

/// Any value near the property's rules: of its type, right or wrong, in range or just out of
/// it; or of another type.
pub fn edgy_value_of(schema: &PrimitiveSchema) -> BoxedStrategy<Value> {
    let right_kind = match schema {
        PrimitiveSchema::String(s) => near_string(s).prop_map(Value::String).boxed(),
        PrimitiveSchema::Number(n) => near_number(n),
        PrimitiveSchema::Boolean(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        PrimitiveSchema::SingleSelect(_)
        | PrimitiveSchema::TitledSingleSelect(_)
        | PrimitiveSchema::LegacyTitled(_) => near_choice(schema),
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => {
            near_selection(schema)
        }
        other => panic!("no strategy for the schema {other:?}: add one here"),
    };
    prop_oneof![4 => right_kind, 1 => other_types_than(schema)].boxed()
}

/// The independent validator of one property's schema, for values alone.
fn property_validator(schema: &PrimitiveSchema) -> Arc<Validator> {
    let schema = serde_json::to_value(schema).expect("a property schema serializes");
    Arc::new(validator(&schema))
}

fn choices(schema: &PrimitiveSchema) -> Vec<String> {
    schema
        .choices()
        .expect("a select has choices")
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// A string the property's lengths, pattern and format allow, most of the time.
fn valid_string(s: &StringSchema) -> BoxedStrategy<String> {
    if let Some(format) = s.format {
        return formats::valid(format);
    }
    let lo = s.min_length.unwrap_or(0) as usize;
    let hi = s.max_length.map_or(lo + 8, |m| m as usize).max(lo);
    if let Some(pattern) = &s.pattern {
        let slack = (hi - lo).clamp(1, 8) as u32;
        if let Some(matching) = patterns::matching(pattern, slack, lo + 3) {
            return matching;
        }
    }
    vec(select(vec!['a', 'Q', ' ', 'é', '😀', '\u{301}']), lo..=hi)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

/// A string near the property's rules: a format's near miss, a pattern's match and near miss,
/// a length around the bounds.
fn near_string(s: &StringSchema) -> BoxedStrategy<String> {
    let around = string_around(s.min_length, s.max_length);
    if let Some(format) = s.format {
        return prop_oneof![5 => formats::near(format), 1 => around].boxed();
    }
    if let Some(pattern) = &s.pattern {
        let lo = s.min_length.unwrap_or(0);
        let hi = s.max_length.unwrap_or(lo + 8).max(lo);
        let filler = lo as usize + 3;
        if let Some(near) = patterns::near(pattern, (hi - lo + 2).clamp(1, 10) as u32, filler) {
            return prop_oneof![3 => near, 1 => around].boxed();
        }
    }
    around
}

/// Strings with a length around `min..=max`, from ASCII, two-byte, four-byte and combining
/// code points, so that a byte or grapheme count would show.
fn string_around(min: Option<u64>, max: Option<u64>) -> BoxedStrategy<String> {
    let lo = min.map_or(0, |m| m.saturating_sub(1)) as usize;
    let hi = max.map_or(lo + 12, |m| m as usize + 1).max(lo);
    let chars = vec!['a', 'z', 'Q', '7', ' ', 'é', '😀', '\u{301}', 'ß'];
    vec(select(chars), lo..=hi)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

fn valid_number(n: &NumberSchema) -> BoxedStrategy<Value> {
    match n.kind {
        NumberType::Integer => {
            let lo = i128::from(n.minimum.and_then(|m| m.as_i64()).unwrap_or(i64::MIN));
            let hi = i128::from(n.maximum.and_then(|m| m.as_i64()).unwrap_or(i64::MAX));
            prop_oneof![
                4 => (lo..=hi).prop_map(integer_json),
                1 => select(vec![lo, hi]).prop_map(integer_json),
            ]
            .boxed()
        }
        NumberType::Number => {
            let lo = n.minimum.map_or(-1e300, |m| m.as_f64());
            let hi = n.maximum.map_or(1e300, |m| m.as_f64());
            prop_oneof![
                4 => (lo..=hi).prop_map(float_json),
                1 => select(vec![lo, hi]).prop_map(float_json),
            ]
            .boxed()
        }
    }
}

/// A number around the bounds: at them, one past them, fractions of an integer field's, and
/// magnitudes past what a double or a 64-bit integer holds.
fn near_number(n: &NumberSchema) -> BoxedStrategy<Value> {
    let huge = select(vec![
        json!(1e300),
        json!(-1e300),
        json!(1e39),
        json!(-1e39),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e20),
        json!(SAFE + 1),
        json!(-SAFE - 1),
        json!(-0.0),
    ]);
    match n.kind {
        NumberType::Integer => {
            let lo = n.minimum.and_then(|m| m.as_i64()).unwrap_or(-1000);
            let hi = n.maximum.and_then(|m| m.as_i64()).unwrap_or(1000);
            let (lo, hi) = (i128::from(lo), i128::from(hi));
            let edges = select(vec![lo - 1, lo, lo + 1, hi - 1, hi, hi + 1]);
            prop_oneof![
                4 => (lo - 3..=hi + 3).prop_map(integer_json),
                3 => edges.clone().prop_map(integer_json),
                // Integral floats are integers; fractions are not.
                1 => edges.clone().prop_map(|i| float_json(i as f64)),
                2 => edges.prop_map(|i| float_json(i as f64 + 0.5)),
                1 => huge,
            ]
            .boxed()
        }
        NumberType::Number => {
            let lo = n.minimum.map_or(-1e6, |m| m.as_f64());
            let hi = n.maximum.map_or(1e6, |m| m.as_f64());
            let edges = select(vec![
                lo,
                hi,
                lo - 1e-9 * lo.abs().max(1.0),
                hi + 1e-9 * hi.abs().max(1.0),
            ]);
            prop_oneof![
                4 => (lo - 1.0..hi + 1.0).prop_map(float_json),
                2 => edges.prop_map(float_json),
                1 => (-1000i64..1000).prop_map(Value::from),
                1 => any::<f64>()
                    .prop_filter("finite", |f| f.is_finite())
                    .prop_map(float_json),
                1 => huge,
            ]
            .boxed()
        }
    }
}

/// The values of a select, and strings close to them that are not.
fn near_choice(schema: &PrimitiveSchema) -> BoxedStrategy<Value> {
    let values = choices(schema);
    let mut near: Vec<String> = values.iter().map(|v| v.to_lowercase()).collect();
    near.extend(values.iter().map(|v| format!("{v} ")));
    near.extend(["".to_owned(), "Purple".to_owned()]);
    prop_oneof![
        5 => select(values).prop_map(Value::String),
        1 => select(near).prop_map(Value::String),
    ]
    .boxed()
}

/// Selections: distinct picks (as a client sends them), then anything (repeats, items of the
/// wrong type, items that are no choice) at counts around the bounds.
fn near_selection(schema: &PrimitiveSchema) -> BoxedStrategy<Value> {
    let item = prop_oneof![
        8 => near_choice(schema),
        1 => select(vec![json!(1), Value::Null, json!(true), json!(["Red"])]),
    ];
    let values = choices(schema);
    let count = values.len();
    prop_oneof![
        3 => subsequence(values, 0..=count)
            .prop_shuffle()
            .prop_map(|picked| json!(picked)),
        2 => vec(item, 0..=count + 2).prop_map(Value::Array),
    ]
    .boxed()
}

/// JSON for an integer, exactly (an i64 or u64 when it fits, else the nearest double).
pub fn integer_json(n: i128) -> Value {
    if let Ok(i) = i64::try_from(n) {
        Value::from(i)
    } else if let Ok(u) = u64::try_from(n) {
        Value::from(u)
    } else {
        Value::from(n as f64)
    }
}

/// JSON for a double; `null` for what JSON cannot carry (NaN, the infinities).
pub fn float_json(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// Values of every JSON type but `null`.
fn any_type() -> BoxedStrategy<Value> {
    select(vec![
        json!("text"),
        json!(""),
        json!(1),
        json!(-2.5),
        json!(true),
        json!([]),
        json!(["Red"]),
        json!({}),
        json!({"a": 1}),
    ])
    .boxed()
}

/// Values of another JSON type than the property's (not `null`, which an optional field takes
/// as absent): the type checks' share, refused whatever the property's other rules.
pub fn other_types_than(schema: &PrimitiveSchema) -> BoxedStrategy<Value> {
    let same = |value: &Value| match schema {
        PrimitiveSchema::Number(_) => value.is_number(),
        PrimitiveSchema::Boolean(_) => value.is_boolean(),
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => value.is_array(),
        _ => value.is_string(),
    };
    let others: Vec<Value> = [
        json!("text"),
        json!(""),
        json!(1),
        json!(-2.5),
        json!(true),
        json!([]),
        json!(["Red"]),
        json!({}),
        json!({"a": 1}),
    ]
    .into_iter()
    .filter(|value| !same(value))
    .collect();
    select(others).boxed()
}
