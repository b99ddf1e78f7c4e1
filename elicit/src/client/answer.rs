//! What the renderers share about a field's answer: the text a user typed read as the value it
//! sends, a select's choices under their titles, the rules shown beside a field, the shared
//! validator's verdict on one field, and an answer shown back for review.

// The secure page (feature `page`) reads and draws with a part of it; the terminal renderers
// use all of it.
#![cfg_attr(not(any(feature = "terminal", feature = "ratatui")), allow(dead_code))]

use std::fmt;

use serde_json::{Map, Value};

use crate::schema::{
    NumberSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringSchema,
    TitledOption,
};

/// The field's label: its title, or its name.
pub(crate) fn label_of(property: &Property) -> &str {
    property.schema.title().unwrap_or(&property.name)
}

/// A schema of this property alone, for judging its answer without the others.
pub(crate) fn alone(property: &Property) -> RequestedSchema {
    RequestedSchema::new(vec![property.clone()])
}

/// The crate's verdict on the value of the one property of `alone` (`None`: left empty): the
/// reasons it is rejected, as one line that names the field.
pub(crate) fn verdict(alone: &RequestedSchema, value: Option<&Value>) -> Result<(), String> {
    let Some(property) = alone.properties().first() else {
        return Ok(());
    };
    let mut content = Map::new();
    if let Some(value) = value {
        content.insert(property.name.to_string(), value.clone());
    }
    alone.validate_content(&content).map_err(|errors| {
        errors
            .errors()
            .iter()
            .map(|error| format!("{} {}", label_of(property), error.message()))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// Whether the property is a select offering no choices at all.
pub(crate) fn has_no_choices(property: &Property) -> bool {
    property
        .schema
        .choices()
        .is_some_and(|choices| choices.is_empty())
}

/// Why a select offering no choices cannot be answered, if its empty answer fails the check.
pub(crate) fn unanswerable(property: &Property) -> Option<String> {
    if !has_no_choices(property) {
        return None;
    }
    verdict(&alone(property), empty_selection(property).as_ref())
        .err()
        .map(|reason| format!("{reason}, and it offers no choices"))
}

/// The answer of a select that offers no choices: nothing, or an empty list for a required
/// multi-select.
pub(crate) fn empty_selection(property: &Property) -> Option<Value> {
    (is_multi(&property.schema) && property.required).then(|| Value::Array(Vec::new()))
}

pub(crate) fn is_multi(schema: &PrimitiveSchema) -> bool {
    matches!(
        schema,
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_)
    )
}

/// `minItems` and `maxItems` of a multi-select.
pub(crate) fn item_bounds(schema: &PrimitiveSchema) -> (Option<u64>, Option<u64>) {
    match schema {
        PrimitiveSchema::MultiSelect(s) => (s.min_items, s.max_items),
        PrimitiveSchema::TitledMultiSelect(s) => (s.min_items, s.max_items),
        _ => (None, None),
    }
}

/// The array of the ticked values; none ticked leaves an optional field out.
pub(crate) fn picked_value<'c>(
    required: bool,
    picked: impl IntoIterator<Item = &'c Choice>,
) -> Option<Value> {
    let values: Vec<Value> = picked
        .into_iter()
        .filter_map(|choice| choice.value.clone().map(Value::String))
        .collect();
    (required || !values.is_empty()).then_some(Value::Array(values))
}

/// A text answer: empty leaves the field out (a required field then reads as missing).
pub(crate) fn text_value(input: &str) -> Option<Value> {
    (!input.is_empty()).then(|| Value::String(input.to_owned()))
}

/// A number answer: empty leaves the field out; `Err` when the input is not a number. An
/// integer field's `3.0` is sent as `3`.
pub(crate) fn number_value(input: &str, kind: NumberType) -> Result<Option<Value>, ()> {
    let input = input.trim();
    if input.is_empty() {
        return Ok(None);
    }
    if let Ok(integer) = input.parse::<i64>() {
        return Ok(Some(Value::from(integer)));
    }
    if let Ok(integer) = input.parse::<u64>() {
        return Ok(Some(Value::from(integer)));
    }
    let float = input.parse::<f64>().map_err(drop)?;
    if !float.is_finite() {
        return Err(());
    }
    // Below 2^53 a whole double is exactly an integer.
    if kind == NumberType::Integer && float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0
    {
        return Ok(Some(Value::from(float as i64)));
    }
    Ok(serde_json::Number::from_f64(float).map(Value::Number))
}

/// Why typed text is not a number at all, before any bound is checked.
pub(crate) fn not_a_number(property: &Property, kind: NumberType, input: &str) -> String {
    format!(
        "{} must be {}, got \"{}\"",
        label_of(property),
        kind_name(kind),
        input.trim()
    )
}

fn kind_name(kind: NumberType) -> &'static str {
    match kind {
        NumberType::Integer => "a whole number",
        NumberType::Number => "a number",
    }
}

