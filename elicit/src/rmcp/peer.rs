//! The typed elicitation calls on an rmcp server's peer or request context, their error, and
//! the routing of completion notifications to the connection that started an elicitation.

use std::future::Future;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};

use crate::rmcp::error::ElicitError;
use crate::rmcp::rounds::Ask;
use crate::rmcp::session::{self, Session};
#[cfg(feature = "url-mode")]
use crate::server::{ElicitationStore, ElicitationTracker, Initiator, PendingUrlElicitation};
use crate::wire::{ElicitationCapability, ElicitationCompleteNotification};
#[cfg(feature = "url-mode")]
use crate::{UrlElicitOutcome, wire::ElicitationId};

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

/// Elicitation on an rmcp server's session: implemented for `Peer<RoleServer>` and
/// `RequestContext<RoleServer>` (prefer the context inside a handler: it knows the request's
/// own protocol version and client capabilities).
///
/// Forms are asked through an [`Ask`]: a `#[tool]` method gets one from
/// [`Rounds`](crate::rmcp::Rounds), and other code on a 2025-11-25 session from
/// [`ask`](Self::ask). This trait adds the URL-mode calls wired to the
/// [`ElicitationTracker`] (the -32042 error, the `elicitation/create` in URL mode, the
/// completion notification) and what the session declared.
pub trait ElicitPeer: Session + Sync {
    /// The `elicitation` capability the client declared, `None` if it declared none.
    fn client_elicitation(&self) -> Option<ElicitationCapability> {
        session::client_elicitation(self)
    }

    /// Whether the session's protocol lets the server send requests to the client: `false` from
    /// 2026-07-28 on, where a handler asks through an input-required result instead, which
    /// [`Rounds`](crate::rmcp::Rounds) does for it.
    fn server_requests_allowed(&self) -> bool {
        session::server_requests_allowed(self)
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
    ///     peer.ask().form::<Ping>().with_timeout(std::time::Duration::from_secs(30)).await
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
        session::send_url_elicitation(self, pending)
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
    fn send_tracked_url<'a, S>(
        &'a self,
        tracker: &'a ElicitationTracker<S>,
        initiator: &'a Initiator,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> impl Future<Output = Result<UrlElicitation, ElicitError>> + Send + 'a
    where
        S: ElicitationStore,
    {
        // The tracker builds the URL here, before the future: `url` need not be `Send`.
        let start = session::refuse_on_stateless_protocol(self).map(|()| {
            let capability = self.client_elicitation();
            tracker.start(initiator, capability.as_ref(), message, url)
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
    fn url_elicitation_required<'a, S>(
        &self,
        tracker: &'a ElicitationTracker<S>,
        initiator: &Initiator,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
        error_message: impl Into<String>,
    ) -> impl Future<Output = Result<sdk::ErrorData, ElicitError>> + Send + 'a
    where
        S: ElicitationStore,
    {
        // The tracker builds the URL here, before the future: `url` need not be `Send`.
        let capability = self.client_elicitation();
        let start = tracker.start(initiator, capability.as_ref(), message, url);
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
