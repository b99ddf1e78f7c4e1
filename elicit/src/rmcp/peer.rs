//! The typed elicitation calls on an rmcp server's peer or request context, their error, and
//! the routing of completion notifications to the connection that started an elicitation.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer, ServiceError};
use serde::Deserialize;

use crate::error::ContentError;
use crate::rmcp::convert::{InvalidResultError, UnrepresentableError};
use crate::rmcp::rounds::Ask;
use crate::schema::RequestedSchema;
#[cfg(feature = "url-mode")]
use crate::server::{
    Clock, CompletionError, ElicitationStore, ElicitationTracker, Initiator, PendingUrlElicitation,
    StartError,
};
use crate::wire::{
    ElicitMode, ElicitRequest, ElicitRequestParams, ElicitationCompleteNotification, JsonRpcError,
    UnexpectedContentError,
};
use crate::wire::{ElicitRequestFormParams, ElicitResult};
use crate::wire::{ElicitationCapability, ModeNotSupportedError};
#[cfg(feature = "url-mode")]
use crate::wire::{ElicitationId, UrlElicitOutcome};

/// Why a typed elicitation through rmcp gave no outcome.
///
/// Every variant but [`Service`](ElicitError::Service), [`InvalidContent`](ElicitError::InvalidContent),
/// [`UnexpectedContent`](ElicitError::UnexpectedContent) and
/// [`InvalidResult`](ElicitError::InvalidResult) means nothing was sent.
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
    /// came from [`ElicitPeer::ask`] rather than from an `Ask` that
    /// [`Rounds`](crate::rmcp::Rounds) runs, which would answer with an input-required result.
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
    NotCompleted(CompletionError),
    /// rmcp failed to get an answer: the transport closed, the request timed out, or the client
    /// answered with a JSON-RPC error.
    Service(ServiceError),
    /// Two different forms (or kinds of request) of one call ask under the same input key:
    /// their answers would be mixed up. Name one with `#[elicit(key = "..")]` or
    /// [`FormAsk::key`](crate::rmcp::FormAsk::key). Nothing was sent.
    DuplicateKey {
        /// The key both ask under.
        key: String,
        /// What asked under it first.
        first: &'static str,
        /// What asked under it next.
        second: &'static str,
    },
    /// The form under `key` was asked as many times as one call may
    /// ([`Rounds::most_asks`](crate::rmcp::Rounds::most_asks)): the client's answers keep
    /// failing it. Nothing was sent.
    TooManyAsks {
        /// The form's key.
        key: String,
        /// How many asks one call may make of one form.
        limit: u32,
    },
    /// A default given at run time ([`FormAsk::default`](crate::rmcp::FormAsk::default)) names
    /// a field the form does not have, or a value the field refuses. Nothing was sent.
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
    /// assert_eq!(text, "the submitted form is invalid:\n`age`: must be between 18 and 255, got 12");
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
                 ask through an `Ask` that `elicit_mcp::rmcp::Rounds` runs (a `#[tool]` method \
                 of a router wrapped by `Rounds::tools`), which answers with an input-required \
                 result instead"
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
            ElicitError::Service(e) => write!(f, "the elicitation request failed: {e}"),
            ElicitError::DuplicateKey { key, first, second } => write!(
                f,
                "`{first}` and `{second}` both ask under the input key `{key}` in one call; \
                 give one of them another key (`#[elicit(key = \"..\")]`)"
            ),
            ElicitError::TooManyAsks { key, limit } => write!(
                f,
                "the form `{key}` was asked {limit} times in this call, the most one call may: \
                 the answers never completed it"
            ),
            ElicitError::InvalidDefault { key, errors } => {
                write!(
                    f,
                    "cannot send the form `{key}`: a default is invalid:\n{errors}"
                )
            }
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
            ElicitError::DuplicateKey { .. } | ElicitError::TooManyAsks { .. } => None,
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
        ElicitError::Service(e)
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

