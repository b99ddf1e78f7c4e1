//! The store of one server process: [`MemoryStore`].

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use crate::server::store::DuplicateId;
use crate::server::{ElicitationStore, EntryState, Inserted, PendingEntry, StoreError, UserId};
use crate::wire::ElicitationId;

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

    fn lock(&self) -> MutexGuard<'_, Entries> {
        // No operation can panic between its updates of the two maps, so a poisoned lock (a
        // panic elsewhere) leaves them consistent and is safe to keep using.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

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

    async fn mark_completed(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        let mut entries = self.lock();
        let Some(entry) = entries.by_id.get_mut(id) else {
            return Ok(None);
        };
        if entry.state != EntryState::Pending {
            return Ok(None);
        }
        let before = entry.clone();
        entry.state = EntryState::Completed;
        Ok(Some(before))
    }

    async fn renew(&self, entry: &PendingEntry, until: SystemTime) -> Result<bool, StoreError> {
        let mut entries = self.lock();
        match entries.by_id.get_mut(entry.id.as_str()) {
            Some(stored) if stored.state == EntryState::Pending => {
                stored.expires_at = until;
                Ok(true)
            }
            _ => Ok(false),
        }
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
