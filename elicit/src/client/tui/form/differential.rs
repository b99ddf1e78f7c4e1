//! The ratatui widget's verdicts held to `from_content`: for each field of forms of every field
//! kind, keys typed into the field (text, a number, y/n, picks and ticks), the field's own
//! verdict (the error it shows, which keeps the form from Send) is none exactly when
//! `from_content` takes the answer the field sends, but for a rule a field's type adds beyond
//! the schema, which the widget cannot know: there it takes what `from_content` refuses, never
//! the other way.

use std::cell::RefCell;

use proptest::prelude::*;
use proptest::sample::select;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::field::Field;
use crate::Elicit;
use crate::client::differential::{Every, Key, Tally, run, texts_for};
use crate::schema::PrimitiveSchema;

/// Inputs per field.
const CASES: u32 = 96;

fn press(field: &mut Field, code: KeyCode) {
    if field.entry.handle(KeyEvent::new(code, KeyModifiers::NONE)) {
        field.touched = true;
    }
}

/// The keys of a field that is not typed into: moves, ticks, y and n, taking an answer back.
fn choice_keys() -> impl Strategy<Value = Vec<KeyCode>> {
    proptest::collection::vec(
        select(vec![
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Char(' '),
            KeyCode::Char('y'),
            KeyCode::Char('n'),
            KeyCode::Backspace,
        ]),
        0..8,
    )
}

/// Every field of `T` answered by keys; each text and number field seen both taken and refused.
fn fields_agree_with_the_form<T: Elicit>(beyond: bool) {
    let tally = RefCell::new(Tally::default());
    for property in T::requested_schema().properties() {
        let name = &*property.name;
        match &property.schema {
            PrimitiveSchema::String(_) | PrimitiveSchema::Number(_) => {
                run(texts_for(property), CASES, |input| {
                    let mut field = Field::new(property);
                    // A default is shown in the field at first: cleared, as a person would.
                    press_ctrl_u(&mut field);
                    for c in input.chars() {
                        press(&mut field, KeyCode::Char(c));
                    }
                    let shown = field.error().is_none();
                    let sent = field.entry.value();
                    tally.borrow_mut().agree::<T>(name, &input, shown, sent)
                })
            }
            _ => run(choice_keys(), CASES / 2, |keys| {
                let mut field = Field::new(property);
                for key in &keys {
                    press(&mut field, *key);
                }
                let shown = field.error().is_none();
                let sent = field.entry.value();
                let input = format!("{keys:?}");
                tally.borrow_mut().agree::<T>(name, &input, shown, sent)
            }),
        }
    }
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
    tally.into_inner().enough(&judged, beyond);
}

fn press_ctrl_u(field: &mut Field) {
    field
        .entry
        .handle(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
}

#[test]
fn every_kind_of_field_takes_what_the_form_takes() {
    fields_agree_with_the_form::<Every>(false);
}

#[test]
fn a_secret_form_s_fields_take_what_it_takes() {
    fields_agree_with_the_form::<Key>(false);
}

#[cfg(all(feature = "url", feature = "jiff"))]
#[test]
fn fields_take_what_a_typed_value_refuses_beyond_its_schema_and_nothing_else() {
    fields_agree_with_the_form::<crate::client::differential::Typed>(true);
}
