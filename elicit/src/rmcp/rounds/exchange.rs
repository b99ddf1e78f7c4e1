//! How an ask reaches the client and its answer comes back: the one place that knows the
//! protocol revisions apart. Each kind of ask builds a [`Request`] and reads the [`Answer`];
//! the exchange delivers it as a request on a 2025-11-25 session, as an input request of a
//! 2026-07-28 round, or as an input request of the task the call runs in (either revision).

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer, ServiceError};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::sealed::{Answer, Kind};
use super::state::RoundState;
use crate::rmcp::error::ElicitError;
use crate::rmcp::input::form_input_request;
use crate::rmcp::rounds::InTask;
use crate::rmcp::session;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitResult, ElicitationCapability};

#[cfg(feature = "url-mode")]
mod out_of_band;
mod task;

#[cfg(feature = "url-mode")]
pub(super) use out_of_band::UrlWait;

/// Where a call's asks go.
pub(super) enum Exchange {
    /// 2025-11-25: each ask is a request on the session, waiting at most `timeout` unless it
    /// says otherwise.
    Session {
        peer: Peer<RoleServer>,
        timeout: Option<Duration>,
    },
    /// 2026-07-28: answers from the sealed state and the retry, or an input request of this
    /// round. The capabilities the client declared in the request's `_meta`.
    Round {
        client: Option<sdk::ClientCapabilities>,
        /// How long a retry waits for a URL-mode elicitation to complete, and how long after
        /// it the elicitation is kept for the next retry.
        #[cfg(feature = "url-mode")]
        url_wait: UrlWait,
        state: Box<Mutex<RoundState>>,
    },
    /// Inside a task (the extension `io.modelcontextprotocol/tasks`), on either revision: the
    /// call that created the task is over, so each ask is an input request of the task, which
    /// is `input_required` while it waits; `tasks/update` brings the answer to the method's
    /// live future. The capabilities the client declared for the request that created it;
    /// the answers the call gathered in rounds before it continued as a task, by key.
    Task {
        task: InTask,
        client: Option<sdk::ClientCapabilities>,
        carried: BTreeMap<String, Answer>,
    },
}

/// What an ask sends, the same whichever way it goes.
pub(super) enum Request {
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

impl Exchange {
    pub fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        match self {
            Exchange::Session { peer, .. } => {
                peer.peer_info().map(|info| info.capabilities.clone())
            }
            Exchange::Round { client, .. } | Exchange::Task { client, .. } => client.clone(),
        }
    }

    /// The client's answer to `request`, asked under `key`: on 2025-11-25 sent now, waiting
    /// at most `timeout` (or the session's); on 2026-07-28 the answer carried or brought for
    /// `key`, or else `request` goes out in this round's `InputRequiredResult` and this never
    /// resolves (the run is dropped at the end of the round); inside a task, the answer
    /// `tasks/update` brings under `key`, waiting at most `timeout` if the ask gives one.
    pub async fn answer(
        &self,
        key: &str,
        request: Request,
        timeout: Option<Duration>,
    ) -> Result<Answer, ElicitError> {
        match self {
            Exchange::Session {
                peer,
                timeout: default,
            } => {
                request.check(self.client_capabilities().as_ref())?;
                let answer = request.send(peer, timeout.or(*default)).await?;
                Ok(request.keep(answer, None))
            }
            Exchange::Round { client, state, .. } => {
                {
                    let mut state = lock(state);
                    if let Some(answer) = request.answer_in(key, &mut state)? {
                        return Ok(answer);
                    }
                    request.check(client.as_ref())?;
                    let input = request.input_request(client.as_ref())?;
                    let shown = request.shown().cloned().unwrap_or_default();
                    state.ask(key, input, shown);
                }
                next_round().await
            }
            Exchange::Task {
                task,
                client,
                carried,
            } => {
                if let Some(answer) = carried.get(key) {
                    return request.carried_answer(key, answer);
                }
                request.check(client.as_ref())?;
                let input = request.task_input_request(client.as_ref())?;
                let response = task::input(task, key, input, timeout).await?;
                let answer = request.read(&response).ok_or_else(|| {
                    ElicitError::InvalidResult(crate::rmcp::InvalidResultError::new(format!(
                        "the answer under `{key}` is not a `{}` result: {response}",
                        request.kind().method()
                    )))
                })?;
                Ok(request.keep(answer, None))
            }
        }
    }

    /// Runs `work` on the round's state, on 2026-07-28; `None` on 2025-11-25 and inside a
    /// task, which have none (their asks are answered while the method waits).
    pub fn on_round<T>(&self, work: impl FnOnce(&mut RoundState) -> T) -> Option<T> {
        match self {
            Exchange::Session { .. } | Exchange::Task { .. } => None,
            Exchange::Round { state, .. } => Some(work(&mut lock(state))),
        }
    }

