//! The server's record of URL-mode elicitations: who started each one, from which client
//! connection, until when it may complete, and the check that whoever completes it is the user
//! who started it.

use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use crate::server::policy::{UnsafeUrlError, UrlNotice, UrlPolicy};
use crate::wire::{
    ElicitMode, ElicitRequest, ElicitRequestParams, ElicitRequestUrlParams,
    ElicitationCompleteNotification, ElicitationId, RandomnessUnavailableError, RequestId,
    UrlElicitationRequiredError,
};
use crate::wire::{ElicitationCapability, ModeNotSupportedError};

use crate::server::{ConnectionId, Initiator, StoreError, UserId};

mod awaited;
pub(crate) use awaited::AwaitedBy;
#[cfg(feature = "rmcp")]
pub(crate) use awaited::Collected;

/// One pending URL-mode elicitation as a store keeps it.
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
    /// From when on it can no longer complete.
    pub expires_at: SystemTime,
}

impl PendingEntry {
    /// Whether it has expired at `now`.
    pub fn is_expired(&self, now: SystemTime) -> bool {
        now >= self.expires_at
    }
}

/// Where an [`ElicitationTracker`] keeps pending elicitations. The spec requires this storage
/// to be protected against unauthorized access: a persistent implementation must not expose it.
///
/// `remove` must be atomic: of two concurrent calls for one id, at most one gets the entry,
/// across every process sharing the store. That is what makes completion single-use. `insert`
/// must be atomic too: the per-user limit holds however many starts race.
///
/// The methods are async because a shared store (`RedisStore`, feature `redis`) does network
/// I/O; [`MemoryStore`]'s futures are ready at once. Implement
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
pub enum Inserted {
    /// The entry is stored.
    Stored,
    /// The user already has as many pending elicitations as allowed; nothing was stored.
    UserAtLimit,
}

/// An in-memory [`ElicitationStore`]: for a single server process, and for tests.
#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: Mutex<Entries>,
}

/// The entries, and each user's ids among them so the per-user limit is counted without a
/// scan of everyone's.
#[derive(Debug, Default)]
struct Entries {
    by_id: HashMap<ElicitationId, PendingEntry>,
    by_user: HashMap<UserId, HashSet<ElicitationId>>,
}

impl Entries {
    fn remove(&mut self, id: &str) -> Option<PendingEntry> {
        let entry = self.by_id.remove(id)?;
        if let Some(ids) = self.by_user.get_mut(&entry.user) {
            ids.remove(id);
            if ids.is_empty() {
                self.by_user.remove(&entry.user);
            }
        }
        Some(entry)
    }

    fn pending_for(&self, user: &UserId, now: SystemTime) -> usize {
        self.by_user.get(user).map_or(0, |ids| {
            ids.iter()
                .filter_map(|id| self.by_id.get(id))
                .filter(|entry| !entry.is_expired(now))
                .count()
        })
    }
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        MemoryStore::default()
    }

    /// How many entries are stored.
    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    /// Whether no entry is stored.
    pub fn is_empty(&self) -> bool {
        self.lock().by_id.is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        // No operation can panic between its updates of the two maps, so a poisoned lock (a
        // panic elsewhere) leaves them consistent and is safe to keep using.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
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

impl ElicitationStore for MemoryStore {
    async fn insert(
        &self,
        entry: PendingEntry,
        max_per_user: usize,
    ) -> Result<Inserted, StoreError> {
        let mut entries = self.lock();
        if entries.by_id.contains_key(&entry.id) {
            return Err(StoreError::new(DuplicateId));
        }
        if entries.pending_for(&entry.user, entry.started_at) >= max_per_user {
            return Ok(Inserted::UserAtLimit);
        }
        entries
            .by_user
            .entry(entry.user.clone())
            .or_default()
            .insert(entry.id.clone());
        entries.by_id.insert(entry.id.clone(), entry);
        Ok(Inserted::Stored)
    }

    async fn get(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        Ok(self.lock().by_id.get(id).cloned())
    }

    async fn remove(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        Ok(self.lock().remove(id))
    }

    async fn remove_expired(&self, now: SystemTime) -> Result<usize, StoreError> {
        let mut entries = self.lock();
        let expired: Vec<ElicitationId> = entries
            .by_id
            .values()
            .filter(|entry| entry.is_expired(now))
            .map(|entry| entry.id.clone())
            .collect();
        for id in &expired {
            entries.remove(id.as_str());
        }
        Ok(expired.len())
    }
}

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

    async fn remove_expired(&self, now: SystemTime) -> Result<usize, StoreError> {
        (**self).remove_expired(now).await
    }
}

