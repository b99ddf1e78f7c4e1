//! The secure page's reading of a posted form held to `from_content`: answers generated for
//! forms of every field kind, posted as a browser posts the page's form (a text as typed, a
//! number in its JSON text, a ticked checkbox as `true` and an unticked one not at all, each
//! ticked choice as one more pair), are taken by the page exactly when `from_content` takes the
//! JSON of the same values, the same fields refused, and what the page reads is those values.
//! Two readings are the page's own: an empty text is no answer (a browser sends one for every
//! field left blank), and an optional multi-select with nothing ticked is not answered.
//!
//! A rule a field's type adds beyond the schema is checked by the form's own reading, which the
//! page runs where its process knows the form: with it, the page refuses what `from_content`
//! refuses, beside the same fields; without it (a replica never told of the form), the page
//! parts from `from_content` by those rules and no other.

use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value};

use super::read::read;
use crate::Elicit;
use crate::client::answer::{choices_of, is_multi};
use crate::client::differential::{Every, Key, refused_beyond_schema, run, texts_for};
use crate::schema::{PrimitiveSchema, Property, RequestedSchema};
use crate::server::{FormCheck, PageForm};

/// Answers per form.
const CASES: u32 = 256;

/// What a browser posts: the body's pairs of a name and a text.
type Pairs = Vec<(String, String)>;

/// One field's answer: the JSON value it stands for (`None`: no answer), and the pairs a
/// browser posts for it.
type Answer = (Option<Value>, Pairs);

/// A field's answer, as a browser posts it.
fn answer_for(property: &Property) -> BoxedStrategy<Answer> {
    let name = property.name.to_string();
    let pair = move |text: String| vec![(name.clone(), text)];
    match &property.schema {
        PrimitiveSchema::String(_) => texts_for(property)
            .prop_map(move |text| {
                let value = (!text.is_empty()).then(|| Value::String(text.clone()));
                (value, pair(text))
            })
            .boxed(),
        // Only numbers a browser can send as JSON text: other text has no JSON value to hold
        // the page to, and is refused by both (`a_number_field_refuses_text_that_is_no_number`).
        PrimitiveSchema::Number(_) => {
            let blank = pair(String::new());
            let number = texts_for(property).prop_filter_map("a JSON number", move |text| {
                let number = serde_json::from_str::<serde_json::Number>(&text).ok()?;
                Some((Some(Value::Number(number)), pair(text)))
            });
            prop_oneof![9 => number, 1 => Just((None, blank))].boxed()
        }
        PrimitiveSchema::Boolean(_) => any::<bool>()
            .prop_map(move |ticked| {
                let posted = if ticked {
                    pair("true".to_owned())
                } else {
                    Vec::new()
                };
                (Some(Value::Bool(ticked)), posted)
            })
            .boxed(),
        schema if is_multi(schema) => {
            let values: Vec<String> = choices_of(schema)
                .into_iter()
                .filter_map(|choice| choice.value)
                .collect();
            let count = values.len();
            let required = property.required;
            let name = property.name.to_string();
            subsequence(values, 0..=count)
                .prop_shuffle()
                .prop_map(move |ticked| {
                    let posted = ticked.iter().map(|v| (name.clone(), v.clone())).collect();
                    let answered = required || !ticked.is_empty();
                    let value = answered.then(|| Value::from(ticked));
                    (value, posted)
                })
                .boxed()
        }
        schema => {
            let mut picks: Vec<Option<String>> = choices_of(schema)
                .into_iter()
                .map(|choice| choice.value)
                .collect();
            picks.push(None);
            select(picks)
                .prop_map(move |pick| match pick {
                    Some(value) => (Some(Value::String(value.clone())), pair(value)),
                    // The select's empty option, or a field the browser left out.
                    None => (None, pair(String::new())),
                })
                .boxed()
        }
    }
}

/// A whole answer to `schema`: the JSON of its values, and the body's pairs, the page's own
/// fields and an unknown one among them.
fn posted(schema: &RequestedSchema) -> BoxedStrategy<(Map<String, Value>, Pairs)> {
    let fields: Vec<(String, BoxedStrategy<Answer>)> = schema
        .properties()
        .iter()
        .map(|property| (property.name.to_string(), answer_for(property)))
        .collect();
    let names: Vec<String> = fields.iter().map(|(name, _)| name.clone()).collect();
    let answers: Vec<BoxedStrategy<Answer>> = fields.into_iter().map(|(_, a)| a).collect();
    (answers, any::<bool>())
        .prop_map(move |(answers, extras)| {
            let mut content = Map::new();
            let mut pairs = Vec::new();
            if extras {
                pairs.push(("_csrf".to_owned(), "token".to_owned()));
                pairs.push(("unknown".to_owned(), "x".to_owned()));
            }
            for (name, (value, posted)) in names.iter().zip(answers) {
                if let Some(value) = value {
                    content.insert(name.clone(), value);
                }
                pairs.extend(posted);
            }
            if extras {
                pairs.push(("_action".to_owned(), "send".to_owned()));
            }
            (content, pairs)
        })
        .boxed()
}