#[cfg(feature = "url-mode")]
/// A URL-mode elicitation that was sent, and what the user did with it: what
/// [`ElicitPeer::send_tracked_url`] gives.
///
/// ```no_run
/// use elicit_mcp::UrlElicitOutcome;
/// use elicit_mcp::rmcp::ElicitPeer;
/// use elicit_mcp::server::{ElicitationTracker, Initiator};
/// use rmcp::model::{CallToolResult, ContentBlock};
/// use rmcp::service::{RequestContext, RoleServer};
///
/// async fn connect_account(
///     context: RequestContext<RoleServer>,
///     tracker: &ElicitationTracker,
///     initiator: &Initiator,
/// ) -> CallToolResult {
///     let sent = context
///         .send_tracked_url(tracker, initiator, "Connect your Example Co account.", |id| {
///             format!("https://mcp.example.com/connect?elicitationId={id}")
///         })
///         .await;
///     let reply = match sent {
///         // Consent: the user went to the page; the tracker completes the elicitation there.
///         Ok(elicitation) => match elicitation.outcome() {
///             UrlElicitOutcome::Consented => format!("connecting (elicitation {})", elicitation.id()),
///             UrlElicitOutcome::Declined | UrlElicitOutcome::Cancelled => "not connected".to_owned(),
///         },
///         Err(error) => return error.to_tool_result(),
///     };
///     CallToolResult::success(vec![ContentBlock::text(reply)])
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UrlElicitation {
    pending: PendingUrlElicitation,
    outcome: UrlElicitOutcome,
}

#[cfg(feature = "url-mode")]
impl UrlElicitation {
    /// The elicitation's id, under which the tracker completes it.
    pub fn id(&self) -> &ElicitationId {
        self.pending.id()
    }

    /// What the user did: consent means the interaction goes on out of band, not that it is
    /// done; it is done when the tracker completes it.
    pub fn outcome(&self) -> UrlElicitOutcome {
        self.outcome
    }

    /// The elicitation as the tracker started it.
    pub fn pending(&self) -> &PendingUrlElicitation {
        &self.pending
    }
}

mod sealed {
    use ::rmcp::model::{ClientCapabilities, ProtocolVersion};
    use ::rmcp::service::{Peer, RoleServer};

    /// What the typed calls read from the peer or the request context.
    pub trait Session {
        fn peer(&self) -> &Peer<RoleServer>;
        fn protocol_version(&self) -> Option<ProtocolVersion>;
        fn client_capabilities(&self) -> Option<ClientCapabilities>;
    }
}

impl sealed::Session for Peer<RoleServer> {
    fn peer(&self) -> &Peer<RoleServer> {
        self
    }

    fn protocol_version(&self) -> Option<sdk::ProtocolVersion> {
        self.peer_info().map(|info| info.protocol_version.clone())
    }

    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        self.peer_info().map(|info| info.capabilities.clone())
    }
}

impl sealed::Session for RequestContext<RoleServer> {
    fn peer(&self) -> &Peer<RoleServer> {
        &self.peer
    }

    // The request's own `_meta` first (2026-07-28 carries the version and capabilities per
    // request), then the session's handshake.
    fn protocol_version(&self) -> Option<sdk::ProtocolVersion> {
        RequestContext::protocol_version(self)
    }

    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        RequestContext::client_capabilities(self)
    }
}

/// Elicitation on an rmcp server's session: implemented for `Peer<RoleServer>` and
/// `RequestContext<RoleServer>` (prefer the context inside a handler: it knows the request's
/// own protocol version and client capabilities).
///
/// Forms are asked through an [`Ask`]: a `#[tool]` method gets one from
/// [`Rounds`](crate::rmcp::Rounds), and other code on a 2025-11-25 session from
/// [`ask`](Self::ask). This trait adds the URL-mode calls wired to the
/// [`ElicitationTracker`] (the -32042 error, the `elicitation/create` in URL mode, the
/// completion notification) and what the session declared.
pub trait ElicitPeer: sealed::Session + Sync {
    /// The `elicitation` capability the client declared, `None` if it declared none.
    fn client_elicitation(&self) -> Option<ElicitationCapability> {
        self.client_capabilities()
            .as_ref()
            .and_then(ElicitationCapability::of_rmcp_client)
    }

    /// Whether the session's protocol lets the server send requests to the client: `false` from
    /// 2026-07-28 on, where a handler asks through an input-required result instead, which
    /// [`Rounds`](crate::rmcp::Rounds) does for it.
    fn server_requests_allowed(&self) -> bool {
        refuse_on_stateless_protocol(self).is_ok()
    }

