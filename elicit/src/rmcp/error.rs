//! [`ElicitError`]: why an ask through rmcp gave no outcome, and the JSON-RPC error or tool
//! result a handler answers with.

use std::fmt;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::ServiceError;

use crate::UnexpectedContentError;
use crate::form::error::ContentError;
use crate::rmcp::convert::{InvalidResultError, UnrepresentableError};
#[cfg(feature = "url-mode")]
use crate::server::{CompletionError, StartError};
use crate::wire::{JsonRpcError, ModeNotSupportedError};

/// Why a typed elicitation through rmcp gave no outcome.
///
/// The request went out (and the client may have shown it to the user) with
/// [`InvalidContent`](ElicitError::InvalidContent),
/// [`UnexpectedContent`](ElicitError::UnexpectedContent),
/// [`InvalidResult`](ElicitError::InvalidResult), [`TimedOut`](ElicitError::TimedOut),
/// [`SessionEnded`](ElicitError::SessionEnded) and, in URL mode, `NotCompleted`;
/// with [`Service`](ElicitError::Service) it was sent and answered with a JSON-RPC error, or
/// could not be sent. Every other variant means nothing was sent.
///
/// A tool handler can hand the error to the model or the user as it is:
/// [`to_tool_result`](ElicitError::to_tool_result) makes an error `CallToolResult` whose text
/// lists every field at fault, and `ErrorData::from` a JSON-RPC error that carries them in
/// `data`.
#[derive(Debug)]
#[non_exhaustive]
pub enum ElicitError {
    /// The client did not declare the mode (or elicitation at all).
    ModeNotSupported(ModeNotSupportedError),
    /// The client did not declare the capability the request needs: `sampling` for
    /// [`Ask::sample`](crate::rmcp::Ask::sample), `roots` for
    /// [`Ask::roots`](crate::rmcp::Ask::roots). Nothing was sent.
    CapabilityNotDeclared {
        /// The capability, as `ClientCapabilities` names it.
        capability: &'static str,
    },
    /// The session's protocol (2026-07-28 or later) forbids server-to-client requests: the ask
    /// came from [`ElicitPeer::ask`](crate::rmcp::ElicitPeer::ask) rather than from an `Ask` of
    /// a call an [`Elicitation`](crate::rmcp::Elicitation) runs, which would answer with an
    /// input-required result.
    RequestsNotAllowed {
        /// The negotiated protocol version.
        protocol_version: String,
    },
    /// The form cannot be put in rmcp's model, which the input-required flow needs: a length
    /// past `u32`, an integer past what a double holds. (The form call sends the form as elicit
    /// writes it and does not need rmcp's model.)
    Unrepresentable(UnrepresentableError),
    /// The URL-mode elicitation could not be started: the URL breaks the policy, no
    /// randomness, the store failed.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    Start(StartError),
    /// The user accepted, but the content does not match the form: every field error.
    InvalidContent(ContentError),
    /// The user accepted a URL-mode elicitation and the client sent content along, which URL
    /// mode forbids.
    UnexpectedContent(UnexpectedContentError),
    /// The client's answer is not a valid elicitation result.
    InvalidResult(InvalidResultError),
    /// The user consented to a URL-mode elicitation asked with
    /// [`Ask::url`](crate::rmcp::Ask::url), but it did not complete: it expired first, or was
    /// discarded, or the store failed.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    NotCompleted(CompletionError),
    /// The client did not answer within the ask's timeout
    /// ([`Elicitation::with_timeout`](crate::rmcp::Elicitation::with_timeout), or
    /// [`FormAsk::with_timeout`](crate::rmcp::FormAsk::with_timeout)) on 2025-11-25, or within the
    /// ask's own [`FormAsk::with_timeout`](crate::rmcp::FormAsk::with_timeout) inside a task. The
    /// request was cancelled (`notifications/cancelled`; inside a task it is withdrawn from the
    /// task's `inputRequests`), so a late answer is dropped.
    TimedOut {
        /// How long the ask waited.
        waited: Duration,
    },
    /// The session ended (the client went away, the transport closed, or the server shut the
    /// session down) while the ask waited for the client's answer.
    SessionEnded,
    /// The task the ask was made in was cancelled (`tasks/cancel`) while the ask waited for
    /// the user's answer. The task settles `cancelled` whatever the method does next.
    TaskCancelled,
    /// rmcp failed to get an answer otherwise: the client answered with a JSON-RPC error, or
    /// the request could not be sent.
    Service(ServiceError),
    /// Two asks of one call would go under the same input key, and their answers would be
    /// mixed up: two different forms (or kinds of request) with one key, or an explicit key
    /// that a repeat ask also takes (`booking-2` beside the second ask of `booking`). Name one
    /// with `#[elicit(key = "..")]` or [`FormAsk::with_key`](crate::rmcp::FormAsk::with_key). Found
    /// before the second was sent.
    DuplicateKey {
        /// The key both ask under.
        key: String,
        /// What asked under it first (`the form `app::Booking``).
        first: String,
        /// What asked under it next.
        second: String,
    },
    /// The form under `key` was asked as many times as one call may
    /// ([`Elicitation::with_max_asks`](crate::rmcp::Elicitation::with_max_asks)) and the answers
    /// kept failing it. Nothing more was sent.
    TooManyAsks {
        /// The form's key.
        key: String,
        /// How many asks one call may make of one form.
        limit: u32,
        /// The field errors of the last answer, when it was a re-ask that gave up.
        errors: Option<ContentError>,
    },
    /// The handler asked for something else, at this point of the call, than its earlier run
    /// did (2026-07-28 replays the handler from the start each round): the handler's mistake,
    /// not the client's. A handler asks for the same things in the same order on every run,
    /// and acts only after its last ask. Nothing was sent.
    AskedOutOfOrder {
        /// The ask the earlier run made here: its input key and who asked.
        before: String,
        /// The ask this run made instead.
        now: String,
    },
    /// The call that asked was cancelled by the client (`notifications/cancelled`) while the
    /// ask waited: the request was withdrawn from the client (2025-11-25).
    CallCancelled,
    /// The task the ask was made in is gone (expired, or the runtime shut down), or refused
    /// the ask's input request: the server's side, never the client's.
    TaskGone {
        /// What the task runtime said.
        message: String,
    },
    /// An ask was made outside a call an [`Elicitation`](crate::rmcp::Elicitation) runs: a
    /// server that is not served through one, or a task the handler spawned itself
    /// ([`Ask::current`](crate::rmcp::Ask::current), or a method taking an `Ask`). The
    /// handler's mistake. Nothing was sent.
    NotInCall,
    /// The handler calls [`Ask::continue_as_task`](crate::rmcp::Ask::continue_as_task), but its
    /// tool is not declared with
    /// [`Tasks::optional_after_asks`](crate::rmcp::Tasks::optional_after_asks) or
    /// [`required_after_asks`](crate::rmcp::Tasks::required_after_asks). The handler's mistake.
    NotDeclaredForTasks,
    /// The handler asks in URL mode (`Ask::url`, feature `url-mode`), but the elicitation
    /// has no tracker (`Elicitation::with_url_mode`).
    /// The handler's mistake. Nothing was sent.
    UrlModeNotConfigured,
    /// The handler asks on the server's page (`Ask::secure`, feature `url-mode`), but the
    /// elicitation has no page
    /// (`Elicitation::with_secure_page`). The handler's mistake. Nothing was sent.
    SecurePageNotConfigured,
    /// The page's answer to a form asked with `Ask::secure` (feature `url-mode`) is no longer
    /// held: it was read on an earlier run of this call (on 2026-07-28 the handler runs
    /// again each round: ask `secure` after every other ask), or kept past its time.
    SecureAnswerGone {
        /// The URL-mode elicitation the page answered.
        id: String,
    },
    /// The handler asks in URL mode, which binds the elicitation to its user, but the
    /// elicitation knows no user for this request
    /// (`Elicitation::with_authentication`, feature `http`,
    /// [`with_local_user`](crate::rmcp::Elicitation::with_local_user)). Nothing was sent.
    NoUser,
    /// A [step](crate::rmcp::Ask::step) could not be recorded or replayed: its result cannot be
    /// written as JSON, or the result an earlier run recorded does not read as the step's type.
    Step {
        /// The step's number in the handler, from 1.
        step: u32,
        /// What was wrong.
        problem: String,
    },
    /// A method that answers with an `InputRequiredResult` of its own asked, under `key`, for
    /// something a 2025-11-25 session cannot send as a request. The handler's mistake.
    UnsendableInputRequest {
        /// The input key.
        key: String,
        /// The input request, as rmcp's model shows it.
        request: String,
    },
    /// A hand-written handler asked on a call of a tool whose earlier calls all answered
    /// without asking, so the call was not bound to its arguments before the handler took
    /// them, and its state cannot be sealed. From now on the tool's calls are bound before
    /// they run: the next call asks as it should. A handler that asks on some calls only
    /// takes its ask first ([`Ask::current`](crate::rmcp::Ask::current)) on every call.
    AskedWithoutBinding,
    /// A default given at run time
    /// ([`FormAsk::with_defaults`](crate::rmcp::FormAsk::with_defaults)) that the field's rules
    /// refuse (a range, a pattern, a length). Nothing was sent.
    InvalidDefault {
        /// The form's key.
        key: String,
        /// Every default at fault.
        errors: ContentError,
    },
}

