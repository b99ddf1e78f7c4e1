//! Single-use tokens: the record of the nonces already opened ([`ReplayGuard`]), in this
//! process ([`MemoryReplayGuard`]) or in a store every replica shares (`RedisStore`, feature
//! `redis`). The rmcp integration's `RequestStateSeal` records the states it opens in one, so
//! that a `requestState` opens once.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use crate::server::StoreError;

/// Records which sealed states were opened, so that each opens once: the record a
/// `RequestStateSeal::with_replay_guard` (feature `rmcp`) keeps.
///
/// `first_open` must be atomic across every process sharing the record: of two concurrent
/// calls for one nonce, exactly one gets `true`. `RedisStore` (feature `redis`) implements it
/// with `SET NX`, so a state opened on one replica is refused on every other.
pub trait ReplayGuard: Send + Sync + 'static {
    /// Records `nonce` (a state's random id) as opened, remembered until `until` (when the
    /// state expires anyway); `true` if it was not recorded before.
    fn first_open(
        &self,
        nonce: &str,
        until: SystemTime,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
}

/// The record of one process: each nonce with the time it can be forgotten. What a seal
/// records in unless told to share a record between processes.
#[derive(Debug, Default)]
pub struct MemoryReplayGuard(Mutex<HashMap<String, SystemTime>>);

impl MemoryReplayGuard {
    /// An empty record.
    pub fn new() -> Self {
        MemoryReplayGuard::default()
    }
}

impl ReplayGuard for MemoryReplayGuard {
    async fn first_open(&self, nonce: &str, until: SystemTime) -> Result<bool, StoreError> {
        let now = SystemTime::now();
        let mut opened = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        opened.retain(|_, forget_at| *forget_at > now);
        Ok(opened.insert(nonce.to_owned(), until).is_none())
    }
}