pub(crate) fn string_rules(schema: &StringSchema) -> Vec<String> {
    let mut rules = Vec::new();
    match (schema.min_length, schema.max_length) {
        (Some(min), Some(max)) => rules.push(format!("{min} to {max} characters")),
        (Some(min), None) => rules.push(format!("at least {min} characters")),
        (None, Some(max)) => rules.push(format!("at most {max} characters")),
        (None, None) => {}
    }
    if let Some(format) = schema.format {
        rules.push(crate::form::format::described(format).to_owned());
    }
    if let Some(pattern) = &schema.pattern {
        rules.push(format!("matching {pattern}"));
    }
    rules
}

pub(crate) fn number_rules(schema: &NumberSchema) -> Vec<String> {
    let kind = kind_name(schema.kind);
    let minimum = schema.minimum.filter(chosen_by_a_person);
    let maximum = schema.maximum.filter(chosen_by_a_person);
    vec![match (minimum, maximum) {
        (Some(min), Some(max)) => format!("{kind} from {min} to {max}"),
        (Some(min), None) => format!("{kind}, at least {min}"),
        (None, Some(max)) => format!("{kind}, at most {max}"),
        (None, None) => kind.to_owned(),
    }]
}

/// The extremes of the 32- and 64-bit integer types, as a schema writes them.
const MACHINE_EXTREMES: [&str; 6] = [
    "-2147483648",
    "2147483647",
    "4294967295",
    "-9223372036854775808",
    "9223372036854775807",
    "18446744073709551615",
];

/// Whether a person is told of a bound: not when it is a 32- or 64-bit integer type's extreme.
/// Servers (elicit's derive among them) write a field's type range into the schema so that
/// clients can check it, but "from 0 to 4294967295" tells a person nothing; the bound is still
/// checked, and its error still names it.
fn chosen_by_a_person(bound: &crate::schema::Number) -> bool {
    !MACHINE_EXTREMES.contains(&bound.to_string().as_str())
}

pub(crate) fn count_rule(min_items: Option<u64>, max_items: Option<u64>) -> Option<String> {
    match (min_items, max_items) {
        (Some(min), Some(max)) => Some(format!("tick {min} to {max}")),
        (Some(min), None) => Some(format!("tick at least {min}")),
        (None, Some(max)) => Some(format!("tick at most {max}")),
        (None, None) => None,
    }
}

/// One entry of a select: the value sent, shown by its title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    /// `None` for the entry that leaves an optional field empty.
    pub(crate) value: Option<String>,
    pub(crate) title: String,
}

impl Choice {
    pub(crate) fn leave_empty() -> Self {
        Choice {
            value: None,
            title: "(leave empty)".to_owned(),
        }
    }

    fn plain(value: &str) -> Self {
        Choice {
            value: Some(value.to_owned()),
            title: value.to_owned(),
        }
    }

