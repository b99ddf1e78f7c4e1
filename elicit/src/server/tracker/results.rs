//! What the tracker hands back: the elicitation to send, and the completion to notify.

use std::time::SystemTime;

use crate::server::{AwaitedBy, ConnectionId, PendingEntry, UrlNotice, UserId};
use crate::wire::{
    ElicitRequest, ElicitRequestParams, ElicitRequestUrlParams, ElicitationCompleteNotification,
    ElicitationId, RequestId, UrlElicitationRequiredError,
};

/// A message to send to one client connection, and to no other.
#[derive(Clone, Debug, PartialEq)]
pub struct Addressed<T> {
    to: ConnectionId,
    message: T,
}

impl<T> Addressed<T> {
    #[cfg(feature = "redis")]
    pub(crate) fn new(to: ConnectionId, message: T) -> Self {
        Addressed { to, message }
    }

    /// The connection to send it to.
    pub fn to(&self) -> &ConnectionId {
        &self.to
    }

    /// The message.
    pub fn message(&self) -> &T {
        &self.message
    }

    /// The connection and the message.
    pub fn into_parts(self) -> (ConnectionId, T) {
        (self.to, self.message)
    }
}

/// A URL-mode elicitation the tracker started: the params to send, bound to their user.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingUrlElicitation {
    pub(super) params: ElicitRequestUrlParams,
    pub(super) expires_at: SystemTime,
    pub(super) notices: Vec<UrlNotice>,
}

impl PendingUrlElicitation {
    /// The id.
    pub fn id(&self) -> &ElicitationId {
        self.params.elicitation_id()
    }

    /// The params to send.
    pub fn params(&self) -> &ElicitRequestUrlParams {
        &self.params
    }

    /// Takes the params.
    pub fn into_params(self) -> ElicitRequestUrlParams {
        self.params
    }

    /// From when on it can no longer complete.
    pub fn expires_at(&self) -> SystemTime {
        self.expires_at
    }

    /// What the client will warn its user about in the URL.
    pub fn notices(&self) -> &[UrlNotice] {
        &self.notices
    }

    /// The `elicitation/create` request to send it as. The client's capability was checked
    /// when the elicitation was started.
    pub fn request(&self, id: RequestId) -> ElicitRequest {
        ElicitRequest::checked(id, ElicitRequestParams::Url(self.params.clone()))
    }

    /// The -32042 error to answer a request that needs this elicitation completed first.
    pub fn required_error(&self, message: impl Into<String>) -> UrlElicitationRequiredError {
        UrlElicitationRequiredError::single(message.into(), self.params.clone())
    }
}

/// An elicitation completed by the user who started it.
#[derive(Clone, Debug, PartialEq)]
pub struct CompletedElicitation {
    pub(super) entry: PendingEntry,
}

impl CompletedElicitation {
    /// The id.
    pub fn id(&self) -> &ElicitationId {
        &self.entry.id
    }

    /// The user who started and completed it: bind what the interaction produced (tokens,
    /// keys) to this user.
    pub fn user(&self) -> &UserId {
        &self.entry.user
    }

    /// When it was started.
    pub fn started_at(&self) -> SystemTime {
        self.entry.started_at
    }

    /// Who waits on it ([`with_awaited_by`](crate::server::StartUrl::with_awaited_by)),
    /// `None` for a plain elicitation. One a retry waits on ([`AwaitedBy::Retry`]) has no
    /// completion notification to send: its revision has none.
    pub fn awaited_by(&self) -> Option<AwaitedBy> {
        self.entry.awaited_by
    }

    /// The `notifications/elicitation/complete` to send, addressed to the client connection
    /// that started the elicitation and to no other.
    pub fn notification(&self) -> Addressed<ElicitationCompleteNotification> {
        Addressed {
            to: self.entry.connection.clone(),
            message: ElicitationCompleteNotification::new(self.entry.id.clone()),
        }
    }
}
