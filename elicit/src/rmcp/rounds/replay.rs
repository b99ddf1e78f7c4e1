//! Single-use `requestState`: the record of the states already opened ([`ReplayGuard`]), in
//! this process by default ([`MemoryReplayGuard`]) or in a store every replica shares (such as
//! `RedisStore`) when retries may reach another replica than the one that sealed the state;
//! and the seal's handle on it.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use crate::server::StoreError;

/// Records which sealed states were opened, so that each opens once: the record a
/// [`RequestStateSeal::with_replay_guard`](super::RequestStateSeal::with_replay_guard) keeps.
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

type Opening<'a> = Pin<Box<dyn Future<Output = Result<bool, StoreError>> + Send + 'a>>;

/// [`ReplayGuard`] as an object, so the seal stays one type whatever records its states.
pub(super) trait DynReplayGuard: Send + Sync {
    fn first_open<'a>(&'a self, nonce: &'a str, until: SystemTime) -> Opening<'a>;
}

impl<G: ReplayGuard> DynReplayGuard for G {
    fn first_open<'a>(&'a self, nonce: &'a str, until: SystemTime) -> Opening<'a> {
        Box::pin(ReplayGuard::first_open(self, nonce, until))
    }
}

/// The guard of a seal, shared by its clones.
#[derive(Clone)]
pub(super) struct Guard(pub(super) Arc<dyn DynReplayGuard>);

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReplayGuard")
    }
}