    /// An [`Ask`] on this session, for code that is not run by
    /// [`Rounds`](crate::rmcp::Rounds) (a `#[tool]` method gets its `Ask` as a parameter):
    /// on 2025-11-25 each ask is a request to the client, with no timeout unless the ask sets
    /// one; from 2026-07-28 on, where the server may not send requests, each ask fails with
    /// [`ElicitError::RequestsNotAllowed`].
    ///
    /// ```no_run
    /// use elicit_mcp::rmcp::{ElicitError, ElicitPeer};
    /// use elicit_mcp::{Elicit, ElicitOutcome};
    /// use rmcp::service::{Peer, RoleServer};
    ///
    /// #[derive(Elicit, Debug)]
    /// #[elicit(message = "Still there?")]
    /// struct Ping {
    ///     here: bool,
    /// }
    ///
    /// async fn ping(peer: &Peer<RoleServer>) -> Result<ElicitOutcome<Ping>, ElicitError> {
    ///     peer.ask().form::<Ping>().timeout(std::time::Duration::from_secs(30)).await
    /// }
    /// ```
    fn ask(&self) -> Ask {
        Ask::on_session(self.peer().clone())
    }

    #[cfg(feature = "url-mode")]
    /// Sends a URL-mode elicitation the tracker started, and reads what the user did. The
    /// client must have declared URL mode (the tracker checked that when it started it; this
    /// checks again for this session).
    fn send_url_elicitation<'a>(
        &'a self,
        pending: &'a PendingUrlElicitation,
    ) -> impl Future<Output = Result<UrlElicitOutcome, ElicitError>> + Send + 'a {
        async move {
            let capability = self.client_elicitation();
            refuse_on_stateless_protocol(self)?;
            ElicitationCapability::require(capability.as_ref(), ElicitMode::Url)?;
            let params = ElicitRequestParams::Url(pending.params().clone());
            let result = send(self.peer(), &params, None).await?;
            UrlElicitOutcome::from_result(&result).map_err(ElicitError::UnexpectedContent)
        }
    }

    #[cfg(feature = "url-mode")]
    /// Starts a URL-mode elicitation with the tracker (bound to `initiator`, URL checked by the
    /// tracker's policy, built by `url` from the new id), sends it, and reads what the user
    /// did. A client that did not declare URL mode is refused before anything is stored or
    /// sent. On decline or cancel, or if sending fails, the elicitation is discarded from the
    /// tracker; on consent it stays pending until the tracker completes it (send the
    /// notification with [`notify_elicitation_complete`](Self::notify_elicitation_complete) or
    /// [`ConnectionPeers::notify`](crate::rmcp::ConnectionPeers::notify)).
    ///
    /// Named apart from rmcp's inherent `Peer::elicit_url` (untracked, URL unchecked), which
    /// method syntax would pick over a trait method of the same name on a `Peer<RoleServer>`:
    /// `peer.send_tracked_url(..)` and `context.send_tracked_url(..)` are both this one.
    fn send_tracked_url<'a, S, C>(
        &'a self,
        tracker: &'a ElicitationTracker<S, C>,
        initiator: &'a Initiator,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> impl Future<Output = Result<UrlElicitation, ElicitError>> + Send + 'a
    where
        S: ElicitationStore,
        C: Clock,
    {
        // The tracker builds the URL here, before the future: `url` need not be `Send`.
        let start = refuse_on_stateless_protocol(self).map(|()| {
            let capability = self.client_elicitation();
            tracker.store_prepared(tracker.prepare(
                initiator,
                capability.as_ref(),
                message.into(),
                url,
            ))
        });
        async move {
            let pending = start?.await?;
            let outcome = self.send_url_elicitation(&pending).await;
            if !matches!(outcome, Ok(UrlElicitOutcome::Consented)) {
                // Nothing will complete it now. If the store fails here the entry only lingers
                // until its time to live runs out, bound to the same user, so the outcome
                // still stands.
                let _ = tracker
                    .discard(pending.id().as_str(), &initiator.user)
                    .await;
            }
            Ok(UrlElicitation {
                pending,
                outcome: outcome?,
            })
        }
    }

    #[cfg(feature = "url-mode")]
    /// Starts a URL-mode elicitation with the tracker and gives the -32042 error
    /// (`URLElicitationRequiredError`) for the tool handler to return: the client shows the URL
    /// and retries the call once the elicitation completes. A client that did not declare URL
    /// mode is refused before anything is stored.
    fn url_elicitation_required<'a, S, C>(
        &self,
        tracker: &'a ElicitationTracker<S, C>,
        initiator: &Initiator,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
        error_message: impl Into<String>,
    ) -> impl Future<Output = Result<sdk::ErrorData, ElicitError>> + Send + 'a
    where
        S: ElicitationStore,
        C: Clock,
    {
        // The tracker builds the URL here, before the future: `url` need not be `Send`.
        let capability = self.client_elicitation();
        let start = tracker.store_prepared(tracker.prepare(
            initiator,
            capability.as_ref(),
            message.into(),
            url,
        ));
        let error_message = error_message.into();
        async move {
            let pending = start.await?;
            Ok(sdk::ErrorData::from(pending.required_error(error_message)))
        }
    }

    /// Sends `notifications/elicitation/complete` on this session, exactly as the spec writes
    /// it. rmcp 3 has no such notification; it goes out as a custom one.
    fn notify_elicitation_complete<'a>(
        &'a self,
        notification: &ElicitationCompleteNotification,
    ) -> impl Future<Output = Result<(), ElicitError>> + Send + 'a {
        let notification = sdk::ServerNotification::from(notification);
        async move {
            self.peer()
                .send_notification(notification)
                .await
                .map_err(ElicitError::Service)
        }
    }
}

