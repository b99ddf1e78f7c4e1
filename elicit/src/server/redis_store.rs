//! URL-mode elicitations shared by the replicas of a server, on Redis (or Valkey): the store
//! here, and the routing of completion notifications to the replica holding the connection in
//! `routing`.

use std::error::Error;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{Client, IntoConnectionInfo, ProtocolVersion, Script};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::server::store::DuplicateId;
use crate::server::{
    AwaitedBy, ConnectionId, ElicitationStore, EntryState, Inserted, PendingEntry, StoreError,
    UserId,
};
use crate::wire::ElicitationId;

mod at_rest;
mod credentials;
mod replay;
mod routing;
#[cfg(feature = "rmcp")]
mod tasks;

pub use at_rest::{AtRestKeyError, AtRestKeys};
pub use credentials::RedisCredentials;
pub use routing::{Completions, Routed};
#[cfg(feature = "rmcp")]
pub(crate) use tasks::{TaskMessages, TaskRecord};

/// An [`ElicitationStore`] on Redis or Valkey, shared by every replica of a server, so that an
/// elicitation started on one replica can be completed through another's connect page.
///
/// - **Single use across replicas.** Completion takes the entry, or turns its state from
///   pending to completed, in one script: of any number of replicas racing to complete one id,
///   exactly one gets it.
/// - **Typed entries.** An entry is a hash: its fields as JSON under `entry`, and its
///   [`EntryState`] under `state`, which completion changes alone. Nothing is read from the
///   id, whatever its alphabet.
/// - **Expiry in Redis.** Each entry is written with `PX` (its time to live); no sweeper runs.
/// - **The per-user limit in Redis.** A sorted set per user holds the user's pending ids, and
///   one Lua script counts and inserts atomically, so racing replicas cannot pass the limit.
/// - **Nothing in the store names a link.** Keys are SHA-256 hashes of the elicitation ids
///   (and of the user ids, for the per-user sets); the ids themselves are not stored. An entry
///   holds its user and connection, so someone reading the store learns who has pending
///   elicitations but not their links, and cannot build one.
/// - **Routing.** [`publish_completion`](Self::publish_completion) sends a completion to the
///   replica named in the connection ([`ConnectionId::on_replica`]) over pub/sub; that replica
///   reads it from [`completions`](Self::completions) and notifies its connection.
///
/// Redis unreachable: every operation fails with a [`StoreError`] within the timeout (2 s by
/// default), so the tracker returns `StartError::Store` or `CompletionError::Store`, and
/// nothing is completed. The client crate (redis-rs's `ConnectionManager`) reconnects by
/// itself, and re-subscribes the completion channel after a reconnect.
///
/// Needs Redis 6.2 or later (or Valkey): RESP3 for the subscription.
#[derive(Clone)]
pub struct RedisStore {
    client: Client,
    connection: ConnectionManager,
    prefix: String,
    timeout: Duration,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// Counts the user's unexpired entries and stores the new one only below the limit, in one
/// step: the limit holds however many replicas start elicitations for one user at once.
///
/// KEYS: the entry's key, the user's set. ARGV: the entry, its time to live in ms, now in ms,
/// the limit, the entry's member in the set, its expiry in ms, its state.
const INSERT_SCRIPT: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
    return 0
end
if redis.call('EXISTS', KEYS[1]) == 1 then
    return -1
end
redis.call('HSET', KEYS[1], 'entry', ARGV[1], 'state', ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1
";

/// Takes an entry: its fields, then the key is gone, in one step.
///
/// KEYS: the entry's key.
const REMOVE_SCRIPT: &str = r"
local fields = redis.call('HMGET', KEYS[1], 'entry', 'state', 'renewed')
redis.call('DEL', KEYS[1])
return fields
";

/// Turns a pending entry's state to completed, keeping its expiry, and returns its fields as
/// they were; nil if no pending entry has the key.
///
/// KEYS: the entry's key. ARGV: the pending state, the completed state.
const MARK_COMPLETED_SCRIPT: &str = r"
local fields = redis.call('HMGET', KEYS[1], 'entry', 'state', 'renewed')
if fields[2] ~= ARGV[1] then
    return false
end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
return fields
";

/// Sets a pending entry's expiry, in its hash (`renewed`, which overrides the expiry in
/// `entry`), on its key and as its score in the user's set; 0 if no pending entry has the key.
///
/// KEYS: the entry's key, the user's set. ARGV: the new expiry in ms, the entry's member in the
/// set, the pending state.
const RENEW_SCRIPT: &str = r"
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[3] then
    return 0
end
redis.call('HSET', KEYS[1], 'renewed', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
return 1
";

/// The `entry` field of an entry's hash: everything but its id, which is only in the key,
/// hashed, and its state, which has a field of its own.
#[derive(Serialize, Deserialize)]
struct StoredEntry {
    issuer: Option<String>,
    subject: String,
    connection: StoredConnection,
    started_ms: u64,
    expires_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    awaited_by: Option<StoredAwaitedBy>,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum StoredAwaitedBy {
    Session,
    Retry,
}

#[derive(Serialize, Deserialize)]
struct StoredConnection {
    id: String,
    replica: Option<String>,
}

/// The store's contents are not what this crate wrote.
#[derive(Debug)]
struct Corrupt(String);

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unreadable data in the store: {}", self.0)
    }
}

impl Error for Corrupt {}

fn store_error(error: ::redis::RedisError) -> StoreError {
    StoreError::new(format!("Redis: {error}"))
}

/// What the page's forms (`SecureForms::in_redis`) and the shared tasks use of the store: its
/// keys, its hashes, its connection and its errors.
impl RedisStore {
    /// The key of the thing of `kind` named `name`, under this store's prefix: the name hashed,
    /// so that the store never names a link.
    pub(crate) fn hashed_key(&self, kind: &str, name: &str) -> String {
        format!("{}:{kind}:{}", self.prefix, sha256_hex(name))
    }

    pub(crate) fn hashed(text: &str) -> String {
        sha256_hex(text)
    }
}

#[cfg(feature = "page")]
impl RedisStore {
    pub(crate) fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }

    pub(crate) fn error(error: ::redis::RedisError) -> StoreError {
        store_error(error)
    }
}

impl RedisStore {
    /// The prefix of every key and channel unless [`with_prefix`](Self::with_prefix) says
    /// otherwise.
    pub const DEFAULT_PREFIX: &'static str = "elicit";