/// The time source of an [`ElicitationTracker`]; tests inject their own to expire entries
/// without waiting.
pub trait Clock: Send + Sync {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The system's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

impl<F: Fn() -> SystemTime + Send + Sync> Clock for F {
    fn now(&self) -> SystemTime {
        self()
    }
}

/// Why an elicitation could not be started.
#[derive(Debug)]
#[non_exhaustive]
pub enum StartError {
    /// The client did not declare URL-mode elicitation.
    ModeNotSupported(ModeNotSupportedError),
    /// The URL breaks the policy.
    UnsafeUrl(UnsafeUrlError),
    /// No randomness for the id.
    Randomness(RandomnessUnavailableError),
    /// The expiry time is past what the clock can represent.
    ExpiryOutOfRange,
    /// The user already has as many pending elicitations as the tracker allows
    /// ([`ElicitationTracker::with_max_pending_per_user`]): complete or discard one first, or
    /// wait for one to expire.
    TooManyPending {
        /// The limit.
        limit: usize,
    },
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::ModeNotSupported(e) => write!(f, "cannot start a URL elicitation: {e}"),
            StartError::UnsafeUrl(e) => write!(f, "refusing to send the elicitation URL: {e}"),
            StartError::Randomness(e) => write!(f, "cannot make an elicitation id: {e}"),
            StartError::ExpiryOutOfRange => {
                f.write_str("the elicitation's time to live overflows the clock")
            }
            StartError::TooManyPending { limit } => write!(
                f,
                "the user already has {limit} pending URL elicitations, the most allowed; \
                 complete or discard one, or wait for one to expire"
            ),
            StartError::Store(e) => e.fmt(f),
        }
    }
}

impl Error for StartError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            StartError::ModeNotSupported(e) => Some(e),
            StartError::UnsafeUrl(e) => Some(e),
            StartError::Randomness(e) => Some(e),
            StartError::ExpiryOutOfRange | StartError::TooManyPending { .. } => None,
            StartError::Store(e) => Some(e),
        }
    }
}

impl From<StoreError> for StartError {
    fn from(e: StoreError) -> Self {
        StartError::Store(e)
    }
}

/// Why an elicitation could not be verified or completed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CompletionError {
    /// No pending elicitation has this id: it never existed, already completed, or expired
    /// and was purged.
    NotPending,
    /// It expired before completing; it is now removed.
    Expired,
    /// Another user started it. The spec's phishing defence: the entry stays pending for its
    /// own user, and whoever opened the link learns nothing about them.
    WrongUser,
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for CompletionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompletionError::NotPending => f.write_str(
                "no pending elicitation has this id (unknown, already completed, or expired)",
            ),
            CompletionError::Expired => f.write_str("the elicitation expired"),
            CompletionError::WrongUser => f.write_str(
                "the elicitation was started by another user; sign in as that user to complete it",
            ),
            CompletionError::Store(e) => e.fmt(f),
        }
    }
}

impl Error for CompletionError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            CompletionError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for CompletionError {
    fn from(e: StoreError) -> Self {
        CompletionError::Store(e)
    }
}

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
    params: ElicitRequestUrlParams,
    expires_at: SystemTime,
    notices: Vec<UrlNotice>,
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
    entry: PendingEntry,
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

    /// The `notifications/elicitation/complete` to send, addressed to the client connection
    /// that started the elicitation and to no other.
    pub fn notification(&self) -> Addressed<ElicitationCompleteNotification> {
        Addressed {
            to: self.entry.connection.clone(),
            message: ElicitationCompleteNotification::new(self.entry.id.clone()),
        }
    }
}

