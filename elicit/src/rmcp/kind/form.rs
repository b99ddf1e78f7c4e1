//! A form (form mode): a schema with a message, answered with the fields the person filled.

use std::borrow::Cow;
use std::sync::Arc;

use ::rmcp::model as sdk;
use serde_json::{Map, Value};

use super::{Answer, KindOfAsk, elicitation};
use crate::rmcp::convert::{Patterns, form_to_sdk};
use crate::rmcp::error::ElicitError;
use crate::schema::RequestedSchema;
use crate::wire::{
    ElicitMode, ElicitRequestFormParams, ElicitRequestParams, ElicitationCapability,
};

/// A form: `schema` (defaults filled in) with `message`. `shown` is what the form shows
/// beyond its type's own defaults; `reads` is the schema of the type that reads the answer,
/// whose fields are all an answer keeps.
pub(crate) struct Form {
    pub schema: Cow<'static, RequestedSchema>,
    pub message: String,
    pub shown: Map<String, Value>,
    pub reads: &'static RequestedSchema,
}

impl Form {
    fn params(&self) -> ElicitRequestFormParams {
        ElicitRequestFormParams::new(self.message.clone(), self.schema.clone())
    }
}

impl KindOfAsk for Form {
    fn method(&self) -> &'static str {
        elicitation::METHOD
    }

    /// The client must have declared form mode.
    fn check(&self, client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError> {
        let declared = client
            .and_then(|client| client.elicitation.as_ref())
            .map(ElicitationCapability::from);
        ElicitationCapability::require(declared.as_ref(), ElicitMode::Form)?;
        Ok(())
    }

    fn session_request(&self) -> Result<sdk::ServerRequest, ElicitError> {
        elicitation::session_request(&ElicitRequestParams::Form(self.params()))
    }

    fn read_session_result(&self, result: sdk::ClientResult) -> Result<Answer, ElicitError> {
        elicitation::session_answer(result)
    }

    /// Through rmcp's model, which has no `pattern`: a string's pattern is not sent on
    /// 2026-07-28 (the server still checks it in the answer).
    fn input_request(&self) -> Result<sdk::InputRequest, ElicitError> {
        let params =
            form_to_sdk(&self.params(), Patterns::Omit).map_err(ElicitError::Unrepresentable)?;
        Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
            params,
        )))
    }

    fn read(&self, response: &Value) -> Option<Answer> {
        elicitation::read(response)
    }

    fn read_owned(&self, response: Value) -> Option<Answer> {
        elicitation::read_owned(response)
    }

    /// The action and the form's own fields, those left out taking the defaults the form
    /// showed (`shown_then`, when asked in an earlier round; else this form's own); no
    /// `_meta`.
    fn keep(&self, answer: Answer, shown_then: Option<&Map<String, Value>>) -> Answer {
        let Answer::Elicitation(mut result) = answer else {
            return answer;
        };
        // The answer just read is this one's alone: no copy is made.
        let result_mut = Arc::make_mut(&mut result);
        result_mut.meta = None;
        if let Some(content) = &mut result_mut.content {
            for (name, value) in shown_then.unwrap_or(&self.shown) {
                if !content.contains_key(name) {
                    content.insert(name.clone(), value.clone());
                }
            }
            content.retain(|name, _| self.reads.property(name).is_some());
        }
        Answer::Elicitation(result)
    }

    fn shown(&self) -> Option<&Map<String, Value>> {
        Some(&self.shown)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A form, to read its answers.
    fn form() -> Form {
        #[derive(crate::Elicit)]
        #[elicit(crate = "crate")]
        #[allow(dead_code)]
        struct Booking {
            name: String,
        }
        Form {
            schema: Cow::Borrowed(<Booking as crate::Elicit>::requested_schema()),
            message: String::new(),
            shown: Map::new(),
            reads: <Booking as crate::Elicit>::requested_schema(),
        }
    }

    #[test]
    fn a_response_given_away_reads_as_the_same_response_borrowed() {
        let request = form();
        let responses = [
            json!({"action": "accept", "content": {"name": "Ada", "extra": [1, {"a": null}]}}),
            json!({"action": "accept", "content": null, "_meta": {"trace": "x"}}),
            json!({"action": "decline"}),
            json!({"action": "cancel", "unknown": 1}),
            json!({"action": "accept", "content": "not an object"}),
            json!({"action": "accept", "content": ["name"]}),
            json!({"action": "maybe", "content": {}}),
            json!({"content": {"name": "Ada"}}),
            json!({"action": "accept", "_meta": "not an object"}),
            json!({"action": "accept", "content": {}, "_meta": {"a": 1}}),
            json!({"action": "decline", "_meta": null}),
            json!({"action": null}),
            json!({"action": 1}),
            json!({"action": "Accept"}),
            json!({}),
            json!("accept"),
            json!(null),
        ];
        for response in responses {
            let borrowed = request
                .read(&response)
                .map(|answer| serde_json::to_value(answer).unwrap());
            let owned = request
                .read_owned(response.clone())
                .map(|answer| serde_json::to_value(answer).unwrap());
            assert_eq!(owned, borrowed, "{response}");
        }
        let content = |response: Value| match request.read_owned(response) {
            Some(Answer::Elicitation(result)) => Some(result.content.clone()),
            _ => None,
        };
        let accepted = content(json!({"action": "accept", "content": {"name": "Ada"}}));
        assert_eq!(
            accepted,
            Some(Some(json!({"name": "Ada"}).as_object().cloned().unwrap()))
        );
        assert_eq!(
            content(json!({"action": "decline", "content": null})),
            Some(None)
        );
        assert_eq!(content(json!({"action": "accept", "content": 1})), None);
    }
}