    /// Whether the round ends now (2026-07-28): the handler waits for input or was refused.
    pub fn round_ends(&self) -> bool {
        self.on_round(|state| state.ends()).unwrap_or(false)
    }

    /// Answers a handler's own input requests on 2025-11-25, one request each, in order: how a
    /// method that returns an `InputRequiredResult` itself is served there. `None` on
    /// 2026-07-28, where the result goes to the client as it is.
    pub async fn answer_on_session(
        &self,
        requests: sdk::InputRequests,
    ) -> Option<Result<sdk::InputResponses, ElicitError>> {
        let Exchange::Session { peer, timeout } = self else {
            return None;
        };
        let mut responses = sdk::InputResponses::new();
        for (key, request) in requests {
            let request = match request {
                sdk::InputRequest::Elicitation(request) => {
                    sdk::ServerRequest::ElicitRequest(request)
                }
                sdk::InputRequest::CreateMessage(request) => {
                    sdk::ServerRequest::CreateMessageRequest(request)
                }
                sdk::InputRequest::ListRoots(request) => {
                    sdk::ServerRequest::ListRootsRequest(request)
                }
                other => {
                    let message = format!(
                        "the handler asks under `{key}` for {other:?}, which this server cannot \
                         send on a 2025-11-25 session"
                    );
                    let error = sdk::ErrorData::internal_error(message, None);
                    return Some(Err(ElicitError::Service(ServiceError::McpError(error))));
                }
            };
            let result = match session::request(peer, request, *timeout).await {
                Ok(result) => result,
                Err(error) => return Some(Err(error)),
            };
            let value = match serde_json::to_value(result) {
                Ok(value) => value,
                Err(e) => {
                    return Some(Err(ElicitError::Service(ServiceError::McpError(
                        sdk::ErrorData::internal_error(
                            format!("cannot read the answer under `{key}`: {e}"),
                            None,
                        ),
                    ))));
                }
            };
            responses.insert(key, value);
        }
        Some(Ok(responses))
    }
}

impl Request {
    fn kind(&self) -> Kind {
        match self {
            Request::Form { .. } => Kind::Elicitation,
            #[cfg(feature = "url-mode")]
            Request::Url(_) => Kind::Elicitation,
            Request::Sampling(_) => Kind::Sampling,
            Request::Roots => Kind::Roots,
        }
    }

    fn shown(&self) -> Option<&Map<String, Value>> {
        match self {
            Request::Form { shown, .. } => Some(shown),
            _ => None,
        }
    }

