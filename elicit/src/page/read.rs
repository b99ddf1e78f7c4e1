//! A submitted page read back into form content: each field's text as the value its schema
//! takes, and what to show again when the answer is refused (never a secret).

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::ContentError;
use crate::client::answer::{is_multi, label_of, not_a_number, number_value};
use crate::schema::{PrimitiveSchema, Property, RequestedSchema};
use crate::server::{FormCheck, wipe_content};

/// What a field shows: its default at first, what the person sent when the page comes back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shown {
    /// A text, number or single choice, as typed or picked.
    Text(String),
    /// A multi-select's ticked values.
    Many(Vec<String>),
    /// A checkbox.
    Ticked(bool),
}

/// The fields' shown values, by wire name.
pub(crate) type ShownValues = HashMap<String, Shown>;

/// A refused field: its wire name, and the sentence the page shows beside it.
pub(crate) type FieldMessage = (String, String);

/// The values a form shows before anything is sent: its defaults.
pub(super) fn defaults(schema: &RequestedSchema) -> ShownValues {
    schema
        .properties()
        .iter()
        .filter_map(|property| {
            let default = property.schema.default_value()?;
            Some((
                property.name.to_string(),
                shown_of(&property.schema, &default),
            ))
        })
        .collect()
}

fn shown_of(schema: &PrimitiveSchema, value: &Value) -> Shown {
    match (schema, value) {
        (PrimitiveSchema::Boolean(_), Value::Bool(ticked)) => Shown::Ticked(*ticked),
        (_, Value::Array(items)) => Shown::Many(
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        (_, Value::String(text)) => Shown::Text(text.clone()),
        (_, other) => Shown::Text(other.to_string()),
    }
}

/// The page's fields as the form's content, checked with the form's rules, then with the
/// form's own reading (`check`, where this process knows the form) for the rules its fields'
/// types add; or, refused, the sentences to show beside the fields at fault. Either way, what
/// the page shows again: the values sent, secret fields left out.
pub(crate) fn read(
    schema: &RequestedSchema,
    secret_fields: &[Cow<'_, str>],
    pairs: &[(String, String)],
    check: Option<FormCheck>,
) -> (Result<Map<String, Value>, Vec<FieldMessage>>, ShownValues) {
    let mut content = Map::new();
    let mut shown = ShownValues::new();
    let mut refused = Vec::new();
    for property in schema.properties() {
        let name = &*property.name;
        let sent: Vec<&str> = pairs
            .iter()
            .filter(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
            .collect();
        let secret = secret_fields.iter().any(|field| field == name);
        match value_of(property, &sent) {
            Ok(Some(value)) => {
                if !secret {
                    shown.insert(name.to_owned(), shown_of(&property.schema, &value));
                }
                content.insert(name.to_owned(), value);
            }
            Ok(None) => {}
            Err(message) => {
                if !secret {
                    shown.insert(name.to_owned(), Shown::Text(sent.concat()));
                }
                refused.push((name.to_owned(), message));
            }
        }
    }
    if let Err(errors) = schema.validate_content(&content) {
        add_refusals(schema, &errors, &mut refused);
    }
    // Also when the schema refused some: every field at fault is shown at once. A field
    // refused already keeps the sentence it has.
    if let Some(Err(errors)) = check.map(|check| check.check(&content)) {
        add_refusals(schema, &errors, &mut refused);
    }
    if refused.is_empty() {
        (Ok(content), shown)
    } else {
        // A secret that passed its own rules is in it, refused with the rest.
        wipe_content(&mut content);
        (Err(refused), shown)
    }
}

/// Each field of `errors` not refused already, with the sentence to show beside it.
fn add_refusals(schema: &RequestedSchema, errors: &ContentError, refused: &mut Vec<FieldMessage>) {
    for error in errors.errors() {
        let Some(property) = schema.property(error.field()) else {
            continue;
        };
        if !refused.iter().any(|(name, _)| name == error.field()) {
            let sentence = format!("{} {}", label_of(property), error.problem());
            refused.push((error.field().to_owned(), sentence));
        }
    }
}

/// One field's value from what the page sent for it; `None` when it is left empty.
fn value_of(property: &Property, sent: &[&str]) -> Result<Option<Value>, String> {
    let schema = &property.schema;
    if is_multi(schema) {
        let values: Vec<Value> = sent.iter().map(|value| Value::from(*value)).collect();
        // An optional multi-select with nothing ticked is not answered; a required one is an
        // empty selection, which its rules judge.
        return Ok((!values.is_empty() || property.required).then_some(Value::Array(values)));
    }
    if let PrimitiveSchema::Boolean(_) = schema {
        // The page draws every boolean as a checkbox: one left unticked is not sent.
        return Ok(Some(Value::Bool(sent.contains(&"true"))));
    }
    let [text] = sent else {
        return match sent {
            [] => Ok(None),
            _ => Err(format!("{} was sent more than once", label_of(property))),
        };
    };
    if text.is_empty() {
        return Ok(None);
    }
    match schema {
        PrimitiveSchema::Number(number) => {
            number_value(text, number.kind).map_err(|()| not_a_number(property, number.kind, text))
        }
        _ => Ok(Some(Value::from(*text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> RequestedSchema {
        serde_json::from_str(
            r#"{"type":"object","properties":{
                "key":{"type":"string","title":"API key","minLength":8},
                "calendar":{"type":"string","title":"Calendar"},
                "days":{"type":"integer","title":"Days","minimum":1,"maximum":30,"default":7},
                "shared":{"type":"boolean","title":"Shared"},
                "colors":{"type":"array","title":"Colors","items":{"type":"string","enum":["red","blue"]}}
            },"required":["key","calendar"]}"#,
        )
        .unwrap()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_page_reads_as_the_content_its_schema_takes() {
        let (content, shown) = read(
            &schema(),
            &[Cow::Borrowed("key")],
            &pairs(&[
                ("key", "sk-123456789"),
                ("calendar", "Work"),
                ("days", "14"),
                ("shared", "true"),
                ("colors", "red"),
                ("colors", "blue"),
                ("_csrf", "ignored"),
            ]),
            None,
        );
        assert_eq!(
            Value::Object(content.unwrap()),
            serde_json::json!({"key": "sk-123456789", "calendar": "Work", "days": 14,
                "shared": true, "colors": ["red", "blue"]})
        );
        assert!(!shown.contains_key("key"), "a secret is never shown again");
        assert_eq!(shown["days"], Shown::Text("14".to_owned()));
    }

    #[test]
    fn a_refused_page_says_why_beside_each_field_and_keeps_what_is_not_secret() {
        let (content, shown) = read(
            &schema(),
            &[Cow::Borrowed("key")],
            &pairs(&[("key", "short"), ("days", "two"), ("calendar", "")]),
            None,
        );
        let refused = content.unwrap_err();
        assert_eq!(
            refused,
            [
                (
                    "days".to_owned(),
                    "Days must be a whole number, got \"two\"".to_owned()
                ),
                (
                    "key".to_owned(),
                    "API key must be at least 8 characters long, got 5".to_owned()
                ),
                ("calendar".to_owned(), "Calendar is required".to_owned()),
            ]
        );
        assert!(!shown.contains_key("key"));
        assert_eq!(shown["days"], Shown::Text("two".to_owned()));
        assert_eq!(shown["shared"], Shown::Ticked(false));
    }

    #[test]
    fn defaults_are_shown_first() {
        let shown = defaults(&schema());
        assert_eq!(shown.len(), 1);
        assert_eq!(shown["days"], Shown::Text("7".to_owned()));
    }

    /// A `url::Url` field takes what the WHATWG URL Standard parses, past the schema's `uri`:
    /// the form's own reading says so beside the field, with the schema's faults of the others.
    #[cfg(feature = "url")]
    #[test]
    fn a_known_form_refuses_beside_its_field_what_the_fields_type_refuses() {
        use crate::Elicit;
        use crate::server::FormCheck;

        #[derive(Elicit)]
        #[elicit(crate = "crate")]
        #[allow(dead_code)] // read only through `from_content`'s verdict
        struct Site {
            home: url::Url,
            #[elicit(min_length = 2)]
            name: String,
        }

        let posted = pairs(&[("home", "http://1.2.3.256/"), ("name", "x")]);
        let schema = Site::requested_schema();
        let (by_schema, _) = read(schema, &[], &posted, None);
        assert_eq!(
            by_schema.unwrap_err().len(),
            1,
            "the schema takes the address"
        );
        let (content, shown) = read(schema, &[], &posted, Some(FormCheck::of::<Site>()));
        assert_eq!(
            content.unwrap_err(),
            [
                (
                    "name".to_owned(),
                    "Name must be at least 2 characters long, got 1".to_owned()
                ),
                (
                    "home".to_owned(),
                    "Home must be a full web address like https://example.com/ (invalid IPv4 \
                     address)"
                        .to_owned()
                ),
            ]
        );
        assert_eq!(shown["home"], Shown::Text("http://1.2.3.256/".to_owned()));
    }
}
