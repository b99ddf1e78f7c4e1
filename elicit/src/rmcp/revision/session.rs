//! The session a peer or a request context stands for: its protocol version (which the
//! revision is chosen by) and what its client declared.

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};

use crate::wire::ElicitationCapability;

/// What the typed calls read from the peer or the request context. Public in a private
/// module: it seals [`ElicitPeer`](crate::rmcp::ElicitPeer), which only these two implement.
pub trait Session {
    fn peer(&self) -> &Peer<RoleServer>;
    fn protocol_version(&self) -> Option<sdk::ProtocolVersion>;
    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities>;
}

impl Session for Peer<RoleServer> {
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

impl Session for RequestContext<RoleServer> {
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

/// The `elicitation` capability the client declared, `None` if it declared none.
pub(crate) fn client_elicitation<P: Session + ?Sized>(
    session: &P,
) -> Option<ElicitationCapability> {
    session
        .client_capabilities()
        .as_ref()
        .and_then(|client| client.elicitation.as_ref())
        .map(ElicitationCapability::from)
}
