//! URL-mode elicitations a handler waits on (`elicit_mcp::rmcp::Ask::url`, or another SDK's
//! integration): the handler goes on only once the out-of-band step is done, so the completion
//! leaves a record that the handler collects, once.
//!
//! A plain elicitation's entry is removed when it completes, after which nothing tells a
//! completed elicitation from an expired or discarded one. A waited-on elicitation's entry
//! says who waits on it ([`PendingEntry::awaited_by`]), and its completion turns the entry's
//! state to [`EntryState::Completed`] instead of removing it. The completed entry stays in the
//! same store: bound to the same user, with the same expiry, removed atomically when
//! collected, shared by the replicas of a `RedisStore`.

use std::time::SystemTime;

use crate::server::{CompletionError, ElicitationStore, ElicitationTracker, EntryState, UserId};
use crate::wire::ElicitationId;

/// What a waiting handler finds when it [collects](ElicitationTracker::collect).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Collected {
    /// The elicitation is still pending: the out-of-band step is not done.
    Waiting,
    /// It completed, and this call collected the completion (no other will).
    Completed(ElicitationId),
}

/// The waiting side: what an SDK integration's handler calls.
impl<S: ElicitationStore> ElicitationTracker<S> {
    /// Keeps the waited-on elicitation `id` of `user` pending until `until` and no longer,
    /// while it is: how a 2026-07-28 call's retries keep it, and how it stops counting against
    /// the user's limit once they stop. `true` when it was renewed, which the store does only
    /// while it is pending. Nothing is done for one that is not pending, another user's, or
    /// expired (`false`; the next [`collect`](Self::collect) says which).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) async fn keep_waiting(
        &self,
        id: &str,
        user: &UserId,
        until: SystemTime,
    ) -> Result<bool, CompletionError> {
        let Some(entry) = self.store.get(id).await? else {
            return Ok(false);
        };
        let waiting = entry.awaited_by.is_some()
            && entry.user == *user
            && entry.state == EntryState::Pending
            && !entry.is_expired(self.clock.now());
        if !waiting {
            return Ok(false);
        }
        Ok(self.store.renew(&entry, until).await?)
    }

    /// Whether the waited-on elicitation `id` of `user` has completed: `Waiting` while it is
    /// pending; `Completed` once, after its completion; an error when it expired, never
    /// existed, was discarded, was already collected, belongs to another user, or is a plain
    /// elicitation (which nothing waits on).
    pub async fn collect(&self, id: &str, user: &UserId) -> Result<Collected, CompletionError> {
        let entry = self
            .store
            .get(id)
            .await?
            .filter(|entry| entry.awaited_by.is_some())
            .ok_or(CompletionError::NotPending)?;
        if entry.user != *user {
            return Err(CompletionError::WrongUser);
        }
        if entry.is_expired(self.clock.now()) {
            self.store.remove(id).await?;
            return Err(CompletionError::Expired);
        }
        if entry.state == EntryState::Pending {
            return Ok(Collected::Waiting);
        }
        // `remove` is atomic: of two handlers collecting at once, one gets it.
        match self.store.remove(id).await? {
            Some(taken) if taken.state == EntryState::Completed => {
                Ok(Collected::Completed(taken.id))
            }
            // Only if the store swapped the entry between the two calls; put it back.
            Some(swapped) => {
                self.store.insert(swapped, usize::MAX).await.map(drop)?;
                Ok(Collected::Waiting)
            }
            None => Err(CompletionError::NotPending),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::{AwaitedBy, ConnectionId, Initiator, UrlPolicy};
    use crate::wire::ElicitationCapability;

    fn initiator(subject: &str) -> Initiator {
        Initiator::new(
            UserId::from_verified_subject(subject).unwrap(),
            ConnectionId::new("c1"),
        )
    }

    async fn started(tracker: &ElicitationTracker, by: AwaitedBy, who: &Initiator) -> String {
        let pending = tracker
            .start(who, Some(&ElicitationCapability::url()), "Connect", |id| {
                format!("https://mcp.example.com/connect?elicitationId={id}")
            })
            .with_awaited_by(by)
            .await
            .unwrap();
        pending.id().as_str().to_owned()
    }

    #[tokio::test]
    async fn a_completion_is_collected_once_by_its_user() {
        let tracker = ElicitationTracker::new(UrlPolicy::production());
        let (alice, bob) = (initiator("alice"), initiator("bob"));
        let id = started(&tracker, AwaitedBy::Retry, &alice).await;
        assert_eq!(
            tracker.collect(&id, &alice.user).await.unwrap(),
            Collected::Waiting
        );
        let done = tracker.complete(&id, &alice.user).await.unwrap();
        assert_eq!(done.awaited_by(), Some(AwaitedBy::Retry));
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
    async fn a_completed_elicitation_is_no_longer_pending() {
        let tracker = ElicitationTracker::new(UrlPolicy::production());
        let alice = initiator("alice");
        let id = started(&tracker, AwaitedBy::Session, &alice).await;
        tracker.complete(&id, &alice.user).await.unwrap();
        for refused in [
            tracker.verify(&id, &alice.user).await.err(),
            tracker.complete(&id, &alice.user).await.err(),
            tracker.discard(&id, &alice.user).await.err(),
        ] {
            assert!(matches!(refused, Some(CompletionError::NotPending)));
        }
        assert_eq!(tracker.store().len(), 1, "kept for the handler");
    }

    #[tokio::test]
    async fn a_plain_elicitation_is_never_collected() {
        let tracker = ElicitationTracker::new(UrlPolicy::production());
        let alice = initiator("alice");
        let plain = tracker
            .start(
                &alice,
                Some(&ElicitationCapability::url()),
                "Connect",
                |id| format!("https://mcp.example.com/connect?elicitationId={id}"),
            )
            .await
            .unwrap();
        assert!(matches!(
            tracker.collect(plain.id().as_str(), &alice.user).await,
            Err(CompletionError::NotPending)
        ));
        let done = tracker
            .complete(plain.id().as_str(), &alice.user)
            .await
            .unwrap();
        assert_eq!(done.awaited_by(), None);
        assert!(tracker.store().is_empty());
    }
}