impl ElicitError {
    /// The field errors, when the user's answer did not match the form.
    pub fn content_error(&self) -> Option<&ContentError> {
        match self {
            ElicitError::InvalidContent(e) => Some(e),
            _ => None,
        }
    }

    /// An error tool result (`isError: true`) whose text is this error, every field error on
    /// its own line: what a tool returns to let the model correct itself or tell the user.
    ///
    /// ```
    /// use elicit_mcp::Elicit;
    /// use elicit_mcp::rmcp::ElicitError;
    ///
    /// #[derive(Elicit, Debug)]
    /// struct Age {
    ///     #[elicit(minimum = 18)]
    ///     age: u8,
    /// }
    /// let content = serde_json::json!({"age": 12});
    /// let error = ElicitError::from(Age::from_content(content.as_object().unwrap()).unwrap_err());
    /// let result = error.to_tool_result();
    /// assert_eq!(result.is_error, Some(true));
    /// let text = &result.content[0].as_text().unwrap().text;
    /// assert_eq!(text, "the submitted form is invalid:\n`age`: must be at least 18, got 12");
    /// ```
    pub fn to_tool_result(&self) -> sdk::CallToolResult {
        sdk::CallToolResult::error(vec![sdk::ContentBlock::text(self.to_string())])
    }

