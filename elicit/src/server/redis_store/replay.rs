//! The Redis store as the record of opened single-use tokens (the rmcp integration's sealed
//! `requestState`s), shared by the replicas.

use std::time::SystemTime;

use super::{RedisStore, millis, sha256_hex, store_error};
use crate::server::{ReplayGuard, StoreError};

/// Single-use `requestState` across replicas: `SET NX` records a state's nonce, so of any
/// number of replicas opening one state, one does; the record expires with the state.
impl ReplayGuard for RedisStore {
    async fn first_open(&self, nonce: &str, until: SystemTime) -> Result<bool, StoreError> {
        // At least 1 ms: PX refuses 0.
        let ttl_ms = millis(until)?
            .saturating_sub(millis(SystemTime::now())?)
            .max(1);
        let set: Option<String> = ::redis::cmd("SET")
            .arg(self.opened_state_key(nonce))
            .arg(1)
            .arg("NX")
            .arg("PX")
            .arg(ttl_ms)
            .query_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(set.is_some())
    }
}

impl RedisStore {
    /// The record that a single-use `requestState` was opened.
    fn opened_state_key(&self, nonce: &str) -> String {
        format!("{}:s:{}", self.prefix, sha256_hex(nonce))
    }
}
