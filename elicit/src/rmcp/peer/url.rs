//! The URL-mode calls on an rmcp server's session, wired to the tracker: the -32042 error, the
//! `elicitation/create` in URL mode and what the user did with it.

use std::future::Future;

use ::rmcp::model as sdk;

use super::ElicitPeer;
use crate::rmcp::error::ElicitError;
use crate::rmcp::revision::require_server_requests;
use crate::rmcp::revision::session::{Session, client_elicitation};
use crate::rmcp::revision::v2025_11_25::send::send;
use crate::server::{ElicitationStore, ElicitationTracker, Initiator, PendingUrlElicitation};
use crate::wire::{ElicitMode, ElicitRequestParams, ElicitationCapability, ElicitationId};
use crate::{ElicitOutcome, UrlConsent};

/// A URL-mode elicitation that was sent, and what the user did with it: what
/// [`ElicitUrlPeer::send_tracked_url`] gives.
///
/// ```no_run
/// use elicit_mcp::ElicitOutcome;
/// use elicit_mcp::rmcp::ElicitUrlPeer;
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
///             ElicitOutcome::Accepted(_) => {
///                 format!("connecting (elicitation {})", elicitation.id())
///             }
///             ElicitOutcome::Declined | ElicitOutcome::Cancelled => "not connected".to_owned(),
///         },
///         Err(error) => return error.to_tool_result(),
///     };
///     CallToolResult::success(vec![ContentBlock::text(reply)])
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UrlElicitation {
    pending: PendingUrlElicitation,
    outcome: ElicitOutcome<UrlConsent>,
}

impl UrlElicitation {
    /// The elicitation's id, under which the tracker completes it.
    pub fn id(&self) -> &ElicitationId {
        self.pending.id()
    }

    /// What the user did: consent means the interaction goes on out of band, not that it is
    /// done; it is done when the tracker completes it.
    pub fn outcome(&self) -> &ElicitOutcome<UrlConsent> {
        &self.outcome
    }

    /// The elicitation as the tracker started it.
    pub fn pending(&self) -> &PendingUrlElicitation {
        &self.pending
    }
}

/// The URL-mode calls of an [`ElicitPeer`], wired to the
/// [`ElicitationTracker`]: implemented for every `ElicitPeer` (`Peer<RoleServer>` and
/// `RequestContext<RoleServer>`), so importing the trait is all it takes.
///
/// A `#[tool]` method served through an [`Elicitation`](crate::rmcp::Elicitation) asks with
/// [`Ask::url`](crate::rmcp::Ask::url) instead, which does this on both revisions.
pub trait ElicitUrlPeer: ElicitPeer {
    /// Sends a URL-mode elicitation the tracker started, and reads what the user did. The
    /// client must have declared URL mode (the tracker checked that when it started it; this
    /// checks again for this session).
    fn send_url_elicitation<'a>(
        &'a self,
        pending: &'a PendingUrlElicitation,
    ) -> impl Future<Output = Result<ElicitOutcome<UrlConsent>, ElicitError>> + Send + 'a {
        send_url_elicitation(self, pending)
    }

    /// Starts a URL-mode elicitation with the tracker (bound to `initiator`, URL checked by the
    /// tracker's policy, built by `url` from the new id), sends it, and reads what the user did. A
    /// client that did not declare URL mode is refused before anything is stored or sent. On
    /// decline or cancel, or if sending fails, the elicitation is discarded from the tracker; on
    /// consent it stays pending until the tracker completes it (send the notification with
    /// [`notify_elicitation_complete`](ElicitPeer::notify_elicitation_complete) or
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
        let start = require_server_requests(self).map(|()| {
            let capability = self.client_elicitation();
            tracker.start(initiator, capability.as_ref(), message, url)
        });
        async move {
            let pending = start?.await?;
            let outcome = self.send_url_elicitation(&pending).await;
            if !matches!(outcome, Ok(ElicitOutcome::Accepted(_))) {
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
}

impl<P: ElicitPeer> ElicitUrlPeer for P {}

/// Sends a URL-mode elicitation the tracker started, and reads what the user did.
async fn send_url_elicitation<P: Session + ?Sized>(
    session: &P,
    pending: &PendingUrlElicitation,
) -> Result<ElicitOutcome<UrlConsent>, ElicitError> {
    let capability = client_elicitation(session);
    require_server_requests(session)?;
    ElicitationCapability::require(capability.as_ref(), ElicitMode::Url)?;
    let params = ElicitRequestParams::Url(pending.params().clone());
    let result = send(session.peer(), &params, None, None).await?;
    UrlConsent::from_result(&result).map_err(ElicitError::UnexpectedContent)
}
