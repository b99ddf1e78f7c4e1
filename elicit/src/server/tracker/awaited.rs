//! URL-mode elicitations a handler waits on (`elicit_mcp::rmcp::Ask::url`): the handler goes on
//! only once the out-of-band step is done, so the completion leaves a record that the handler
//! collects, once.
//!
//! A plain elicitation's entry is removed when it completes, after which nothing tells a
//! completed elicitation from an expired or discarded one. A waited-on elicitation's id says
//! that it is one (a letter that is not a hex digit before the random part), and its
//! completion first writes a *done* entry under a derived id, then removes the pending one.
//! The done entry goes through the same store as the pending one: bound to the same user,
//! with the same expiry, removed atomically when collected, shared by the replicas of a
//! `RedisStore`.

use crate::server::tracker::{
    Clock, CompletionError, ElicitationStore, ElicitationTracker, PendingEntry,
};
#[cfg(feature = "rmcp")]
use crate::server::tracker::{Initiator, PendingUrlElicitation, StartError, UserId};
#[cfg(feature = "rmcp")]
use crate::wire::ElicitationCapability;
use crate::wire::ElicitationId;

/// Who waits for a waited-on elicitation's completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AwaitedBy {
    /// A handler on a 2025-11-25 session, which also gets the completion notification.
    Session,
    /// A handler's retried request on 2026-07-28, which has no completion notification.
    Retry,
}

impl AwaitedBy {
    fn prefix(self) -> char {
        match self {
            AwaitedBy::Session => 'w',
            AwaitedBy::Retry => 'r',
        }
    }

    /// Who waits on the elicitation with this id, `None` for a plain one.
    pub(crate) fn of(id: &str) -> Option<AwaitedBy> {
        if is_done_id(id) {
            return None;
        }
        [AwaitedBy::Session, AwaitedBy::Retry]
            .into_iter()
            .find(|by| id.starts_with(by.prefix()))
    }
}

/// What a waiting handler finds when it looks.
#[cfg(feature = "rmcp")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Collected {
    /// The elicitation is still pending: the out-of-band step is not done.
    Waiting,
    /// It completed, and this call collected the completion (no other will).
    Completed(ElicitationId),
}

const DONE_SUFFIX: &str = ".done";

fn done_id(id: &str) -> String {
    format!("{id}{DONE_SUFFIX}")
}

/// Whether `id` names a done entry rather than an elicitation: such an id is never pending.
pub(crate) fn is_done_id(id: &str) -> bool {
    id.ends_with(DONE_SUFFIX)
}

/// The waiting side, used by `elicit_mcp::rmcp::Ask::url`.
#[cfg(feature = "rmcp")]
impl<S: ElicitationStore, C: Clock> ElicitationTracker<S, C> {
    /// [`prepare`](Self::prepare) for an elicitation that `by` waits on.
    pub(crate) fn prepare_awaited(
        &self,
        by: AwaitedBy,
        initiator: &Initiator,
        client: Option<&ElicitationCapability>,
        message: String,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> Result<(PendingEntry, PendingUrlElicitation), StartError> {
        let id = ElicitationId::random().map_err(StartError::Randomness)?;
        let id = ElicitationId::new(format!("{}{}", by.prefix(), id.as_str()));
        self.prepare_with_id(id, initiator, client, message, url)
    }

    /// Whether the waited-on elicitation `id` of `user` has completed: `Waiting` while it is
    /// pending; `Completed` once, after its completion; an error when it expired, never
    /// existed, was discarded, was already collected, or belongs to another user.
    pub(crate) async fn collect(
        &self,
        id: &str,
        user: &UserId,
    ) -> Result<Collected, CompletionError> {
        if AwaitedBy::of(id).is_none() {
            return Err(CompletionError::NotPending);
        }
        // Done first, then pending, then done again: a completion writes its done entry before
        // it removes the pending one, so one of the three looks sees it.
        if let Some(completed) = self.take_done(id, user).await? {
            return Ok(completed);
        }
        match self.verify(id, user).await {
            Ok(_) => Ok(Collected::Waiting),
            Err(CompletionError::NotPending) => self
                .take_done(id, user)
                .await?
                .ok_or(CompletionError::NotPending),
            Err(other) => Err(other),
        }
    }

    async fn take_done(
        &self,
        id: &str,
        user: &UserId,
    ) -> Result<Option<Collected>, CompletionError> {
        let done_id = done_id(id);
        let Some(done) = self.store.get(&done_id).await? else {
            return Ok(None);
        };
        if done.user != *user {
            return Err(CompletionError::WrongUser);
        }
        if done.is_expired(self.clock.now()) {
            self.store.remove(&done_id).await?;
            return Err(CompletionError::Expired);
        }
        // `remove` is atomic: of two handlers collecting at once, one gets it.
        if self.store.remove(&done_id).await?.is_none() {
            return Err(CompletionError::NotPending);
        }
        Ok(Some(Collected::Completed(ElicitationId::new(id))))
    }
}

/// The completing side, used by [`complete`](ElicitationTracker::complete).
impl<S: ElicitationStore, C: Clock> ElicitationTracker<S, C> {
    /// Writes the done entry of `pending`, which [`complete`](Self::complete) verified, before
    /// the pending entry is removed: a handler looking in between finds one or the other.
    /// Of two completions racing here, the one whose write fails finds the other's.
    pub(crate) async fn record_done(&self, pending: &PendingEntry) -> Result<(), CompletionError> {
        let done = PendingEntry {
            id: ElicitationId::new(done_id(pending.id.as_str())),
            started_at: self.clock.now(),
            ..pending.clone()
        };
        let done_id = done.id.clone();
        // Counted against the user's limit as the pending entry was, never refused by it.
        match self.store.insert(done, usize::MAX).await {
            Ok(_) => Ok(()),
            Err(error) => match self.store.get(done_id.as_str()).await? {
                Some(_) => Err(CompletionError::NotPending),
                None => Err(CompletionError::Store(error)),
            },
        }
    }

