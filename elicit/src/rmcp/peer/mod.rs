//! The typed elicitation calls on an rmcp server's peer or request context; with `url-mode`,
//! the URL-mode ones in `url`.

use std::future::Future;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};

use crate::rmcp::ask::Ask;
use crate::rmcp::error::ElicitError;
use crate::rmcp::revision;
use crate::rmcp::revision::session::{self, Session};
use crate::rmcp::revision::v2025_11_25::Requests;
use crate::wire::{ElicitationCapability, ElicitationCompleteNotification};

#[cfg(feature = "url-mode")]
mod connections;
#[cfg(feature = "url-mode")]
mod url;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use url::{ElicitUrlPeer, UrlElicitation};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use connections::ConnectionPeers;

/// Elicitation on an rmcp server's session: implemented for `Peer<RoleServer>` and
/// `RequestContext<RoleServer>` (prefer the context inside a handler: it knows the request's
/// own protocol version and client capabilities).
///
/// Forms are asked through an [`Ask`]: a `#[tool]` method of a server served through an
/// [`Elicitation`](crate::rmcp::Elicitation) gets one as a parameter, and other code on a
/// 2025-11-25 session from
/// [`ask`](Self::ask). This trait adds what the session declared and the completion
/// notification; with `url-mode`, `ElicitUrlPeer` adds the
/// URL-mode calls wired to the tracker.
pub trait ElicitPeer: Session + Sync {
    /// The `elicitation` capability the client declared, `None` if it declared none.
    fn client_elicitation(&self) -> Option<ElicitationCapability> {
        session::client_elicitation(self)
    }

    /// Whether the session's protocol lets the server send requests to the client: `false` from
    /// 2026-07-28 on, where a handler asks through an input-required result instead, which
    /// the [`Elicitation`](crate::rmcp::Elicitation) serving it does for it.
    fn server_requests_allowed(&self) -> bool {
        revision::server_requests_allowed(self)
    }

    /// An [`Ask`] on this session, for code that does not run in a call of an
    /// [`Elicitation`](crate::rmcp::Elicitation) (a `#[tool]` method gets its `Ask` as a
    /// parameter):
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
        Requests::ask_on_session(self.peer().clone())
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