    /// What a tool usually answers with this error: a client that did not declare what the
    /// ask needs gets the protocol's -32021 naming it (for its host to deal with), and
    /// everything else becomes an error tool result ([`to_tool_result`](Self::to_tool_result))
    /// that the model can read and act on, field errors included.
    ///
    /// ```no_run
    /// use elicit_mcp::rmcp::Ask;
    /// use elicit_mcp::{Elicit, ElicitOutcome};
    /// use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
    ///
    /// #[derive(Elicit)]
    /// #[elicit(message = "Your name?")]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// async fn greet(ask: Ask) -> Result<CallToolResult, ErrorData> {
    ///     let reply = match ask.form::<Name>().await {
    ///         Ok(ElicitOutcome::Accepted(Name { name })) => format!("Hello, {name}"),
    ///         Ok(_) => "Hello".to_owned(),
    ///         Err(error) => return error.into_call_result(),
    ///     };
    ///     Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
    /// }
    /// ```
    pub fn into_call_result(self) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        match self {
            ElicitError::ModeNotSupported(_) | ElicitError::CapabilityNotDeclared { .. } => {
                Err(self.into())
            }
            other => Ok(other.to_tool_result()),
        }
    }
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElicitError::ModeNotSupported(e) => write!(f, "cannot elicit: {e}"),
            ElicitError::CapabilityNotDeclared { capability } => write!(
                f,
                "cannot ask the client: it did not declare the `{capability}` capability"
            ),
            ElicitError::RequestsNotAllowed { protocol_version } => write!(
                f,
                "cannot elicit: protocol {protocol_version} forbids server-to-client requests; \
                 ask through the `Ask` of a call (a `#[tool]` method of a server served through \
                 `elicit_mcp::rmcp::Elicitation`), which answers with an input-required result \
                 instead"
            ),
            ElicitError::Unrepresentable(e) => write!(f, "cannot send the form: {e}"),
            #[cfg(feature = "url-mode")]
            ElicitError::Start(e) => e.fmt(f),
            ElicitError::InvalidContent(e) => write!(f, "the submitted form is invalid:\n{e}"),
            ElicitError::UnexpectedContent(e) => e.fmt(f),
            ElicitError::InvalidResult(e) => e.fmt(f),
            #[cfg(feature = "url-mode")]
            ElicitError::NotCompleted(e) => {
                write!(f, "the URL elicitation did not complete: {e}")
            }
            ElicitError::TimedOut { waited } => write!(
                f,
                "the user did not answer within {}; the request was cancelled",
                humane(*waited)
            ),
            ElicitError::SessionEnded => {
                write!(f, "the session ended while waiting for the user's answer")
            }
            ElicitError::TaskCancelled => {
                write!(
                    f,
                    "the task was cancelled while waiting for the user's answer"
                )
            }
            ElicitError::Service(e) => write!(f, "the elicitation request failed: {e}"),
            ElicitError::DuplicateKey { key, first, second } => write!(
                f,
                "{first} and {second} both ask under the input key `{key}` in one call; give \
                 one of them another key (`#[elicit(key = \"..\")]`, `FormAsk::with_key`, or the \
                 key of `Ask::sample`/`Ask::roots`)"
            ),
            ElicitError::TooManyAsks { key, limit, errors } => {
                write!(
                    f,
                    "the form `{key}` was asked {limit} times in this call, the most one call \
                     may: the answers never completed it"
                )?;
                match errors {
                    Some(errors) => write!(f, "; the last answer:\n{errors}"),
                    None => Ok(()),
                }
            }
            ElicitError::AskedOutOfOrder { before, now } => write!(
                f,
                "the handler asked for {now} where its earlier run asked for {before}: a \
                 handler must ask for the same things in the same order on every run of a \
                 call, and act only after its last ask"
            ),
            ElicitError::InvalidDefault { key, errors } => {
                write!(
                    f,
                    "cannot send the form `{key}`: a default is invalid:\n{errors}"
                )
            }
            ElicitError::CallCancelled => write!(
                f,
                "the client cancelled the call while it waited for the user's answer"
            ),
            ElicitError::TaskGone { message } => {
                write!(f, "the task can no longer ask the user: {message}")
            }
            ElicitError::NotInCall => write!(
                f,
                "this handler asks through an `Ask`, but it does not run in a call of a server \
                 served through `elicit_mcp::rmcp::Elicitation`: serve the server with \
                 `elicitation.serve(..)` or `elicit_mcp::http::Guard::serve(..)`, and ask in \
                 the handler's own task"
            ),
            ElicitError::NotDeclaredForTasks => write!(
                f,
                "the handler calls `Ask::continue_as_task`, but its tool is not declared with \
                 `Tasks::optional_after_asks` or `Tasks::required_after_asks`"
            ),
            ElicitError::UrlModeNotConfigured => write!(
                f,
                "the handler asks in URL mode (`Ask::url`), but the elicitation has no tracker: \
                 give one with `Elicitation::with_url_mode`"
            ),
            ElicitError::SecurePageNotConfigured => write!(
                f,
                "the handler asks on the server's page (`Ask::secure`), but the elicitation has \
                 no page: give its forms with `Elicitation::with_secure_page` and mount the page"
            ),
            ElicitError::SecureAnswerGone { id } => write!(
                f,
                "the page's answer to the secure form of elicitation {id} is no longer held: it \
                 was read on an earlier run of this call (on 2026-07-28 ask `Ask::secure` after \
                 every other ask), or kept past its time"
            ),
            ElicitError::NoUser => write!(
                f,
                "URL mode binds each elicitation to its user, and this request has none: give \
                 `Elicitation::with_authentication` (HTTP) or `Elicitation::with_local_user` \
                 (stdio)"
            ),
            ElicitError::Step { step, problem } => {
                write!(f, "step {step} of the handler: {problem}")
            }
            ElicitError::UnsendableInputRequest { key, request } => write!(
                f,
                "the handler asks under `{key}` for {request}, which a 2025-11-25 session \
                 cannot send as a request"
            ),
            ElicitError::AskedWithoutBinding => write!(
                f,
                "the handler asked on a call of a tool whose earlier calls answered without \
                 asking, so this call was not bound before it ran; its next call will be: ask \
                 again (a handler that asks on some calls only takes its ask with \
                 `Ask::current()` on every call)"
            ),
        }
    }
}