/// Issues URL-mode elicitations and completes them, enforcing the spec's server rules:
///
/// - the client must have declared URL mode;
/// - the URL must pass the [`UrlPolicy`], and must not mention the user's subject;
/// - each id has [`ElicitationId::RANDOM_BITS`] bits of OS randomness;
/// - each elicitation is bound to the [`UserId`] from the server's authorization (never to a
///   session id alone) and to the connection it came from;
/// - one user has at most [`max_pending_per_user`](Self::max_pending_per_user) pending;
/// - only the user who started it can complete it, once, before it expires;
/// - completion yields the notification, addressed to the starting connection only.
///
/// ```
/// use elicit_mcp::ElicitationCapability;
/// use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let tracker = ElicitationTracker::new(UrlPolicy::production());
/// let alice = UserId::from_verified_subject("alice-sub").unwrap();
/// let initiator = Initiator::new(alice.clone(), ConnectionId::new("session-1"));
/// let pending = tracker
///     .start(&initiator, Some(&ElicitationCapability::form_and_url()), "Connect your Example Co account", |id| {
///         format!("https://mcp.example.com/connect?elicitationId={id}")
///     })
///     .await
///     .unwrap();
///
/// // The connect page, opened by someone else: refused, and still pending for Alice.
/// let bob = UserId::from_verified_subject("bob-sub").unwrap();
/// assert!(tracker.complete(pending.id().as_str(), &bob).await.is_err());
///
/// // Opened by Alice: completed, and the notification goes to her connection.
/// let done = tracker.complete(pending.id().as_str(), &alice).await.unwrap();
/// assert_eq!(done.notification().to().as_str(), "session-1");
///
/// // Once only.
/// assert!(tracker.complete(pending.id().as_str(), &alice).await.is_err());
/// # }
/// ```
pub struct ElicitationTracker<S = MemoryStore, C = SystemClock> {
    store: S,
    clock: C,
    policy: UrlPolicy,
    ttl: Duration,
    max_pending_per_user: usize,
    next_purge: Mutex<Option<SystemTime>>,
}

impl<S, C> fmt::Debug for ElicitationTracker<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitationTracker")
            .field("policy", &self.policy)
            .field("ttl", &self.ttl)
            .field("max_pending_per_user", &self.max_pending_per_user)
            .finish_non_exhaustive()
    }
}

impl ElicitationTracker<MemoryStore, SystemClock> {
    /// A tracker over a [`MemoryStore`] and the system clock, with the default time to live.
    pub fn new(policy: UrlPolicy) -> Self {
        ElicitationTracker::with_store(MemoryStore::new(), SystemClock, policy)
    }
}

impl<S: ElicitationStore, C: Clock> ElicitationTracker<S, C> {
    /// How long an elicitation may stay pending unless [`with_ttl`](Self::with_ttl) says
    /// otherwise: 10 minutes, long enough for an OAuth flow, short enough that a leaked link
    /// goes stale.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);

    /// How many elicitations one user may have pending at once unless
    /// [`with_max_pending_per_user`](Self::with_max_pending_per_user) says otherwise: more
    /// than any real task needs in parallel, few enough that one user cannot fill the store.
    pub const DEFAULT_MAX_PENDING_PER_USER: usize = 32;

    /// A tracker over this store and clock.
    pub fn with_store(store: S, clock: C, policy: UrlPolicy) -> Self {
        ElicitationTracker {
            store,
            clock,
            policy,
            ttl: Self::DEFAULT_TTL,
            max_pending_per_user: Self::DEFAULT_MAX_PENDING_PER_USER,
            next_purge: Mutex::new(None),
        }
    }

    /// The same tracker with another time to live.
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How long an elicitation may stay pending.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The same tracker with another limit on how many elicitations one user may have
    /// pending; [`start`](Self::start) refuses more with [`StartError::TooManyPending`].
    pub fn with_max_pending_per_user(mut self, limit: usize) -> Self {
        self.max_pending_per_user = limit;
        self
    }

    /// How many elicitations one user may have pending.
    pub fn max_pending_per_user(&self) -> usize {
        self.max_pending_per_user
    }

    /// The URL policy.
    pub fn policy(&self) -> &UrlPolicy {
        &self.policy
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Starts a URL-mode elicitation for `initiator`. `client` is the `elicitation` capability
    /// the client declared (`None` if none); `url` builds the URL from the new id, usually a
    /// connect page of the server's own that checks the user before anything else.
    ///
    /// The checks and `url` run at once, before the returned future is polled (so `url` need
    /// not be `Send`); the future stores the elicitation.
    pub fn start<'a, M, U>(
        &'a self,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: M,
        url: U,
    ) -> impl Future<Output = Result<PendingUrlElicitation, StartError>> + Send + use<'a, S, C, M, U>
    where
        M: Into<String>,
        U: FnOnce(&ElicitationId) -> String,
    {
        self.store_prepared(self.prepare(initiator, client, message.into(), url))
    }