    /// Undoes [`record_done`](Self::record_done) when the completion failed after it.
    pub(crate) async fn forget_done(&self, id: &str) {
        // If the store fails, the done entry expires with the elicitation.
        let _ = self.store.remove(&done_id(id)).await;
    }
}

#[cfg(all(test, feature = "rmcp"))]
mod tests {
    use super::*;
    use crate::server::{ConnectionId, UrlPolicy};

    fn initiator(subject: &str) -> Initiator {
        Initiator::new(
            UserId::from_verified_subject(subject).unwrap(),
            ConnectionId::new("c1"),
        )
    }

    async fn started(tracker: &ElicitationTracker, by: AwaitedBy, who: &Initiator) -> String {
        let prepared = tracker.prepare_awaited(
            by,
            who,
            Some(&ElicitationCapability::url()),
            "Connect".to_owned(),
            |id| format!("https://mcp.example.com/connect?elicitationId={id}"),
        );
        let pending = tracker.store_prepared(prepared).await.unwrap();
        pending.id().as_str().to_owned()
    }

    #[tokio::test]
    async fn a_completion_is_collected_once_by_its_user() {
        let tracker = ElicitationTracker::new(UrlPolicy::production());
        let (alice, bob) = (initiator("alice"), initiator("bob"));
        let id = started(&tracker, AwaitedBy::Retry, &alice).await;
        assert_eq!(AwaitedBy::of(&id), Some(AwaitedBy::Retry));
        assert_eq!(
            tracker.collect(&id, &alice.user).await.unwrap(),
            Collected::Waiting
        );
        tracker.complete(&id, &alice.user).await.unwrap();
        assert!(matches!(
            tracker.collect(&id, &bob.user).await,
            Err(CompletionError::WrongUser)
        ));
        assert_eq!(
            tracker.collect(&id, &alice.user).await.unwrap(),
            Collected::Completed(ElicitationId::new(id.clone()))
        );
        assert!(matches!(
            tracker.collect(&id, &alice.user).await,
            Err(CompletionError::NotPending)
        ));
        assert!(tracker.store().is_empty());
    }

    #[tokio::test]
    async fn a_done_entry_is_not_an_elicitation() {
        let tracker = ElicitationTracker::new(UrlPolicy::production());
        let alice = initiator("alice");
        let id = started(&tracker, AwaitedBy::Session, &alice).await;
        tracker.complete(&id, &alice.user).await.unwrap();
        let done = done_id(&id);
        assert_eq!(AwaitedBy::of(&done), None);
        for refused in [
            tracker.verify(&done, &alice.user).await.err(),
            tracker.complete(&done, &alice.user).await.err(),
        ] {
            assert!(matches!(refused, Some(CompletionError::NotPending)));
        }
        // A plain elicitation is never collected.
        assert!(matches!(
            tracker.collect("0123abcd", &alice.user).await,
            Err(CompletionError::NotPending)
        ));
    }
}
