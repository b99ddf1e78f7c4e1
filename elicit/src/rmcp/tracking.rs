//! The URL-mode tracker an [`Elicitation`](super::Elicitation) owns, as an object
//! ([`UrlTracking`]): the elicitation is one type whatever store its tracker keeps the
//! elicitations in, and the ways of asking wait on it alike.

use std::sync::Arc;
use std::time::SystemTime;

use crate::rmcp::waiting::Waiting;
#[cfg(feature = "page")]
use crate::server::SecureForms;
use crate::server::{
    Collected, CompletionError, ConnectionId, ElicitationStore, ElicitationTracker, Initiator,
    PendingUrlElicitation, PreparedUrlElicitation, StartError, UserId,
};
use crate::wire::{ElicitationCapability, ElicitationId};

/// What the asks need of an [`ElicitationTracker`], whatever its store.
pub(crate) trait UrlTracking: Send + Sync {
    /// [`ElicitationTracker::prepare`].
    fn prepare(
        &self,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: String,
        url: &mut dyn FnMut(&ElicitationId) -> String,
    ) -> Result<PreparedUrlElicitation, StartError>;

    /// [`ElicitationTracker::store_prepared`].
    fn store_prepared(
        &self,
        prepared: PreparedUrlElicitation,
    ) -> Waiting<'_, Result<PendingUrlElicitation, StartError>>;

    /// [`ElicitationTracker::collect`].
    fn collect<'a>(
        &'a self,
        id: &'a str,
        user: &'a UserId,
    ) -> Waiting<'a, Result<Collected, CompletionError>>;

    /// Keeps the elicitation pending until `until` while a call's retries look for it: whether
    /// it was (the store renewed it as pending).
    fn keep_waiting<'a>(
        &'a self,
        id: &'a str,
        user: &'a UserId,
        until: SystemTime,
    ) -> Waiting<'a, Result<bool, CompletionError>>;

    /// [`ElicitationTracker::discard`].
    fn discard<'a>(
        &'a self,
        id: &'a str,
        user: &'a UserId,
    ) -> Waiting<'a, Result<(), CompletionError>>;

    /// The tracker's clock.
    fn now(&self) -> SystemTime;
}

impl<S: ElicitationStore> UrlTracking for ElicitationTracker<S> {
    fn prepare(
        &self,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: String,
        url: &mut dyn FnMut(&ElicitationId) -> String,
    ) -> Result<PreparedUrlElicitation, StartError> {
        ElicitationTracker::prepare(self, initiator, client, message, url)
    }

    fn store_prepared(
        &self,
        prepared: PreparedUrlElicitation,
    ) -> Waiting<'_, Result<PendingUrlElicitation, StartError>> {
        Box::pin(ElicitationTracker::store_prepared(self, prepared))
    }

    fn collect<'a>(
        &'a self,
        id: &'a str,
        user: &'a UserId,
    ) -> Waiting<'a, Result<Collected, CompletionError>> {
        Box::pin(ElicitationTracker::collect(self, id, user))
    }

    fn keep_waiting<'a>(
        &'a self,
        id: &'a str,
        user: &'a UserId,
        until: SystemTime,
    ) -> Waiting<'a, Result<bool, CompletionError>> {
        Box::pin(ElicitationTracker::keep_waiting(self, id, user, until))
    }

    fn discard<'a>(
        &'a self,
        id: &'a str,
        user: &'a UserId,
    ) -> Waiting<'a, Result<(), CompletionError>> {
        Box::pin(ElicitationTracker::discard(self, id, user))
    }

    fn now(&self) -> SystemTime {
        ElicitationTracker::now(self)
    }
}

/// The tracker of an elicitation, shared by its clones.
pub(crate) type SharedTracker = Arc<dyn UrlTracking>;

/// What an ask in URL mode needs from its call: the tracker, the connection a 2025-11-25
/// completion notification goes to, and the forms of the server's secure page, if it has one.
#[derive(Clone)]
pub(crate) struct UrlCall {
    pub tracker: SharedTracker,
    pub connection: ConnectionId,
    #[cfg(feature = "page")]
    pub forms: Option<SecureForms>,
}