    /// How long a connection attempt or a command may take before it fails with a
    /// [`StoreError`], unless [`connect_with_timeout`](Self::connect_with_timeout) says
    /// otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// Connects to the Redis (or Valkey) server at `url` (`redis://host:port/db`, `rediss://`
    /// for TLS if redis-rs is built with it). Fails if the server cannot be reached.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with_timeout(url, Self::DEFAULT_TIMEOUT).await
    }

    /// [`connect`](Self::connect) with another timeout for connecting and for each command.
    pub async fn connect_with_timeout(url: &str, timeout: Duration) -> Result<Self, StoreError> {
        let info = url.into_connection_info().map_err(store_error)?;
        // RESP3, for the subscription's pushes on a reconnecting connection.
        let settings = info
            .redis_settings()
            .clone()
            .set_protocol(ProtocolVersion::RESP3);
        let client = Client::open(info.set_redis_settings(settings)).map_err(store_error)?;
        let connection = client
            .get_connection_manager_with_config(Self::config(timeout))
            .await
            .map_err(store_error)?;
        Ok(RedisStore {
            client,
            connection,
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            timeout,
        })
    }

    /// The same store with keys and channels under another prefix, e.g. one per server
    /// sharing a Redis.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn config(timeout: Duration) -> ConnectionManagerConfig {
        ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500))
    }

    fn entry_key(&self, id: &str) -> String {
        format!("{}:e:{}", self.prefix, sha256_hex(id))
    }

    fn user_key(&self, user: &UserId) -> String {
        format!("{}:u:{}", self.prefix, sha256_hex(user.as_str()))
    }
}

impl ElicitationStore for RedisStore {
    async fn insert(
        &self,
        entry: PendingEntry,
        max_per_user: usize,
    ) -> Result<Inserted, StoreError> {
        let started_ms = millis(entry.started_at)?;
        let expires_ms = millis(entry.expires_at)?;
        // At least 1 ms: PX refuses 0.
        let ttl_ms = expires_ms.saturating_sub(started_ms).max(1);
        let stored = serde_json::to_string(&StoredEntry {
            issuer: entry.user.issuer().map(str::to_owned),
            subject: entry.user.subject().to_owned(),
            connection: StoredConnection::from(&entry.connection),
            started_ms,
            expires_ms,
            awaited_by: entry.awaited_by.map(StoredAwaitedBy::from),
        })
        .map_err(StoreError::new)?;
        let inserted: i64 = Script::new(INSERT_SCRIPT)
            .key(self.entry_key(entry.id.as_str()))
            .key(self.user_key(&entry.user))
            .arg(stored)
            .arg(ttl_ms)
            .arg(started_ms)
            .arg(u64::try_from(max_per_user).unwrap_or(u64::MAX))
            .arg(sha256_hex(entry.id.as_str()))
            .arg(expires_ms)
            .arg(state_name(entry.state))
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        match inserted {
            1 => Ok(Inserted::Stored),
            0 => Ok(Inserted::UserAtLimit),
            _ => Err(StoreError::new(DuplicateId)),
        }
    }

    async fn get(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        let fields: Vec<Option<String>> = ::redis::cmd("HMGET")
            .arg(self.entry_key(id))
            .arg("entry")
            .arg("state")
            .arg("renewed")
            .query_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        decode_entry(id, fields)
    }

