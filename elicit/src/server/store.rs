//! What a store of URL-mode elicitations keeps, and the trait every store implements.

use std::error::Error;
use std::fmt;
use std::future::Future;
use std::time::SystemTime;

use crate::server::{ConnectionId, StoreError, UserId};
use crate::wire::ElicitationId;

/// One URL-mode elicitation as a store keeps it: pending, or (one a handler waits on)
/// completed and kept until the handler collects the completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingEntry {
    /// The elicitation's id.
    pub id: ElicitationId,
    /// The user who started it, the only one who may complete it.
    pub user: UserId,
    /// The connection to notify on completion.
    pub connection: ConnectionId,
    /// When it was started.
    pub started_at: SystemTime,
    /// From when on it can no longer complete, nor its completion be collected.
    pub expires_at: SystemTime,
    /// Who waits on its completion: `None` for a plain elicitation, whose entry goes when it
    /// completes.
    pub awaited_by: Option<AwaitedBy>,
    /// Where it is in its life.
    pub state: EntryState,
}

impl PendingEntry {
    /// Whether it has expired at `now`.
    pub fn is_expired(&self, now: SystemTime) -> bool {
        now >= self.expires_at
    }
}

/// Who waits on the completion of an elicitation started with
/// [`with_awaited_by`](crate::server::StartUrl::with_awaited_by): a handler that goes on
/// only once the out-of-band step is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AwaitedBy {
    /// A handler on a session (MCP 2025-11-25), whose client also gets the completion
    /// notification.
    Session,
    /// A retried request (MCP 2026-07-28): that revision has no completion notification, and
    /// the retry collects the completion.
    Retry,
}

/// Where a stored elicitation is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EntryState {
    /// Started, not yet completed: the only state a user can complete.
    Pending,
    /// Completed by its user, kept for the handler waiting on it
    /// ([`PendingEntry::awaited_by`]) to collect, once.
    Completed,
}

/// Where an [`ElicitationTracker`](crate::server::ElicitationTracker) keeps elicitations. The
/// spec requires this storage to be protected against unauthorized access: a persistent
/// implementation must not expose it.
///
/// `remove` and `mark_completed` must be atomic: of two concurrent calls for one id, at most
/// one gets the entry, across every process sharing the store. That is what makes completion
/// single-use. `insert` must be atomic too: the per-user limit holds however many starts race.
///
/// Ids are opaque strings: a store keys entries by the whole id, whatever its alphabet.
///
/// The methods are async because a shared store (`RedisStore`, feature `redis`) does network
/// I/O; [`MemoryStore`](crate::server::MemoryStore)'s futures are ready at once. Implement
/// them with `async fn`.
pub trait ElicitationStore: Send + Sync {
    /// Stores a new entry, unless its user already has `max_per_user` entries unexpired at
    /// the entry's `started_at`. An entry with the same id already stored is an error.
    fn insert(
        &self,
        entry: PendingEntry,
        max_per_user: usize,
    ) -> impl Future<Output = Result<Inserted, StoreError>> + Send;
    /// The entry with this id, if one is stored.
    fn get(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<PendingEntry>, StoreError>> + Send;
    /// Removes the entry with this id and returns it, if one was stored.
    fn remove(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<PendingEntry>, StoreError>> + Send;
    /// Sets the state of the entry with this id to [`EntryState::Completed`] if it is
    /// [`Pending`](EntryState::Pending), keeping everything else (its expiry too), and returns
    /// the entry as it was before; `None` if no pending entry has this id.
    fn mark_completed(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<PendingEntry>, StoreError>> + Send;
    /// Sets the expiry of `entry` to `until` if it is still stored and
    /// [`Pending`](EntryState::Pending), keeping everything else; `false` if it is not. It then
    /// counts against its user's limit until `until`, no longer: how an elicitation that a
    /// 2026-07-28 call waits on stops counting once the call stops retrying.
    fn renew(
        &self,
        entry: &PendingEntry,
        until: SystemTime,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
    /// Removes every entry expired at `now`; returns how many. A store whose entries expire by
    /// themselves returns 0.
    fn remove_expired(
        &self,
        now: SystemTime,
    ) -> impl Future<Output = Result<usize, StoreError>> + Send;
}

/// What [`ElicitationStore::insert`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
#[non_exhaustive]
pub enum Inserted {
    /// The entry is stored.
    Stored,
    /// The user already has as many pending elicitations as allowed; nothing was stored.
    UserAtLimit,
}

/// Why a store refuses an entry: its id is already stored. Every store says it the same way.
#[derive(Debug)]
pub(crate) struct DuplicateId;

impl fmt::Display for DuplicateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an elicitation with this id is already stored")
    }
}

impl Error for DuplicateId {}

impl<S: ElicitationStore> ElicitationStore for std::sync::Arc<S> {
    async fn insert(
        &self,
        entry: PendingEntry,
        max_per_user: usize,
    ) -> Result<Inserted, StoreError> {
        (**self).insert(entry, max_per_user).await
    }

    async fn get(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        (**self).get(id).await
    }

    async fn remove(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        (**self).remove(id).await
    }

    async fn mark_completed(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        (**self).mark_completed(id).await
    }

    async fn renew(&self, entry: &PendingEntry, until: SystemTime) -> Result<bool, StoreError> {
        (**self).renew(entry, until).await
    }

    async fn remove_expired(&self, now: SystemTime) -> Result<usize, StoreError> {
        (**self).remove_expired(now).await
    }
}