impl std::error::Error for ElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ElicitError::ModeNotSupported(e) => Some(e),
            ElicitError::CapabilityNotDeclared { .. } => None,
            ElicitError::RequestsNotAllowed { .. } => None,
            ElicitError::Unrepresentable(e) => Some(e),
            #[cfg(feature = "url-mode")]
            ElicitError::Start(e) => Some(e),
            ElicitError::InvalidContent(e) => Some(e),
            ElicitError::UnexpectedContent(e) => Some(e),
            ElicitError::InvalidResult(e) => Some(e),
            #[cfg(feature = "url-mode")]
            ElicitError::NotCompleted(e) => Some(e),
            ElicitError::Service(e) => Some(e),
            ElicitError::TimedOut { .. }
            | ElicitError::SessionEnded
            | ElicitError::TaskCancelled => None,
            ElicitError::TooManyAsks { errors, .. } => errors.as_ref().map(|e| e as _),
            ElicitError::DuplicateKey { .. } | ElicitError::AskedOutOfOrder { .. } => None,
            ElicitError::CallCancelled
            | ElicitError::TaskGone { .. }
            | ElicitError::NotInCall
            | ElicitError::NotDeclaredForTasks
            | ElicitError::UrlModeNotConfigured
            | ElicitError::SecurePageNotConfigured
            | ElicitError::SecureAnswerGone { .. }
            | ElicitError::NoUser
            | ElicitError::Step { .. }
            | ElicitError::UnsendableInputRequest { .. }
            | ElicitError::AskedWithoutBinding => None,
            ElicitError::InvalidDefault { errors, .. } => Some(errors),
        }
    }
}

