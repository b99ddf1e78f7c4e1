//! An [`Ask`] on a 2026-07-28 session outside a call: the server may not send requests there,
//! so every ask is refused with [`ElicitError::RequestsNotAllowed`] (a call of an
//! [`Elicitation`](crate::rmcp::Elicitation) asks through its rounds instead).

use std::sync::Arc;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer};

use crate::rmcp::ask::way::{Waiting, Way};
use crate::rmcp::ask::{Ask, AskParts, AskSettings};
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::{Answer, Request};

#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url_flow::UrlFlow;
#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlTracking;
#[cfg(feature = "url-mode")]
use crate::server::{AwaitedBy, UserId};
#[cfg(feature = "url-mode")]
use crate::wire::ElicitationId;

/// The way of an ask made outside a call on a session whose protocol forbids server requests.
struct NoRequests {
    peer: Peer<RoleServer>,
    protocol_version: sdk::ProtocolVersion,
}

impl NoRequests {
    fn refusal(&self) -> ElicitError {
        ElicitError::RequestsNotAllowed {
            protocol_version: self.protocol_version.to_string(),
        }
    }
}

/// An ask on `peer`'s session, which speaks `protocol_version`: each ask is refused.
pub(crate) fn ask_refusing(peer: Peer<RoleServer>, protocol_version: sdk::ProtocolVersion) -> Ask {
    Ask::new(AskParts {
        way: Arc::new(NoRequests {
            peer,
            protocol_version,
        }),
        replayed: Vec::new(),
        settings: AskSettings::DEFAULT,
        user: None,
        #[cfg(feature = "url-mode")]
        url: None,
    })
}

impl Way for NoRequests {
    fn describe(&self) -> &'static str {
        "nothing: a 2026-07-28 session outside a call, where the server may not send requests"
    }

    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        self.peer.peer_info().map(|info| info.capabilities.clone())
    }

    fn answer<'a>(
        &'a self,
        _key: &'a str,
        _request: Request,
        _timeout: Option<Duration>,
    ) -> Waiting<'a, Result<Answer, ElicitError>> {
        Box::pin(async move { Err(self.refusal()) })
    }

    #[cfg(feature = "url-mode")]
    fn awaited_by(&self) -> AwaitedBy {
        AwaitedBy::Session
    }

    /// Never reached (the consent was refused before); refused alike.
    #[cfg(feature = "url-mode")]
    fn completion<'a>(
        &'a self,
        _tracker: &'a dyn UrlTracking,
        _user: &'a UserId,
        _flow: &'a UrlFlow,
    ) -> Waiting<'a, Result<ElicitationId, ElicitError>> {
        Box::pin(async move { Err(self.refusal()) })
    }
}
