//! The Redis store as the record of opened single-use tokens (the rmcp integration's sealed
//! `requestState`s), shared by the replicas.

use std::time::SystemTime;

use super::{RedisStore, call_token, millis, store_error};
use crate::server::{ReplayGuard, StoreError};

/// Records a state opened, unless it was: 1 first (or this same call, sent again), 0 opened
/// before. KEYS: the record. ARGV: the call's token, its time to live in ms.
const FIRST_OPEN_SCRIPT: &str = r"
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return 1
end
return 0
";

/// Single-use `requestState` across replicas: `SET NX` records a state's nonce, so of any
/// number of replicas opening one state, one does; the record expires with the state. The
/// record holds the opening call's token, so that call sent again (after a connection dropped)
/// is still the first.
impl ReplayGuard for RedisStore {
    async fn first_open(&self, nonce: &str, until: SystemTime) -> Result<bool, StoreError> {
        // At least 1 ms: PX refuses 0.
        let ttl_ms = millis(until)?
            .saturating_sub(millis(SystemTime::now())?)
            .max(1);
        let first: i64 = ::redis::Script::new(FIRST_OPEN_SCRIPT)
            .key(self.opened_state_key(nonce))
            .arg(call_token()?)
            .arg(ttl_ms)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(first == 1)
    }
}

impl RedisStore {
    /// The record that a single-use `requestState` was opened.
    fn opened_state_key(&self, nonce: &str) -> String {
        self.hashed_key("s", nonce)
    }
}
