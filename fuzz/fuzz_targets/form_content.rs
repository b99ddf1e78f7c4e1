//! A derived form's reading of a client's answer: `from_content`, `from_content_owned` and
//! `from_result` of the form with every kind of field and of the examples' forms, and the
//! reading of a response to it in a 2026-07-28 retry (`inputResponses`).
//!
//! Input: one byte choosing the form (`elicit_fuzz::on_form`), then the content's JSON text (or
//! a whole result's), then optionally a record separator (0x1E) and the defaults the form
//! showed, as a JSON object.

#![no_main]

use elicit_fuzz::{OnForm, ToContent, on_form, parts, selector};
use elicit_mcp::__fuzz::read_response;
use elicit_mcp::wire::{ElicitAction, ElicitResult};
use elicit_mcp::{Elicit, ElicitOutcome};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let (form, rest) = selector(data);
    on_form(form, Answer(rest));
});

struct Answer<'a>(&'a [u8]);

impl OnForm for Answer<'_> {
    type Out = ();

    fn on<T: Elicit>(self, to_content: Option<ToContent<T>>) {
        let parts = parts(self.0);
        let text = parts[0];
        let shown = parts
            .get(1)
            .and_then(|shown| serde_json::from_slice::<Map<String, Value>>(shown).ok())
            .unwrap_or_default();

        // The text as a whole result: an accept reads as its content does.
        if let Ok(result) = serde_json::from_slice::<ElicitResult>(text) {
            let outcome = T::from_result(&result);
            if let (ElicitAction::Accept, Some(content)) = (result.action, &result.content) {
                let read = T::from_content(content);
                match (&outcome, &read) {
                    (Ok(ElicitOutcome::Accepted(_)), Ok(_)) => {}
                    (Err(by_result), Err(by_content)) => assert_eq!(by_result, by_content),
                    _ => panic!("from_result and from_content disagree on {content:?}"),
                }
            }
        }

        let Ok(value) = serde_json::from_slice::<Value>(text) else {
            return;
        };
        // A response in a retry, read borrowed and given away: the same answer.
        let (borrowed, owned) = read_response::<T>(&value, &shown);
        assert_eq!(borrowed, owned, "{value}");

        let Value::Object(content) = value else {
            return;
        };
        let read = T::from_content(&content);
        let owned = T::from_content_owned(content.clone());
        assert_eq!(read.as_ref().err(), owned.as_ref().err());
        assert_eq!(read.is_ok(), owned.is_ok());
        match &read {
            Ok(form) => {
                // The derived parser accepts nothing its own schema refuses.
                if let Err(errors) = T::requested_schema().validate_content(&content) {
                    panic!("from_content accepted what its schema refuses ({errors}): {content:?}");
                }
                // Written back, what it read reads again as the same.
                if let Some(to_content) = to_content {
                    let written = to_content(form);
                    let again = T::from_content(&written).unwrap_or_else(|errors| {
                        panic!("a form read and written back does not read ({errors}): {written:?}")
                    });
                    assert_eq!(to_content(&again), written);
                }
            }
            Err(errors) => {
                assert!(!errors.errors().is_empty());
                let _ = errors.to_string();
            }
        }
    }
}
