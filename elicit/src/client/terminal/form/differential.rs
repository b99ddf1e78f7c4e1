//! The terminal renderer's verdicts held to `from_content`: for each field of forms of every
//! field kind and each generated input, the prompt's own verdict (the validator or parser
//! inquire is given) takes the input exactly when `from_content` takes the answer the prompt
//! sends for it, but for a rule a field's type adds beyond the schema, which the terminal
//! cannot know: there it takes what `from_content` refuses, never the other way.

use std::cell::RefCell;

use inquire::validator::Validation;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use serde_json::Value;

use super::{Field, YesNo, selection_verdict, yes_no};
use crate::Elicit;
use crate::client::answer::{choices_of, number_value, text_value};
use crate::client::differential::{Every, Key, Tally, run, texts_for};
use crate::schema::{PrimitiveSchema, Property};

/// Inputs per field: enough for both verdicts of every rule a field's texts reach.
const CASES: u32 = 96;

fn taken(verdict: &Validation) -> bool {
    matches!(verdict, Validation::Valid)
}

/// Every field of `T` through the prompt its kind gets; each text and number field seen both
/// taken and refused.
fn prompts_agree_with_the_form<T: Elicit>(beyond: bool) -> Tally {
    let tally = RefCell::new(Tally::default());
    for property in T::requested_schema().properties() {
        let name = &*property.name;
        match &property.schema {
            PrimitiveSchema::String(_) => run(texts_for(property), CASES, |input| {
                let field = Field::new(property, None);
                let shown = taken(&field.text_verdict(&input));
                let sent = Ok(text_value(&input));
                tally.borrow_mut().agree::<T>(name, &input, shown, sent)
            }),
            PrimitiveSchema::Number(number) => run(texts_for(property), CASES, |input| {
                let field = Field::new(property, None);
                let shown = taken(&field.number_verdict(number.kind, &input));
                let sent = number_value(&input, number.kind);
                tally.borrow_mut().agree::<T>(name, &input, shown, sent)
            }),
            PrimitiveSchema::Boolean(_) => run(texts_for(property), CASES, |input| {
                let read = yes_no(property.required, &input);
                let shown = read.is_ok();
                let sent = read.map(|YesNo(answer)| answer.map(Value::Bool));
                tally.borrow_mut().agree::<T>(name, &input, shown, sent)
            }),
            PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => {
                selections_agree::<T>(property, &tally)
            }
            // A select sends the choice picked, or nothing from "(leave empty)", which only an
            // optional one offers: nothing to refuse.
            _ => {
                let mut picks: Vec<Option<Value>> = choices_of(&property.schema)
                    .into_iter()
                    .map(|choice| choice.value.map(Value::String))
                    .collect();
                if !property.required {
                    picks.push(None);
                }
                run(select(picks), 8, |pick| {
                    let shown = format!("{pick:?}");
                    tally.borrow_mut().agree::<T>(name, &shown, true, Ok(pick))
                });
            }
        }
    }
    let tally = tally.into_inner();
    let judged: Vec<&str> = T::requested_schema()
        .properties()
        .iter()
        .filter(|p| {
            matches!(
                p.schema,
                PrimitiveSchema::String(_) | PrimitiveSchema::Number(_)
            )
        })
        .map(|p| &*p.name)
        .collect();
    tally.enough(&judged, beyond);
    tally
}

/// A multi-select's verdict on every set of ticks, in any order.
fn selections_agree<T: Elicit>(property: &Property, tally: &RefCell<Tally>) {
    let alone = crate::client::answer::alone(property);
    let choices = choices_of(&property.schema);
    let count = choices.len();
    run(
        subsequence(choices, 0..=count).prop_shuffle(),
        CASES / 4,
        |ticked| {
            let shown = taken(&selection_verdict(&alone, property.required, &ticked));
            let sent = crate::client::answer::picked_value(property.required, &ticked);
            let input = format!("{ticked:?}");
            tally
                .borrow_mut()
                .agree::<T>(&property.name, &input, shown, Ok(sent))
        },
    );
}

#[test]
fn every_kind_of_prompt_takes_what_the_form_takes() {
    prompts_agree_with_the_form::<Every>(false);
}

#[test]
fn a_secret_form_s_prompts_take_what_it_takes() {
    prompts_agree_with_the_form::<Key>(false);
}

#[cfg(all(feature = "url", feature = "jiff"))]
#[test]
fn prompts_take_what_a_typed_value_refuses_beyond_its_schema_and_nothing_else() {
    prompts_agree_with_the_form::<crate::client::differential::Typed>(true);
}
