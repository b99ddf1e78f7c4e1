//! The typed elicitation calls on an rmcp server's peer or request context, their error, and
//! the routing of completion notifications to the connection that started an elicitation.

use std::borrow::Cow;
use std::future::Future;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer};
use serde::Deserialize;

use crate::rmcp::convert::{InvalidResultError, UnrepresentableError};
use crate::rmcp::error::ElicitError;
use crate::rmcp::rounds::Ask;
use crate::schema::RequestedSchema;
#[cfg(feature = "url-mode")]
use crate::server::{
    Clock, ElicitationStore, ElicitationTracker, Initiator, PendingUrlElicitation,
};
use crate::wire::ElicitationCapability;
use crate::wire::{
    ElicitMode, ElicitRequest, ElicitRequestParams, ElicitationCompleteNotification,
};
use crate::wire::{ElicitRequestFormParams, ElicitResult};
#[cfg(feature = "url-mode")]
use crate::wire::{ElicitationId, UrlElicitOutcome};

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
                .map_err(ElicitError::from)
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
