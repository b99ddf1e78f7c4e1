//! The kinds of ask: what each sends and how its answer comes back, whichever way it goes.
//!
//! A kind of ask (a form, a URL-mode elicitation, the client's model sampling, its roots) is
//! one type in a module of its own, implementing [`KindOfAsk`]: what the client must have
//! declared and what is refused before anything is sent ([`check`](KindOfAsk::check)); its
//! request on a 2025-11-25 session and how the client's result reads
//! ([`session_request`](KindOfAsk::session_request),
//! [`read_session_result`](KindOfAsk::read_session_result)); its input request (2026-07-28's
//! rounds and a task's) and how a response to it reads
//! ([`input_request`](KindOfAsk::input_request), [`read`](KindOfAsk::read)); and what of its
//! [`Answer`] is kept for the handler and carried in the sealed state
//! ([`keep`](KindOfAsk::keep), [`carried`](KindOfAsk::carried)). A secure page goes out as a
//! URL-mode elicitation, its page and store being the ask's own (`ask/secure.rs`). The ways
//! of asking (`revision/v2025_11_25`'s requests, `revision/v2026_07_28`'s rounds, a task's
//! input requests in `task_inputs`) call the trait and never match on the kind; the ask builds
//! the kind's value and reads its [`Answer`].
//!
//! Why a trait object ([`Request`] is `Box<dyn KindOfAsk>`) and not a type parameter: the
//! ways are themselves trait objects ([`Way`](crate::rmcp::ask::way::Way), held by every
//! `Ask` as `Arc<dyn Way>`), and a generic `answer::<K>` would make `Way` unusable as one.
//! One allocation per ask is nothing beside the round trip to the client it stands for.
//!
//! [`Answer`] stays an enum: it is data, the serde form a 2026-07-28 state seals (a `kind`
//! tag and the client's `result`), which a state sealed before must still open to. A new kind
//! whose result is none of its variants adds one (a line) beside its module.

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

pub(crate) mod elicitation;
pub(crate) mod form;
pub(crate) mod roots;
pub(crate) mod sampling;
#[cfg(feature = "url-mode")]
pub(crate) mod url;

use std::sync::Arc;

use ::rmcp::model as sdk;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rmcp::error::ElicitError;
use crate::wire::ElicitResult;

/// What an ask sends: one kind of ask, as the ways deliver it.
pub(crate) type Request = Box<dyn KindOfAsk>;

/// One kind of ask: its check, its encodings on each way, the reading and keeping of its
/// answer.
pub(crate) trait KindOfAsk: Send + Sync {
    /// The method it goes out as (`elicitation/create`, ...), which its answer is checked
    /// against when carried from an earlier round.
    fn method(&self) -> &'static str;

    /// Refuses, before anything is sent, a request the client did not declare it can answer
    /// (`client`: the capabilities it declared for the call).
    fn check(&self, client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError>;

    /// As a request on a 2025-11-25 session, once [`check`](Self::check)ed.
    fn session_request(&self) -> Result<sdk::ServerRequest, ElicitError>;

    /// The answer in the client's result to [`session_request`](Self::session_request).
    fn read_session_result(&self, result: sdk::ClientResult) -> Result<Answer, ElicitError>;

    /// As an input request (2026-07-28's rounds, a task's `inputRequests`), once
    /// [`check`](Self::check)ed, in rmcp's model.
    fn input_request(&self) -> Result<sdk::InputRequest, ElicitError>;

    /// A response from `tasks/update`, when it is a result of this kind; `None` otherwise.
    fn read(&self, response: &Value) -> Option<Answer>;

    /// A response from `inputResponses`, given away: the same answers and refusals as
    /// [`read`](Self::read), its text moving into the answer rather than being copied.
    fn read_owned(&self, response: Value) -> Option<Answer>;

    /// What of `answer` the asker reads and a state carries (`shown_then`: what the ask
    /// showed, when it was asked in an earlier round). The whole answer unless the kind
    /// says otherwise.
    fn keep(&self, answer: Answer, _shown_then: Option<&Map<String, Value>>) -> Answer {
        answer
    }

    /// What the ask shows beyond its own defaults, kept in the state for the round that
    /// reads the answer.
    fn shown(&self) -> Option<&Map<String, Value>> {
        None
    }

    /// Whether the answer is carried to later rounds as it is (a URL-mode elicitation's is
    /// not: its flow in the state carries what came of it).
    fn carried(&self) -> bool {
        true
    }
}

impl dyn KindOfAsk + '_ {
    /// `answer`, carried under `key` from an earlier round (or into a task): the same kind of
    /// request must ask for it, or the handler asks in another order than on its earlier run.
    pub fn carried_answer(&self, key: &str, answer: &Answer) -> Result<Answer, ElicitError> {
        if answer.method() != self.method() {
            return Err(ElicitError::AskedOutOfOrder {
                before: format!("a `{}` request under `{key}`", answer.method()),
                now: format!("a `{}` request", self.method()),
            });
        }
        Ok(answer.clone())
    }
}

/// One answer, as the handler reads it (and as a 2026-07-28 state carries it): the serde form
/// of the sealed state, which must stay readable.
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
    /// The method whose result this is.
    pub fn method(&self) -> &'static str {
        match self {
            Answer::Elicitation(_) => elicitation::METHOD,
            Answer::Sampling(_) => sampling::METHOD,
            Answer::Roots(_) => roots::METHOD,
        }
    }
}

/// A handler's own input request under `key` (in rmcp's model) as the request on a
/// 2025-11-25 session it stands for; [`ElicitError::UnsendableInputRequest`] when it stands for
/// none.
pub(crate) fn as_session_request(
    key: &str,
    input: sdk::InputRequest,
) -> Result<sdk::ServerRequest, ElicitError> {
    match input {
        sdk::InputRequest::Elicitation(request) => Ok(sdk::ServerRequest::ElicitRequest(request)),
        sdk::InputRequest::CreateMessage(request) => {
            Ok(sdk::ServerRequest::CreateMessageRequest(request))
        }
        sdk::InputRequest::ListRoots(request) => Ok(sdk::ServerRequest::ListRootsRequest(request)),
        other => Err(ElicitError::UnsendableInputRequest {
            key: key.to_owned(),
            request: format!("{other:?}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::roots::Roots;
    use super::*;

    #[test]
    fn an_answer_is_carried_only_to_an_ask_of_its_method() {
        let answer: Answer = serde_json::from_value(serde_json::json!({
            "kind": "roots", "result": {"roots": []}
        }))
        .unwrap();
        let roots: Request = Box::new(Roots);
        assert!(roots.carried_answer("k", &answer).is_ok());

        let form: Request = Box::new(form::Form {
            schema: std::borrow::Cow::Owned(crate::schema::RequestedSchema::new(Vec::new())),
            message: String::new(),
            shown: Map::new(),
            reads: const { &crate::schema::RequestedSchema::from_static(&[]) },
        });
        match form.carried_answer("k", &answer) {
            Err(ElicitError::AskedOutOfOrder { before, now }) => {
                assert_eq!(before, "a `roots/list` request under `k`");
                assert_eq!(now, "a `elicitation/create` request");
            }
            other => panic!("carried across kinds: {other:?}"),
        }
    }
}