    /// Refuses, before anything is sent, a request the client did not declare it can answer.
    fn check(&self, client: Option<&sdk::ClientCapabilities>) -> Result<(), ElicitError> {
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

    /// 2025-11-25: the request sent on the session, and the client's answer.
    async fn send(
        &self,
        peer: &Peer<RoleServer>,
        timeout: Option<Duration>,
    ) -> Result<Answer, ElicitError> {
        let unexpected = || ElicitError::Service(ServiceError::UnexpectedResponse);
        match self {
            Request::Form {
                schema, message, ..
            } => {
                let result =
                    session::elicit_schema_on(peer, schema.clone(), message.clone(), timeout)
                        .await?;
                Ok(Answer::Elicitation(result))
            }
            #[cfg(feature = "url-mode")]
            Request::Url(params) => {
                let params = crate::wire::ElicitRequestParams::Url(params.clone());
                Ok(Answer::Elicitation(
                    session::send(peer, &params, timeout).await?,
                ))
            }
            Request::Sampling(params) => {
                let request = sdk::ServerRequest::CreateMessageRequest(
                    sdk::CreateMessageRequest::new(params.clone()),
                );
                match session::request(peer, request, timeout).await? {
                    sdk::ClientResult::CreateMessageResult(result) => Ok(Answer::Sampling(result)),
                    _ => Err(unexpected()),
                }
            }
            Request::Roots => {
                let request = sdk::ServerRequest::ListRootsRequest(list_roots());
                match session::request(peer, request, timeout).await? {
                    sdk::ClientResult::ListRootsResult(result) => Ok(Answer::Roots(result)),
                    _ => Err(unexpected()),
                }
            }
        }
    }

    /// `answer`, carried under `key` from an earlier round: the same kind of request must ask
    /// for it, or the handler asks in another order than on its earlier run.
    fn carried_answer(&self, key: &str, answer: &Answer) -> Result<Answer, ElicitError> {
        if answer.kind() != self.kind() {
            return Err(ElicitError::AskedOutOfOrder {
                before: format!("a `{}` request under `{key}`", answer.kind().method()),
                now: format!("a `{}` request", self.kind().method()),
            });
        }
        Ok(answer.clone())
    }

    /// 2026-07-28: the answer under `key`, carried from an earlier round or read from this
    /// request's responses (then recorded, as it is kept); `None` when there is none yet. A
    /// response that is not a result of the request's kind counts as none: the request goes
    /// out again.
    fn answer_in(&self, key: &str, state: &mut RoundState) -> Result<Option<Answer>, ElicitError> {
        if let Some(answer) = state.answer(key) {
            return self.carried_answer(key, answer).map(Some);
        }
        let Some(answer) = state.response(key).and_then(|r| self.read(r)) else {
            return Ok(None);
        };
        let kept = self.keep(answer, state.shown_before(key));
        if self.carried() {
            state.record(key, kept.clone());
        }
        Ok(Some(kept))
    }

    /// A response from `inputResponses`, when it is a result of this request's kind.
    fn read(&self, response: &Value) -> Option<Answer> {
        match self.kind() {
            Kind::Elicitation => ElicitResult::deserialize(response)
                .ok()
                .map(Answer::Elicitation),
            Kind::Sampling => sdk::CreateMessageResult::deserialize(response)
                .ok()
                .map(|result| Answer::Sampling(Box::new(result))),
            Kind::Roots => sdk::ListRootsResult::deserialize(response)
                .ok()
                .map(Answer::Roots),
        }
    }

    /// What of `answer` the asker reads: of a form's answer the action and its own fields,
    /// those left out taking the defaults the form showed (`shown_then`, when the form was
    /// asked in an earlier round; else this request's own); no `_meta`. The other kinds are
    /// read whole.
    fn keep(&self, answer: Answer, shown_then: Option<&Map<String, Value>>) -> Answer {
        let Request::Form { shown, reads, .. } = self else {
            return answer;
        };
        let Answer::Elicitation(mut result) = answer else {
            return answer;
        };
        result.meta = None;
        if let Some(content) = &mut result.content {
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
    fn carried(&self) -> bool {
        match self {
            #[cfg(feature = "url-mode")]
            Request::Url(_) => false,
            _ => true,
        }
    }

    /// Inside a task: the input request as in a round, but a URL-mode elicitation carries its
    /// id (nothing is sealed, and the id is the client's to show).
    fn task_input_request(
        &self,
        client: Option<&sdk::ClientCapabilities>,
    ) -> Result<sdk::InputRequest, ElicitError> {
        match self {
            #[cfg(feature = "url-mode")]
            Request::Url(params) => Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
                sdk::ElicitRequestParams::UrlElicitationParams {
                    meta: None,
                    message: params.message().to_owned(),
                    url: params.url().to_owned(),
                    elicitation_id: params.elicitation_id().as_str().to_owned(),
                },
            ))),
            _ => self.input_request(client),
        }
    }

    /// 2026-07-28: the input request, in rmcp's model.
    fn input_request(
        &self,
        client: Option<&sdk::ClientCapabilities>,
    ) -> Result<sdk::InputRequest, ElicitError> {
        match self {
            Request::Form {
                schema, message, ..
            } => {
                let declared = client
                    .and_then(|client| client.elicitation.as_ref())
                    .map(ElicitationCapability::from);
                form_input_request(schema.clone(), declared.as_ref(), message.clone())
            }
            // Without an id of its own: the tracker's id stays in the sealed state. (rmcp
            // 3.11's model writes `elicitationId` as `""` when it has none.)
            #[cfg(feature = "url-mode")]
            Request::Url(params) => Ok(sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
                sdk::ElicitRequestParams::UrlElicitationParams {
                    meta: None,
                    message: params.message().to_owned(),
                    url: params.url().to_owned(),
                    elicitation_id: String::new(),
                },
            ))),
            Request::Sampling(params) => Ok(sdk::InputRequest::CreateMessage(
                sdk::CreateMessageRequest::new(params.clone()),
            )),
            Request::Roots => Ok(sdk::InputRequest::ListRoots(list_roots())),
        }
    }
}

fn lock(state: &Mutex<RoundState>) -> MutexGuard<'_, RoundState> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Never resolves: the run is dropped once the handler cannot go further this round.
pub(super) async fn next_round<T>() -> T {
    std::future::pending().await
}

fn list_roots() -> sdk::ListRootsRequest {
    sdk::ListRootsRequest {
        method: Default::default(),
        extensions: Default::default(),
    }
}
