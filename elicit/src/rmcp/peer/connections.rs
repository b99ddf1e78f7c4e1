//! The routing of completion notifications to the connection that started a URL-mode
//! elicitation (feature `url-mode`).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use ::rmcp::service::{Peer, RoleServer};

use crate::rmcp::error::ElicitError;
use crate::rmcp::peer::ElicitPeer;
use crate::server::{Addressed, AwaitedBy, CompletedElicitation, ConnectionId};
use crate::wire::ElicitationCompleteNotification;

/// The peers of a server's open connections, by [`ConnectionId`], so that a completed URL-mode
/// elicitation's notification goes to the connection that started it and to no other.
///
/// Register each session's peer when it starts, under the connection id the tracker's
/// [`Initiator`](crate::server::Initiator)s name; remove it when it ends.
#[derive(Default)]
pub struct ConnectionPeers {
    peers: Mutex<HashMap<ConnectionId, Peer<RoleServer>>>,
}

impl fmt::Debug for ConnectionPeers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionPeers")
            .field("connections", &self.lock().len())
            .finish()
    }
}

impl ConnectionPeers {
    /// No connections.
    pub fn new() -> Self {
        ConnectionPeers::default()
    }

    /// Records the peer of a connection, replacing an earlier one under the same id.
    pub fn register(&self, connection: ConnectionId, peer: Peer<RoleServer>) {
        self.lock().insert(connection, peer);
    }

    /// Forgets a connection; returns its peer if it was registered.
    pub fn remove(&self, connection: &ConnectionId) -> Option<Peer<RoleServer>> {
        self.lock().remove(connection)
    }

    /// The peer of a connection, if registered.
    pub fn get(&self, connection: &ConnectionId) -> Option<Peer<RoleServer>> {
        self.lock().get(connection).cloned()
    }

    /// Sends the completion notification of `completed` to the connection that started it.
    /// `Ok(false)` if that connection is not registered (it closed): the notification is
    /// optional, and the client can still retry by hand. `Ok(false)` too for an elicitation
    /// asked on 2026-07-28 ([`Ask::url`](crate::rmcp::Ask::url)): that revision has no such
    /// notification, and the client's retry finds the elicitation completed.
    pub async fn notify(&self, completed: &CompletedElicitation) -> Result<bool, ElicitError> {
        // 2026-07-28 has no completion notification: the handler's retry collects it.
        if completed.awaited_by() == Some(AwaitedBy::Retry) {
            return Ok(false);
        }
        self.send(completed.notification()).await
    }

    /// Sends a completion notification to the connection it is addressed to, e.g. one that
    /// another replica completed and routed here (`RedisStore::completions`, feature `redis`,
    /// which routes none for 2026-07-28).
    /// `Ok(false)` if that connection is not registered here.
    pub async fn send(
        &self,
        notification: Addressed<ElicitationCompleteNotification>,
    ) -> Result<bool, ElicitError> {
        let (connection, notification) = notification.into_parts();
        let Some(peer) = self.get(&connection) else {
            return Ok(false);
        };
        peer.notify_elicitation_complete(&notification).await?;
        Ok(true)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ConnectionId, Peer<RoleServer>>> {
        // Each operation is one map call, so a panic elsewhere cannot leave it half-updated.
        self.peers.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