    /// The stored half of [`start`](Self::start), whose future holds none of `start`'s
    /// argument types (the rmcp integration's futures must not).
    pub(crate) async fn store_prepared(
        &self,
        prepared: Result<(PendingEntry, PendingUrlElicitation), StartError>,
    ) -> Result<PendingUrlElicitation, StartError> {
        let (entry, pending) = prepared?;
        self.purge_if_due(entry.started_at).await?;
        match self.store.insert(entry, self.max_pending_per_user).await? {
            Inserted::Stored => Ok(pending),
            Inserted::UserAtLimit => Err(StartError::TooManyPending {
                limit: self.max_pending_per_user,
            }),
        }
    }

    /// What [`start`](Self::start) checks and builds before it stores anything.
    pub(crate) fn prepare(
        &self,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: String,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> Result<(PendingEntry, PendingUrlElicitation), StartError> {
        let id = ElicitationId::random().map_err(StartError::Randomness)?;
        self.prepare_with_id(id, initiator, client, message, url)
    }

    /// [`prepare`](Self::prepare) with the id made.
    fn prepare_with_id(
        &self,
        id: ElicitationId,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: String,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> Result<(PendingEntry, PendingUrlElicitation), StartError> {
        ElicitationCapability::require(client, ElicitMode::Url)
            .map_err(StartError::ModeNotSupported)?;
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
        };
        let pending = PendingUrlElicitation {
            notices: checked.notices().to_vec(),
            params: checked.into_params(message, id),
            expires_at,
        };
        Ok((entry, pending))
    }

    /// Checks, without completing it, that the elicitation is pending and belongs to `user`:
    /// what a connect page does before sending the user on to a third party, whose callback
    /// then calls [`complete`](Self::complete).
    ///
    /// `user` must come from the server's own check of the browser (a session cookie of the
    /// server or its authorization server), never from the URL.
    pub async fn verify(&self, id: &str, user: &UserId) -> Result<PendingEntry, CompletionError> {
        if awaited::is_done_id(id) {
            return Err(CompletionError::NotPending);
        }
        let entry = self
            .store
            .get(id)
            .await?
            .ok_or(CompletionError::NotPending)?;
        if entry.is_expired(self.clock.now()) {
            self.store.remove(id).await?;
            return Err(CompletionError::Expired);
        }
        if entry.user != *user {
            return Err(CompletionError::WrongUser);
        }
        Ok(entry)
    }

    /// Completes the elicitation for `user`, once: it must be pending, unexpired, and started
    /// by `user`. Returns what to notify and whom. An elicitation asked with
    /// `elicit_mcp::rmcp::Ask::url` also keeps a record of its completion, which the waiting
    /// handler collects, once (on 2026-07-28, the client's retry).
    pub async fn complete(
        &self,
        id: &str,
        user: &UserId,
    ) -> Result<CompletedElicitation, CompletionError> {
        let pending = self.verify(id, user).await?;
        // One a handler waits on (`Ask::url`) keeps a record of its completion for the handler.
        let awaited = AwaitedBy::of(id).is_some();
        if awaited {
            self.record_done(&pending).await?;
        }
        // `remove` is atomic: of two completions racing past `verify`, one gets the entry.
        let removed = self.store.remove(id).await;
        let refused = match removed {
            Ok(Some(entry)) if entry.user == *user => return Ok(CompletedElicitation { entry }),
            // Only if the store swapped the entry between the two calls; put it back.
            Ok(Some(entry)) => self
                .store
                .insert(entry, usize::MAX)
                .await
                .map_or_else(CompletionError::Store, |_| CompletionError::WrongUser),
            Ok(None) => CompletionError::NotPending,
            Err(error) => CompletionError::Store(error),
        };
        if awaited {
            self.forget_done(id).await;
        }
        Err(refused)
    }

    /// Drops a pending elicitation of `user`'s, e.g. after the client answered decline or
    /// cancel. Another user's elicitation is left alone.
    pub async fn discard(&self, id: &str, user: &UserId) -> Result<(), CompletionError> {
        match self.verify(id, user).await {
            Ok(_) => {
                self.store.remove(id).await?;
                Ok(())
            }
            Err(CompletionError::Expired) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Removes every expired entry now; returns how many. [`start`](Self::start) also does
    /// this at most once per time-to-live quarter, so a store does not grow without bound.
    pub async fn purge_expired(&self) -> Result<usize, StoreError> {
        self.store.remove_expired(self.clock.now()).await
    }

    async fn purge_if_due(&self, now: SystemTime) -> Result<(), StoreError> {
        {
            let mut next = self
                .next_purge
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if next.is_some_and(|due| now < due) {
                return Ok(());
            }
            *next = now.checked_add(self.ttl / 4);
        }
        self.store.remove_expired(now).await.map(drop)
    }
}
