//! Starting a URL-mode elicitation: in one step ([`ElicitationTracker::start`]), or in two
//! ([`prepare`](ElicitationTracker::prepare), then
//! [`store_prepared`](ElicitationTracker::store_prepared)) for a server that must build the
//! request before it may store anything.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use crate::server::{
    AwaitedBy, ElicitationStore, ElicitationTracker, EntryState, Initiator, Inserted, PendingEntry,
    PendingUrlElicitation, StartError,
};
use crate::wire::{ElicitMode, ElicitRequestUrlParams, ElicitationCapability, ElicitationId};

/// A URL-mode elicitation checked and built, not yet stored: what
/// [`prepare`](ElicitationTracker::prepare) gives. Nothing counts against the user until
/// [`store_prepared`](ElicitationTracker::store_prepared) stores it; dropped, it leaves no
/// trace.
#[derive(Clone, Debug, PartialEq)]
#[must_use = "nothing is stored until `store_prepared` stores it"]
pub struct PreparedUrlElicitation {
    entry: PendingEntry,
    pending: PendingUrlElicitation,
}

impl PreparedUrlElicitation {
    /// The same elicitation, waited on by `by`: its completion is kept until
    /// [`collect`](ElicitationTracker::collect) takes it, instead of ending the entry.
    pub fn with_awaited_by(mut self, by: AwaitedBy) -> Self {
        self.entry.awaited_by = Some(by);
        self
    }

    /// The id it will be stored under.
    pub fn id(&self) -> &ElicitationId {
        self.pending.id()
    }

    /// The params it will be sent with.
    pub fn params(&self) -> &ElicitRequestUrlParams {
        self.pending.params()
    }
}

/// A URL-mode elicitation being started: what [`start`](ElicitationTracker::start) gives. Await
/// it to store the elicitation; say first who waits on it, if anyone, with
/// [`with_awaited_by`](Self::with_awaited_by).
///
/// The checks and the URL were done when `start` was called, so this holds none of its
/// arguments (the URL closure need not be `Send`).
#[must_use = "nothing is stored until it is awaited"]
pub struct StartUrl<'a, S> {
    tracker: &'a ElicitationTracker<S>,
    prepared: Result<PreparedUrlElicitation, StartError>,
}

impl<S> StartUrl<'_, S> {
    /// The same start, for an elicitation that `by` waits on (see
    /// [`PreparedUrlElicitation::with_awaited_by`]).
    pub fn with_awaited_by(mut self, by: AwaitedBy) -> Self {
        self.prepared = self.prepared.map(|prepared| prepared.with_awaited_by(by));
        self
    }
}

impl<'a, S: ElicitationStore> IntoFuture for StartUrl<'a, S> {
    type Output = Result<PendingUrlElicitation, StartError>;
    // Boxed: a start is one store round trip, and a named future keeps `StartUrl` nameable.
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        let StartUrl { tracker, prepared } = self;
        Box::pin(async move { tracker.store_prepared(prepared?).await })
    }
}

impl<S: ElicitationStore> ElicitationTracker<S> {
    /// Starts a URL-mode elicitation for `initiator`. `client` is the `elicitation` capability
    /// the client declared (`None` if none); `url` builds the URL from the new id, usually a
    /// connect page of the server's own that checks the user before anything else.
    ///
    /// The checks and `url` run at once, before anything is awaited (so `url` need not be
    /// `Send`); awaiting stores the elicitation. For one a handler waits on, add
    /// [`with_awaited_by`](StartUrl::with_awaited_by) before awaiting.
    pub fn start(
        &self,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> StartUrl<'_, S> {
        StartUrl {
            tracker: self,
            prepared: self.prepare(initiator, client, message, url),
        }
    }

    /// The first of two steps of [`start`](Self::start): every check, the id and the params,
    /// nothing stored. For a server that must send (or build) the request before it may
    /// store it; [`store_prepared`](Self::store_prepared) is the second step.
    pub fn prepare(
        &self,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> Result<PreparedUrlElicitation, StartError> {
        ElicitationCapability::require(client, ElicitMode::Url)
            .map_err(StartError::ModeNotSupported)?;
        let id = (self.ids)().map_err(StartError::Randomness)?;
        let checked = self
            .policy
            .check_for_user(&url(&id), &initiator.user.identifiers())
            .map_err(StartError::UnsafeUrl)?;
        let now = self.clock.now();
        let expires_at = now
            .checked_add(self.ttl)
            .ok_or(StartError::ExpiryOutOfRange)?;
        let entry = PendingEntry {
            id: id.clone(),
            user: initiator.user.clone(),
            connection: initiator.connection.clone(),
            started_at: now,
            expires_at,
            awaited_by: None,
            state: EntryState::Pending,
        };
        let pending = PendingUrlElicitation {
            notices: checked.notices().to_vec(),
            params: checked.into_params(message.into(), id),
            expires_at,
        };
        Ok(PreparedUrlElicitation { entry, pending })
    }

    /// The second step: stores what [`prepare`](Self::prepare) built, counted against its
    /// user's limit from now on.
    pub async fn store_prepared(
        &self,
        prepared: PreparedUrlElicitation,
    ) -> Result<PendingUrlElicitation, StartError> {
        let PreparedUrlElicitation { entry, pending } = prepared;
        self.purge_if_due(entry.started_at).await?;
        match self.store.insert(entry, self.max_pending_per_user).await? {
            Inserted::Stored => Ok(pending),
            Inserted::UserAtLimit => Err(StartError::TooManyPending {
                limit: self.max_pending_per_user,
            }),
        }
    }
}