    fn titled(option: &TitledOption) -> Self {
        Choice {
            value: Some(option.value.to_string()),
            title: option.title.to_string(),
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

/// The choices of a select, each under its title: `oneOf`/`anyOf` titles, the legacy
/// `enumNames` (by position), or the value itself.
pub(crate) fn choices_of(schema: &PrimitiveSchema) -> Vec<Choice> {
    match schema {
        PrimitiveSchema::SingleSelect(s) => s.values.iter().map(|v| Choice::plain(v)).collect(),
        PrimitiveSchema::MultiSelect(s) => s.values.iter().map(|v| Choice::plain(v)).collect(),
        PrimitiveSchema::TitledSingleSelect(s) => s.options.iter().map(Choice::titled).collect(),
        PrimitiveSchema::TitledMultiSelect(s) => s.options.iter().map(Choice::titled).collect(),
        PrimitiveSchema::LegacyTitled(s) => s
            .values
            .iter()
            .enumerate()
            .map(|(index, value)| Choice {
                value: Some(value.to_string()),
                title: s.names.get(index).unwrap_or(value).to_string(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// An answer as the user reads it back before sending: selects by their titles, booleans as
/// Yes and No, and an empty field with what empty means (its default, or nothing sent).
pub(crate) fn shown(property: &Property, value: Option<&Value>) -> String {
    let Some(value) = value else {
        return match property.schema.default_value() {
            Some(default) => format!(
                "(empty: sends the default, {})",
                shown_value(property, &default)
            ),
            None => "(left empty)".to_owned(),
        };
    };
    shown_value(property, value)
}

fn shown_value(property: &Property, value: &Value) -> String {
    let title_of = |text: &str| {
        choices_of(&property.schema)
            .into_iter()
            .find(|choice| choice.value.as_deref() == Some(text))
            .map_or_else(|| text.to_owned(), |choice| choice.title)
    };
    match value {
        Value::String(text) => title_of(text),
        Value::Bool(true) => "Yes".to_owned(),
        Value::Bool(false) => "No".to_owned(),
        Value::Array(items) if items.is_empty() => "(none)".to_owned(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => title_of(text),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(json: &str) -> RequestedSchema {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn numbers_parse_exactly_and_integers_lose_a_zero_fraction() {
        assert_eq!(
            number_value(" 42 ", NumberType::Integer),
            Ok(Some(Value::from(42)))
        );
        assert_eq!(
            number_value("3.0", NumberType::Integer),
            Ok(Some(Value::from(3)))
        );
        assert_eq!(
            number_value("3.0", NumberType::Number),
            Ok(Some(Value::from(3.0)))
        );
        assert_eq!(
            number_value("2.5", NumberType::Integer),
            Ok(Some(Value::from(2.5)))
        );
        assert_eq!(number_value("", NumberType::Number), Ok(None));
        assert_eq!(number_value("inf", NumberType::Number), Err(()));
        assert_eq!(number_value("two", NumberType::Number), Err(()));
    }

    #[test]
    fn a_type_s_whole_range_is_not_read_to_a_person() {
        let rules = |json: &str| match &schema(json).property("n").unwrap().schema {
            PrimitiveSchema::Number(number) => number_rules(number),
            other => panic!("not a number: {other:?}"),
        };
        let form = |bounds: &str| {
            format!(r#"{{"type":"object","properties":{{"n":{{"type":"integer"{bounds}}}}}}}"#)
        };
        // A `u32` field: its minimum is worth saying, its maximum is the type's.
        assert_eq!(
            rules(&form(r#","minimum":0,"maximum":4294967295"#)),
            ["a whole number, at least 0"]
        );
        assert_eq!(
            rules(&form(
                r#","minimum":-9223372036854775808,"maximum":9223372036854775807"#
            )),
            ["a whole number"]
        );
        assert_eq!(
            rules(&form(r#","minimum":-2147483648,"maximum":100"#)),
            ["a whole number, at most 100"]
        );
        // Bounds a person chose, a `u8`'s included, are said.
        assert_eq!(
            rules(&form(r#","minimum":1,"maximum":255"#)),
            ["a whole number from 1 to 255"]
        );
    }

    #[test]
    fn legacy_enum_names_title_the_choices() {
        let schema = schema(
            r#"{"type":"object","properties":{"size":{"type":"string","enum":["s","m"],
            "enumNames":["Small","Medium"]}}}"#,
        );
        let titles: Vec<String> = choices_of(&schema.properties()[0].schema)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(titles, ["Small", "Medium"]);
    }

    #[test]
    fn a_field_is_judged_by_the_shared_validator() {
        let schema = schema(
            r#"{"type":"object","properties":{"name":{"type":"string","title":"Name",
            "minLength":3}},"required":["name"]}"#,
        );
        let alone = alone(&schema.properties()[0]);
        assert_eq!(verdict(&alone, Some(&Value::from("Ada"))), Ok(()));
        assert_eq!(
            verdict(&alone, Some(&Value::from("Al"))),
            Err("Name must be at least 3 characters long, got 2".to_owned())
        );
        assert_eq!(verdict(&alone, None), Err("Name is required".to_owned()));
    }

    #[test]
    fn a_required_select_without_choices_cannot_be_answered() {
        let schema = schema(
            r#"{"type":"object","properties":{
            "size":{"type":"string","title":"Size","enum":[]},
            "tags":{"type":"array","items":{"type":"string","enum":[]}},
            "picks":{"type":"array","minItems":1,"items":{"type":"string","enum":[]}},
            "note":{"type":"string","enum":[]}},"required":["size","tags","picks"]}"#,
        );
        let verdicts: Vec<Option<String>> = schema.properties().iter().map(unanswerable).collect();
        assert_eq!(
            verdicts,
            [
                Some("Size is required, and it offers no choices".to_owned()),
                None,
                Some("picks needs at least 1 selected, got 0, and it offers no choices".to_owned()),
                None,
            ]
        );
    }

    #[test]
    fn answers_are_shown_back_by_their_titles() {
        let schema = schema(
            r#"{"type":"object","properties":{
            "room":{"type":"string","oneOf":[{"const":"suite","title":"Suite"}]},
            "extras":{"type":"array","items":{"anyOf":[{"const":"b","title":"Breakfast"},
                {"const":"p","title":"Parking"}]}},
            "vip":{"type":"boolean"},
            "nights":{"type":"integer","default":1},
            "note":{"type":"string"}}}"#,
        );
        let p = schema.properties();
        assert_eq!(shown(&p[0], Some(&Value::from("suite"))), "Suite");
        assert_eq!(
            shown(&p[1], Some(&serde_json::json!(["p", "b"]))),
            "Parking, Breakfast"
        );
        assert_eq!(shown(&p[2], Some(&Value::Bool(false))), "No");
        assert_eq!(shown(&p[3], None), "(empty: sends the default, 1)");
        assert_eq!(shown(&p[4], None), "(left empty)");
    }
}
