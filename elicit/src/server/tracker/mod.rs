//! The server's record of URL-mode elicitations: who started each one, from which client
//! connection, until when it may complete, and the check that whoever completes it is the user
//! who started it.

use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use crate::server::{
    Clock, ElicitationStore, EntryState, MemoryStore, PendingEntry, StoreError, SystemClock,
    UrlPolicy, UserId,
};
use crate::wire::{ElicitationId, RandomnessUnavailableError};

mod awaited;
mod error;
mod results;
mod start;

pub use awaited::Collected;
pub use error::{CompletionError, StartError};
pub use results::{Addressed, CompletedElicitation, PendingUrlElicitation};
pub use start::{PreparedUrlElicitation, StartUrl};

/// Where a tracker's ids come from: [`ElicitationId::random`] unless
/// [`with_id_source`](ElicitationTracker::with_id_source) says otherwise.
type IdSource = Box<dyn Fn() -> Result<ElicitationId, RandomnessUnavailableError> + Send + Sync>;

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
/// use elicit_mcp::wire::ElicitationCapability;
/// use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let tracker = ElicitationTracker::new(UrlPolicy::production());
/// let alice = UserId::from_verified_subject("alice-sub").unwrap();
/// let initiator = Initiator::new(alice.clone(), ConnectionId::new("session-1"));
/// let message = "Connect your Example Co account";
/// let pending = tracker
///     .start(&initiator, Some(&ElicitationCapability::form_and_url()), message, |id| {
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
pub struct ElicitationTracker<S = MemoryStore> {
    store: S,
    clock: Box<dyn Clock>,
    policy: UrlPolicy,
    ttl: Duration,
    max_pending_per_user: usize,
    ids: IdSource,
    next_purge: Mutex<Option<SystemTime>>,
}

impl<S> fmt::Debug for ElicitationTracker<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitationTracker")
            .field("policy", &self.policy)
            .field("ttl", &self.ttl)
            .field("max_pending_per_user", &self.max_pending_per_user)
            .finish_non_exhaustive()
    }
}

impl ElicitationTracker<MemoryStore> {
    /// A tracker over a [`MemoryStore`] and the system clock, with the default time to live.
    pub fn new(policy: UrlPolicy) -> Self {
        ElicitationTracker::with_store(MemoryStore::new(), policy)
    }
}

impl<S: ElicitationStore> ElicitationTracker<S> {
    /// How long an elicitation may stay pending unless [`with_ttl`](Self::with_ttl) says
    /// otherwise: 10 minutes, long enough for an OAuth flow, short enough that a leaked link
    /// goes stale.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);

    /// How many elicitations one user may have pending at once unless
    /// [`with_max_pending_per_user`](Self::with_max_pending_per_user) says otherwise: more
    /// than any real task needs in parallel, few enough that one user cannot fill the store.
    pub const DEFAULT_MAX_PENDING_PER_USER: usize = 32;

    /// A tracker over this store, on the system clock.
    pub fn with_store(store: S, policy: UrlPolicy) -> Self {
        ElicitationTracker {
            store,
            clock: Box::new(SystemClock),
            policy,
            ttl: Self::DEFAULT_TTL,
            max_pending_per_user: Self::DEFAULT_MAX_PENDING_PER_USER,
            ids: Box::new(ElicitationId::random),
            next_purge: Mutex::new(None),
        }
    }

    /// The same tracker making its ids with `ids` instead of [`ElicitationId::random`], e.g.
    /// in another alphabet. Each id must be unguessable, as the spec requires, and unique: a
    /// start whose id is already stored fails with [`StartError::Store`]. The tracker and its
    /// stores treat an id as an opaque string, whatever its characters.
    pub fn with_id_source(
        mut self,
        ids: impl Fn() -> Result<ElicitationId, RandomnessUnavailableError> + Send + Sync + 'static,
    ) -> Self {
        self.ids = Box::new(ids);
        self
    }

    /// The same tracker telling the time by `clock` instead of the system's: a test's clock,
    /// moved by hand, expires entries without waiting.
    pub fn with_clock(mut self, clock: impl Clock + 'static) -> Self {
        self.clock = Box::new(clock);
        self
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

    /// Checks, without completing it, that the elicitation is pending and belongs to `user`:
    /// what a connect page does before sending the user on to a third party, whose callback
    /// then calls [`complete`](Self::complete).
    ///
    /// `user` must come from the server's own check of the browser (a session cookie of the
    /// server or its authorization server), never from the URL.
    pub async fn verify(&self, id: &str, user: &UserId) -> Result<PendingEntry, CompletionError> {
        let entry = self
            .store
            .get(id)
            .await?
            .filter(|entry| entry.state == EntryState::Pending)
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
    /// by `user`. Returns what to notify and whom. One a handler waits on
    /// ([`with_awaited_by`](StartUrl::with_awaited_by)) stays stored, completed, until the handler
    /// [collects](Self::collect) it, once.
    pub async fn complete(
        &self,
        id: &str,
        user: &UserId,
    ) -> Result<CompletedElicitation, CompletionError> {
        let pending = self.verify(id, user).await?;
        // Both are atomic: of two completions racing past `verify`, one gets the entry.
        let taken = match pending.awaited_by {
            Some(_) => self.store.mark_completed(id).await?,
            None => self.store.remove(id).await?,
        };
        let entry = taken.ok_or(CompletionError::NotPending)?;
        if entry.user == *user {
            return Ok(CompletedElicitation { entry });
        }
        // Only if the store swapped the entry between the two calls; put it back as it was.
        self.put_back(entry).await?;
        Err(CompletionError::WrongUser)
    }

    /// Stores `entry` again in place of what is stored under its id.
    async fn put_back(&self, entry: PendingEntry) -> Result<(), StoreError> {
        self.store.remove(entry.id.as_str()).await?;
        self.store.insert(entry, usize::MAX).await.map(drop)
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

    /// The time by the tracker's clock.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn now(&self) -> SystemTime {
        self.clock.now()
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