/// The fields each reading refuses: the page's, and `from_content`'s on the same values.
fn refused_fields(verdict: &Result<Map<String, Value>, Vec<(String, String)>>) -> Vec<String> {
    match verdict {
        Ok(_) => Vec::new(),
        Err(refused) => refused.iter().map(|(name, _)| name.clone()).collect(),
    }
}

/// Whether two JSON values are the same answer (a number by its value: the page reads `3.0`
/// of an integer field as `3`).
fn same_value(page: &Value, sent: &Value) -> bool {
    match (page, sent) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        _ => page == sent,
    }
}

/// Form `T` posted on the page: the page's verdict and reading held to `from_content`'s. With
/// the form known (`known`), the page runs the form's own reading and must agree exactly;
/// without, it may take what a rule beyond the schema refuses; the count of those it took.
fn the_page_reads_what_the_form_reads<T: Elicit>(known: bool) -> u32 {
    let form = PageForm::of::<T>(String::new());
    let (schema, secrets) = (&*form.schema, &form.secret_fields);
    let beyond = std::cell::Cell::new(0u32);
    run(posted(schema), CASES, |(content, pairs)| {
        let check = known.then(FormCheck::of::<T>);
        let (by_page, _shown) = read(schema, secrets, &pairs, check);
        let by_form: Vec<String> = match T::from_content(&content) {
            Ok(_) => Vec::new(),
            Err(errors) => errors
                .errors()
                .iter()
                .map(|e| e.field().to_owned())
                .collect(),
        };
        let mut by_page_fields = refused_fields(&by_page);
        by_page_fields.sort();
        let mut expected = by_form.clone();
        expected.sort();
        // What the page takes and the form refuses, by a rule beyond the schema, and only so.
        let (apart, other): (Vec<String>, Vec<String>) = expected
            .iter()
            .filter(|field| !by_page_fields.contains(field))
            .cloned()
            .partition(|field| {
                content
                    .get(field)
                    .is_some_and(|value| refused_beyond_schema(field, value))
            });
        let page_only: Vec<&String> = by_page_fields
            .iter()
            .filter(|field| !expected.contains(field))
            .collect();
        if !other.is_empty() || !page_only.is_empty() {
            return Err(TestCaseError::fail(format!(
                "{}: the page refuses {by_page_fields:?}, from_content refuses {expected:?} of \
                 {}\n  posted: {pairs:?}",
                std::any::type_name::<T>(),
                Value::Object(content.clone())
            )));
        }
        beyond.set(beyond.get() + apart.len() as u32);
        if let Ok(read) = &by_page {
            let same = read.len() == content.len()
                && read.iter().all(|(name, value)| {
                    content
                        .get(name)
                        .is_some_and(|sent| same_value(value, sent))
                });
            if !same {
                return Err(TestCaseError::fail(format!(
                    "the page read {} from values {}",
                    Value::Object(read.clone()),
                    Value::Object(content.clone())
                )));
            }
        }
        Ok(())
    });
    beyond.get()
}

#[test]
fn a_posted_form_of_every_field_kind_reads_as_from_content_reads_its_values() {
    let apart = the_page_reads_what_the_form_reads::<Every>(true);
    assert_eq!(apart, 0);
}

#[test]
fn a_posted_secret_form_reads_as_from_content_reads_its_values() {
    let apart = the_page_reads_what_the_form_reads::<Key>(true);
    assert_eq!(apart, 0);
}

#[cfg(all(feature = "url", feature = "jiff"))]
#[test]
fn a_known_form_with_typed_values_is_refused_on_the_page_as_from_content_refuses_it() {
    use crate::client::differential::Typed;
    let apart = the_page_reads_what_the_form_reads::<Typed>(true);
    assert_eq!(
        apart, 0,
        "the page took what the form's own reading refuses"
    );
    // And the same answers do try those rules: unknown, the page takes some of them.
    let unknown = the_page_reads_what_the_form_reads::<Typed>(false);
    assert!(unknown > 0, "no answer tried a rule beyond the schema");
}

#[test]
fn a_number_field_refuses_text_that_is_no_number() {
    let schema = Every::requested_schema();
    for text in [
        "abc", "1,5", "0x10", "1_000", "٣", "inf", "NaN", "1e400", "- 1",
    ] {
        let pairs = vec![("nights".to_owned(), text.to_owned())];
        let (by_page, _) = read(schema, &[], &pairs, None);
        assert!(
            refused_fields(&by_page).contains(&"nights".to_owned()),
            "{text}: {by_page:?}"
        );
    }
}