impl ElicitPeer for Peer<RoleServer> {}
impl ElicitPeer for RequestContext<RoleServer> {}

fn refuse_on_stateless_protocol<P: sealed::Session + ?Sized>(
    session: &P,
) -> Result<(), ElicitError> {
    match session.protocol_version() {
        Some(version) if version >= sdk::ProtocolVersion::V_2026_07_28 => {
            Err(ElicitError::RequestsNotAllowed {
                protocol_version: version.to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// Sends a form-mode `elicitation/create` with `schema` on a 2025-11-25 session, and reads the
/// client's result.
pub(crate) async fn elicit_schema_on(
    peer: &Peer<RoleServer>,
    schema: Cow<'static, RequestedSchema>,
    message: String,
    timeout: Option<Duration>,
) -> Result<ElicitResult, ElicitError> {
    refuse_on_stateless_protocol(peer)?;
    ElicitationCapability::require(peer.client_elicitation().as_ref(), ElicitMode::Form)?;
    let params = ElicitRequestParams::Form(ElicitRequestFormParams::new(message, schema));
    send(peer, &params, timeout).await
}

/// Sends `elicitation/create` with the params as elicit writes them, and reads the result.
///
/// It goes out as an rmcp custom request, not through rmcp's `ElicitRequestParams`: rmcp's
/// schema model has no `pattern`, and the custom request carries the params as they are. rmcp
/// still does the rest as for its own requests (the protocol-version gate, the request id, the
/// progress token in `_meta`, the timeout), and its client reads the request as the
/// `elicitation/create` it is.
async fn send(
    peer: &Peer<RoleServer>,
    params: &ElicitRequestParams,
    timeout: Option<Duration>,
) -> Result<ElicitResult, ElicitError> {
    let params = serde_json::to_value(params)
        .map_err(|e| ElicitError::Unrepresentable(UnrepresentableError::unserializable(e)))?;
    let request = sdk::ServerRequest::CustomRequest(sdk::CustomRequest::new(
        ElicitRequest::METHOD,
        Some(params),
    ));
    let mut options = PeerRequestOptions::no_options();
    options.timeout = timeout;
    let response = peer
        .send_request_with_option(request, options)
        .await?
        .await_response()
        .await?;
    match response {
        sdk::ClientResult::ElicitResult(result) => {
            ElicitResult::try_from(&result).map_err(ElicitError::InvalidResult)
        }
        // rmcp reads a result it has no type for as a custom one.
        sdk::ClientResult::CustomResult(sdk::CustomResult(value)) => {
            ElicitResult::deserialize(&value)
                .map_err(|e| ElicitError::InvalidResult(InvalidResultError::new(e.to_string())))
        }
        _ => Err(ElicitError::InvalidResult(InvalidResultError::new(
            "the client answered elicitation/create with another kind of result",
        ))),
    }
}