    async fn remove(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        // One script: of any number of replicas removing one id at once, one gets the entry.
        let fields: Vec<Option<String>> = Script::new(REMOVE_SCRIPT)
            .key(self.entry_key(id))
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        let Some(entry) = decode_entry(id, fields)? else {
            return Ok(None);
        };
        // The entry is gone, whatever happens next: this removal happened. If Redis fails
        // now, the id stays in the user's set until its expiry score passes, counting
        // against the limit until then and no longer.
        let _: Result<i64, _> = ::redis::cmd("ZREM")
            .arg(self.user_key(&entry.user))
            .arg(sha256_hex(id))
            .query_async(&mut self.connection.clone())
            .await;
        Ok(Some(entry))
    }

    async fn mark_completed(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        let fields: Option<Vec<Option<String>>> = Script::new(MARK_COMPLETED_SCRIPT)
            .key(self.entry_key(id))
            .arg(state_name(EntryState::Pending))
            .arg(state_name(EntryState::Completed))
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        fields.map_or(Ok(None), |fields| decode_entry(id, fields))
    }

    async fn renew(&self, entry: &PendingEntry, until: SystemTime) -> Result<bool, StoreError> {
        let renewed: i64 = Script::new(RENEW_SCRIPT)
            .key(self.entry_key(entry.id.as_str()))
            .key(self.user_key(&entry.user))
            .arg(millis(until)?)
            .arg(sha256_hex(entry.id.as_str()))
            .arg(state_name(EntryState::Pending))
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(renewed == 1)
    }

    async fn remove_expired(&self, _now: SystemTime) -> Result<usize, StoreError> {
        // Entries expire in Redis (PX); the per-user sets are trimmed on insert.
        Ok(0)
    }
}

impl From<&ConnectionId> for StoredConnection {
    fn from(connection: &ConnectionId) -> Self {
        StoredConnection {
            id: connection.as_str().to_owned(),
            replica: connection.replica().map(str::to_owned),
        }
    }
}

impl From<StoredConnection> for ConnectionId {
    fn from(stored: StoredConnection) -> Self {
        match stored.replica {
            Some(replica) => ConnectionId::on_replica(replica, stored.id),
            None => ConnectionId::new(stored.id),
        }
    }
}

impl From<AwaitedBy> for StoredAwaitedBy {
    fn from(by: AwaitedBy) -> Self {
        match by {
            AwaitedBy::Session => StoredAwaitedBy::Session,
            AwaitedBy::Retry => StoredAwaitedBy::Retry,
        }
    }
}

impl From<StoredAwaitedBy> for AwaitedBy {
    fn from(stored: StoredAwaitedBy) -> Self {
        match stored {
            StoredAwaitedBy::Session => AwaitedBy::Session,
            StoredAwaitedBy::Retry => AwaitedBy::Retry,
        }
    }
}

/// The `state` field of an entry's hash.
fn state_name(state: EntryState) -> &'static str {
    match state {
        EntryState::Pending => "pending",
        EntryState::Completed => "completed",
    }
}

fn parse_state(name: &str) -> Option<EntryState> {
    [EntryState::Pending, EntryState::Completed]
        .into_iter()
        .find(|state| state_name(*state) == name)
}

/// The entry with this id from the `entry` and `state` fields of its hash; `None` when the
/// hash is gone (both nil).
fn decode_entry(id: &str, fields: Vec<Option<String>>) -> Result<Option<PendingEntry>, StoreError> {
    let corrupt = |what: String| StoreError::new(Corrupt(what));
    let (stored, state, renewed) = match <[Option<String>; 3]>::try_from(fields) {
        Ok([None, None, _]) => return Ok(None),
        Ok([Some(stored), Some(state), renewed]) => (stored, state, renewed),
        _ => return Err(corrupt("an entry without its fields".into())),
    };

    let state =
        parse_state(&state).ok_or_else(|| corrupt(format!("an entry's state {state:?}")))?;
    let stored: StoredEntry =
        serde_json::from_str(&stored).map_err(|e| corrupt(format!("an entry: {e}")))?;
    let expires_ms = match renewed {
        Some(ms) => ms
            .parse::<u64>()
            .map_err(|_| corrupt(format!("an entry's renewed expiry {ms:?}")))?,
        None => stored.expires_ms,
    };
    let user = match &stored.issuer {
        Some(issuer) => UserId::from_issuer_and_subject(issuer, &stored.subject),
        None => UserId::from_verified_subject(stored.subject),
    }
    .map_err(StoreError::new)?;
    Ok(Some(PendingEntry {
        id: ElicitationId::new(id),
        user,
        connection: stored.connection.into(),
        started_at: UNIX_EPOCH + Duration::from_millis(stored.started_ms),
        expires_at: UNIX_EPOCH + Duration::from_millis(expires_ms),
        awaited_by: stored.awaited_by.map(AwaitedBy::from),
        state,
    }))
}

fn millis(time: SystemTime) -> Result<u64, StoreError> {
    let since_epoch = time
        .duration_since(UNIX_EPOCH)
        .map_err(|_| StoreError::new("a time before 1970 cannot be stored"))?;
    u64::try_from(since_epoch.as_millis())
        .map_err(|_| StoreError::new("a time too far in the future to store"))
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
