//! What an ask sends and what comes back, the same whichever way it goes: a [`Request`] built
//! by the ask, an [`Answer`] read for it. Each way of asking (a 2025-11-25 request, a
//! 2026-07-28 round, a task's input request) delivers the one and reads the other.

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use std::borrow::Cow;
use std::sync::Arc;

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::rmcp::error::ElicitError;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitAction, ElicitResult};

/// What an ask sends.
pub(crate) enum Request {
    /// A form: `schema` (defaults filled in) with `message`. `shown` is what the form shows
    /// beyond its type's own defaults; `reads` is the schema of the type that reads the
    /// answer, whose fields are all an answer keeps.
    Form {
        schema: Cow<'static, RequestedSchema>,
        message: String,
        shown: Map<String, Value>,
        reads: &'static RequestedSchema,
    },
    /// A URL-mode elicitation the tracker started.
    #[cfg(feature = "url-mode")]
    Url(crate::wire::ElicitRequestUrlParams),
    Sampling(sdk::CreateMessageRequestParams),
    Roots,
}

/// One answer, as the handler reads it (and as a 2026-07-28 state carries it).
#[derive(Serialize, Deserialize, Debug, Clone)]
#[serde(tag = "kind", content = "result", rename_all = "snake_case")]
pub(crate) enum Answer {
    /// `elicitation/create`: the action and, for a form, only the fields it reads (those the
    /// answer left out filled with the defaults the form showed). No `_meta`.
    ///
    /// Shared: a round keeps it for the state it may seal while the ask reads it.
    Elicitation(Arc<ElicitResult>),
    /// `sampling/createMessage`: the client's result as rmcp's model reads it.
    Sampling(Box<sdk::CreateMessageResult>),
    /// `roots/list`: the client's result as rmcp's model reads it.
    Roots(sdk::ListRootsResult),
}

impl Answer {
    pub fn kind(&self) -> Kind {
        match self {
            Answer::Elicitation(_) => Kind::Elicitation,
            Answer::Sampling(_) => Kind::Sampling,
            Answer::Roots(_) => Kind::Roots,
        }
    }
}

/// What kind of request an ask sends: the method it goes out as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Elicitation,
    Sampling,
    Roots,
}

impl Kind {
    pub fn method(self) -> &'static str {
        match self {
            Kind::Elicitation => "elicitation/create",
            Kind::Sampling => "sampling/createMessage",
            Kind::Roots => "roots/list",
        }
    }
}

impl Request {
    pub fn kind(&self) -> Kind {
        match self {
            Request::Form { .. } => Kind::Elicitation,
            #[cfg(feature = "url-mode")]
            Request::Url(_) => Kind::Elicitation,
            Request::Sampling(_) => Kind::Sampling,
            Request::Roots => Kind::Roots,
        }
    }

    /// What a form shows beyond its type's own defaults.
    pub fn shown(&self) -> Option<&Map<String, Value>> {
        match self {
            Request::Form { shown, .. } => Some(shown),
            _ => None,
        }
    }

    /// Refuses, before anything is sent, a request the client did not declare it can answer.
    pub fn check(&self, client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError> {
        let declared =
            |capability: &'static str, has: fn(&sdk::ClientCapabilities) -> bool| match client {
                Some(client) if has(client) => Ok(()),
                _ => Err(ElicitError::CapabilityNotDeclared { capability }),
            };
        match self {
            // A form is checked as it is built, on each revision's wire; URL mode before the
            // tracker stores anything.
            Request::Form { .. } => Ok(()),
            #[cfg(feature = "url-mode")]
            Request::Url(_) => Ok(()),
            Request::Sampling(params) => {
                declared("sampling", |c| c.sampling.is_some())?;
                // What rmcp's `create_message` checks, on both revisions.
                let refused = |message: String| {
                    ElicitError::Service(ServiceError::McpError(sdk::ErrorData::invalid_params(
                        message, None,
                    )))
                };
                let tools_declared = client
                    .and_then(|c| c.sampling.as_ref())
                    .and_then(|s| s.tools.as_ref())
                    .is_some();
                if (params.tools.is_some() || params.tool_choice.is_some()) && !tools_declared {
                    return Err(refused(
                        "tools or toolChoice given, but the client did not declare sampling tools"
                            .to_owned(),
                    ));
                }
                params.validate().map_err(refused)
            }
            Request::Roots => declared("roots", |c| c.roots.is_some()),
        }
    }