impl From<ModeNotSupportedError> for ElicitError {
    fn from(e: ModeNotSupportedError) -> Self {
        ElicitError::ModeNotSupported(e)
    }
}

impl From<ContentError> for ElicitError {
    fn from(e: ContentError) -> Self {
        ElicitError::InvalidContent(e)
    }
}

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
impl From<StartError> for ElicitError {
    fn from(e: StartError) -> Self {
        match e {
            // One variant for "the client did not declare the mode", whichever call found it.
            StartError::ModeNotSupported(e) => ElicitError::ModeNotSupported(e),
            other => ElicitError::Start(other),
        }
    }
}

impl From<ServiceError> for ElicitError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::Timeout { timeout } => ElicitError::TimedOut { waited: timeout },
            ServiceError::TransportClosed => ElicitError::SessionEnded,
            other => ElicitError::Service(other),
        }
    }
}

/// A duration as a person reads it: `10 min`, `90 s`, `1.5 s`, `250 ms`.
fn humane(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if duration.subsec_nanos() == 0 && seconds >= 60 && seconds.is_multiple_of(60) {
        format!("{} min", seconds / 60)
    } else if duration >= Duration::from_secs(1) {
        format!("{} s", duration.as_secs_f64())
    } else {
        format!("{} ms", duration.as_millis())
    }
}

impl From<&ElicitError> for sdk::ErrorData {
    /// The JSON-RPC error for a tool handler to return: invalid params with the field errors
    /// in `data` for bad content, the client's own error when it answered with one, invalid
    /// request when the session cannot elicit, internal error otherwise.
    fn from(error: &ElicitError) -> Self {
        let message = error.to_string();
        match error {
            ElicitError::InvalidContent(e) => {
                sdk::ErrorData::invalid_params(message, serde_json::to_value(e).ok())
            }
            ElicitError::Service(ServiceError::McpError(e)) => e.clone(),
            // 2026-07-28's MissingRequiredClientCapabilityError, with what was missing: a
            // handler that lets the error through answers as the spec has the server answer.
            ElicitError::ModeNotSupported(e) => missing_capability(
                message,
                serde_json::json!({ "elicitation": { e.mode.as_str(): {} } }),
            ),
            ElicitError::CapabilityNotDeclared { capability } => {
                missing_capability(message, serde_json::json!({ *capability: {} }))
            }
            ElicitError::RequestsNotAllowed { .. } => {
                sdk::ErrorData::invalid_request(message, None)
            }
            _ => sdk::ErrorData::internal_error(message, None),
        }
    }
}

fn missing_capability(message: String, required: serde_json::Value) -> sdk::ErrorData {
    sdk::ErrorData::new(
        sdk::ErrorCode(JsonRpcError::MISSING_REQUIRED_CLIENT_CAPABILITY),
        message,
        Some(serde_json::json!({ "requiredCapabilities": required })),
    )
}

impl From<ElicitError> for sdk::ErrorData {
    fn from(error: ElicitError) -> Self {
        sdk::ErrorData::from(&error)
    }
}