    /// `answer`, carried under `key` from an earlier round (or into a task): the same kind of
    /// request must ask for it, or the handler asks in another order than on its earlier run.
    pub fn carried_answer(&self, key: &str, answer: &Answer) -> Result<Answer, ElicitError> {
        if answer.kind() != self.kind() {
            return Err(ElicitError::AskedOutOfOrder {
                before: format!("a `{}` request under `{key}`", answer.kind().method()),
                now: format!("a `{}` request", self.kind().method()),
            });
        }
        Ok(answer.clone())
    }

    /// A response from `inputResponses` or `tasks/update`, when it is a result of this
    /// request's kind: borrowed (`&Value`), or given away (`Value`), whose text moves into the
    /// answer rather than being copied.
    pub fn read<'de, D: Deserializer<'de>>(&self, response: D) -> Option<Answer> {
        match self.kind() {
            Kind::Elicitation => ElicitResult::deserialize(response)
                .ok()
                .map(|result| Answer::Elicitation(Arc::new(result))),
            Kind::Sampling => sdk::CreateMessageResult::deserialize(response)
                .ok()
                .map(|result| Answer::Sampling(Box::new(result))),
            Kind::Roots => sdk::ListRootsResult::deserialize(response)
                .ok()
                .map(Answer::Roots),
        }
    }

    /// [`read`](Self::read) of a response given away: a form's result is taken apart in place,
    /// its content moving into the answer whole, where the derived read would rebuild it key
    /// by key. The same answers as `read`, the same refusals (a test holds it to that).
    pub fn read_owned(&self, response: Value) -> Option<Answer> {
        match (self.kind(), response) {
            (Kind::Elicitation, Value::Object(mut result)) => {
                let action = ElicitAction::deserialize(result.remove("action")?).ok()?;
                let mut object = |name: &str| match result.remove(name) {
                    None | Some(Value::Null) => Ok(None),
                    Some(Value::Object(object)) => Ok(Some(object)),
                    Some(_) => Err(()),
                };
                let content = object("content").ok()?;
                let meta = object("_meta").ok()?;
                Some(Answer::Elicitation(Arc::new(ElicitResult {
                    action,
                    content,
                    meta,
                })))
            }
            (_, response) => self.read(response),
        }
    }

    /// What of `answer` the asker reads: of a form's answer the action and its own fields,
    /// those left out taking the defaults the form showed (`shown_then`, when the form was
    /// asked in an earlier round; else this request's own); no `_meta`. The other kinds are
    /// read whole.
    pub fn keep(&self, answer: Answer, shown_then: Option<&Map<String, Value>>) -> Answer {
        let Request::Form { shown, reads, .. } = self else {
            return answer;
        };
        let Answer::Elicitation(mut result) = answer else {
            return answer;
        };
        // The answer just read is this one's alone: no copy is made.
        let result_mut = Arc::make_mut(&mut result);
        result_mut.meta = None;
        if let Some(content) = &mut result_mut.content {
            for (name, value) in shown_then.unwrap_or(shown) {
                if !content.contains_key(name) {
                    content.insert(name.clone(), value.clone());
                }
            }
            content.retain(|name, _| reads.property(name).is_some());
        }
        Answer::Elicitation(result)
    }

    /// Whether the answer is carried to later rounds as it is. A URL-mode elicitation's
    /// answer is not: its flow in the state carries what came of it.
    pub fn carried(&self) -> bool {
        match self {
            #[cfg(feature = "url-mode")]
            Request::Url(_) => false,
            _ => true,
        }
    }
}

/// The params-less `roots/list` request.
pub(crate) fn list_roots() -> sdk::ListRootsRequest {
    sdk::ListRootsRequest {
        method: Default::default(),
        extensions: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A request for a form, to read its answers.
    fn form() -> Request {
        #[derive(crate::Elicit)]
        #[elicit(crate = "crate")]
        #[allow(dead_code)]
        struct Booking {
            name: String,
        }
        Request::Form {
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
