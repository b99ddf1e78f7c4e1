//! URL-mode elicitations shared by the replicas of a server, on Redis (or Valkey): the store
//! here, and the routing of completion notifications to the replica holding the connection in
//! `routing`.

use std::error::Error;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use ::redis::cluster::{ClusterClient, ClusterClientBuilder};
use ::redis::cluster_async::ClusterConnection;
use ::redis::{
    Client, Cmd, ConnectionInfo, IntoConnectionInfo, Pipeline, ProtocolVersion, RedisFuture,
    Script, Value,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::server::store::DuplicateId;
use crate::server::{
    AwaitedBy, ConnectionId, ElicitationStore, EntryState, Inserted, PendingEntry, StoreError,
    UserId, lower_hex,
};
use crate::wire::ElicitationId;

mod at_rest;
mod credentials;
mod replay;
pub(crate) mod routing;
#[cfg(feature = "rmcp")]
mod tasks;

pub use at_rest::{AtRestKeyError, AtRestKeys};
pub use credentials::RedisCredentials;
pub use routing::{Completions, Routed};
#[cfg(feature = "rmcp")]
pub(crate) use tasks::{TaskMessages, TaskRecord};

/// An [`ElicitationStore`] on Redis or Valkey, shared by every replica of a server, so that an
/// elicitation started on one replica can be completed through another's connect page. One
/// server ([`connect`](Self::connect)) or a Redis Cluster
/// ([`connect_cluster`](Self::connect_cluster)): the same type, the same guarantees.
///
/// - **Single use across replicas.** Completion takes the entry, or turns its state from
///   pending to completed, in one script: of any number of replicas racing to complete one id,
///   exactly one gets it.
/// - **Typed entries.** An entry is a hash: its fields as JSON under `entry`, and its
///   [`EntryState`] under `state`, which completion changes alone. Nothing is read from the
///   id, whatever its alphabet.
/// - **Expiry in Redis.** Each entry is written with `PX` (its time to live); no sweeper runs.
/// - **The per-user limit in Redis.** A sorted set per user holds the user's pending ids, and
///   one Lua script on that set trims the expired ones, counts and reserves a place atomically,
///   so racing replicas cannot pass the limit. The entry is written next (it lives on its own
///   key, which on a cluster may be on another node), and the place is given back if that
///   write fails. What this leaves: a replica that dies between the two steps holds a place of
///   its user until the entry's expiry would have passed, counted against the limit until then
///   and no longer; the limit itself is never passed.
/// - **Nothing in the store names a link.** Keys are SHA-256 hashes of the elicitation ids
///   (and of the user ids, for the per-user sets); the ids themselves are not stored. An entry
///   holds its user and connection, so someone reading the store learns who has pending
///   elicitations but not their links, and cannot build one.
/// - **A step run twice answers once.** Each write carries a random token of its call; the
///   client crate may send it again after a connection dropped (the cluster client does,
///   through a failover), and the step then answers as it did the first time (the completion
///   it made, the place it reserved, the state it recorded opened) instead of "not pending".
/// - **Routing.** [`publish_completion`](Self::publish_completion) sends a completion to the
///   replica named in the connection ([`ConnectionId::on_replica`]) over pub/sub; that replica
///   reads it from [`completions`](Self::completions) and notifies its connection.
///
/// # Keys, and on a Redis Cluster
///
/// Every key is `PREFIX:KIND:{TAG}...`, the part in braces being its [hash tag][hash-tags],
/// which alone decides its slot on a cluster. Each kind of key, and its hash tag:
///
/// - an elicitation's entry `e`, and `x` (what its removal took, kept a minute for a retry): the
///   SHA-256 of the elicitation id
/// - a user's pending set `u` and credentials `c`: the SHA-256 of the user id
/// - a task's record `t`: the SHA-256 of the task id
/// - a page form `p`, and `q` (its answer once taken, sealed, kept a minute for a retry): the
///   SHA-256 of the elicitation id
/// - an opened `requestState` `s`: the SHA-256 of its nonce
/// - a replica's heartbeat `alive`, its missing note `missing`, its channels `replica` and
///   `tasks`: the replica's name
///
/// [hash-tags]:
/// https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#hash-tags
///
/// Every script and transaction touches the keys of one tag, so each is atomic on a cluster as
/// on one server. The one step over two tags, an elicitation's start (its user's set, then its
/// entry), is two atomic steps, as said above. On a cluster the channels are sharded
/// (`SPUBLISH`/`SSUBSCRIBE`, Redis 7.0 or later): a message stays on the shard of its
/// replica's tag, and the count of receivers that says whether the replica listened is exact
/// there (a plain `PUBLISH` on a cluster counts only the receivers on the node it was sent
/// to). A prefix with braces of its own (`{app}`) would be every key's tag: one slot for all,
/// which works but spreads nothing.
///
/// A master that fails: its replica takes over (after the cluster's `cluster-node-timeout`);
/// meanwhile the steps on its slots fail with a [`StoreError`] within the timeout, and succeed
/// again once the cluster client has followed the failover. Redis replicates asynchronously,
/// so a write acknowledged by a master in the instant before it dies and not yet copied to its
/// replica is lost with it (Redis Cluster's own window, a replication round trip); the
/// subscriptions follow the slot to its new master by themselves.
///
/// Redis unreachable: every operation fails with a [`StoreError`] within the timeout (2 s by
/// default), so the tracker returns `StartError::Store` or `CompletionError::Store`, and
/// nothing is completed. The client crate (redis-rs's `ConnectionManager`, or its cluster
/// client) reconnects by itself, and the completion channel subscribes again after a
/// reconnect.
///
/// Needs Redis 6.2 or later (or Valkey): RESP3 for the subscription; a cluster needs 7.0.
#[derive(Clone)]
pub struct RedisStore {
    /// Behind an `Arc`: a client's settings are large, and every clone of the store holds them.
    server: Arc<Server>,
    connection: Connection,
    prefix: String,
    timeout: Duration,
}

/// What the store connects to, to open subscriptions of their own.
#[derive(Clone)]
enum Server {
    Single(Client),
    Cluster(Vec<ConnectionInfo>),
}

/// The store's connection: to one server, or to a cluster, which routes each command to the
/// node owning its keys' slot. Both run the same commands and scripts.
#[derive(Clone)]
pub(crate) enum Connection {
    Single(ConnectionManager),
    Cluster(ClusterConnection),
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Connection::Single(connection) => connection.req_packed_command(cmd),
            Connection::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Connection::Single(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
            Connection::Cluster(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Connection::Single(connection) => connection.get_db(),
            Connection::Cluster(connection) => connection.get_db(),
        }
    }
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field(
                "server",
                &match *self.server {
                    Server::Single(_) => "single",
                    Server::Cluster(_) => "cluster",
                },
            )
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// Trims the user's expired places, then reserves one for the new entry below the limit, in
/// one step: the limit holds however many replicas start elicitations for one user at once.
/// Returns 1 reserved, 0 at the limit, 2 the place is there already (this step's own, sent
/// again; or the id's, taken already).
///
/// KEYS: the user's set. ARGV: now in ms, the limit, the entry's member in the set, its expiry
/// in ms, its time to live in ms.
const RESERVE_SCRIPT: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then
    return 2
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
return 1
";

/// Writes a new entry unless its key is taken; 1 written (or written by this same call
/// before), -1 taken.
///
/// KEYS: the entry's key. ARGV: the entry, its time to live in ms, its state, the call's token.
const WRITE_SCRIPT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then
    if redis.call('HGET', KEYS[1], 'made') == ARGV[4] then
        return 1
    end
    return -1
end
redis.call('HSET', KEYS[1], 'entry', ARGV[1], 'state', ARGV[3], 'made', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
";

/// Takes an entry: its fields, then the key is gone, in one step. What it took is kept under
/// the second key a while with the call's token, so the same call sent again gets it again.
///
/// KEYS: the entry's key, the taken key. ARGV: the call's token, how long to keep what was
/// taken in ms.
const REMOVE_SCRIPT: &str = r"
local fields = redis.call('HMGET', KEYS[1], 'entry', 'state', 'renewed')
if fields[1] then
    redis.call('DEL', KEYS[1], KEYS[2])
    redis.call('HSET', KEYS[2], 'by', ARGV[1], 'entry', fields[1])
    if fields[2] then redis.call('HSET', KEYS[2], 'state', fields[2]) end
    if fields[3] then redis.call('HSET', KEYS[2], 'renewed', fields[3]) end
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
    return fields
end
if redis.call('HGET', KEYS[2], 'by') == ARGV[1] then
    return redis.call('HMGET', KEYS[2], 'entry', 'state', 'renewed')
end
return fields
";

/// Turns a pending entry's state to completed, keeping its expiry, and returns its fields as
/// they were; nil if no pending entry has the key (unless this same call completed it).
///
/// KEYS: the entry's key. ARGV: the pending state, the completed state, the call's token.
const MARK_COMPLETED_SCRIPT: &str = r"
local fields = redis.call('HMGET', KEYS[1], 'entry', 'state', 'renewed', 'by')
if fields[2] == ARGV[1] then
    redis.call('HSET', KEYS[1], 'state', ARGV[2], 'by', ARGV[3])
    return {fields[1], fields[2], fields[3]}
end
if fields[2] == ARGV[2] and fields[4] == ARGV[3] then
    return {fields[1], ARGV[1], fields[3]}
end
return false
";

/// Raises an entry's expiry as its score in the user's set, if it has a place there, and
/// keeps the set as long. KEYS: the user's set. ARGV: the entry's member, the new expiry in
/// ms, how long from now that is in ms.
const RENEW_PLACE_SCRIPT: &str = r"
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    return 0
end
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
";

/// Sets a pending entry's expiry, in its hash (`renewed`, which overrides the expiry in
/// `entry`) and on its key. Returns 1 renewed, 2 not pending, 0 gone.
///
/// KEYS: the entry's key. ARGV: the new expiry in ms, the pending state.
const RENEW_SCRIPT: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if not state then
    return 0
end
if state ~= ARGV[2] then
    return 2
end
redis.call('HSET', KEYS[1], 'renewed', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
return 1
";

/// How long what a removal took is kept for the same call sent again: well past any retry of
/// the client crate within a timeout.
const TAKEN_KEPT_MS: u64 = 60_000;

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

/// A random token naming one call of a step, so that the step sent again (by the client
/// crate, after a connection dropped) knows itself.
fn call_token() -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::new(format!("no randomness for a Redis step's token: {e}")))?;
    Ok(lower_hex(&bytes))
}

/// What the page's forms (`SecureForms::in_redis`) and the shared tasks use of the store: its
/// keys, its hashes, its connection and its errors.
impl RedisStore {
    /// The key of the thing of `kind` named `name`, under this store's prefix: the name hashed,
    /// so that the store never names a link, and the hash its hash tag.
    pub(crate) fn hashed_key(&self, kind: &str, name: &str) -> String {
        format!("{}:{kind}:{{{}}}", self.prefix, sha256_hex(name))
    }

    #[cfg(any(feature = "page", feature = "rmcp"))]
    pub(crate) fn hashed(text: &str) -> String {
        sha256_hex(text)
    }
}

#[cfg(feature = "page")]
impl RedisStore {
    pub(crate) fn connection(&self) -> Connection {
        self.connection.clone()
    }

    pub(crate) fn error(error: ::redis::RedisError) -> StoreError {
        store_error(error)
    }

    pub(crate) fn call_token() -> Result<String, StoreError> {
        call_token()
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
            server: Arc::new(Server::Single(client)),
            connection: Connection::Single(connection),
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            timeout,
        })
    }

    /// Connects to the Redis Cluster (or Valkey cluster) that `nodes` belong to: the URLs of
    /// one or more of its nodes (`redis://host:port`), from which the cluster client learns
    /// the others and which node owns which slot. Give several, so that the store starts while
    /// one is down. Fails if no node can be reached, or a URL does not parse (said by its
    /// place in the list, not its text, which may hold a password).
    ///
    /// The store then works as on one server: each command goes to the master owning its keys'
    /// slot, every multi-key step stays on one slot (see
    /// [the keys](Self#keys-and-on-a-redis-cluster)), and the client follows slot moves and
    /// failovers by itself.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), elicit_mcp::server::StoreError> {
    /// use elicit_mcp::server::{ElicitationTracker, RedisStore, UrlPolicy};
    ///
    /// let store = RedisStore::connect_cluster([
    ///     "redis://10.0.0.1:7000",
    ///     "redis://10.0.0.2:7000",
    ///     "redis://10.0.0.3:7000",
    /// ])
    /// .await?
    /// .with_prefix("my-server");
    /// let tracker = ElicitationTracker::with_store(store, UrlPolicy::production());
    /// # Ok(()) }
    /// ```
    pub async fn connect_cluster<I, S>(nodes: I) -> Result<Self, StoreError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Self::connect_cluster_with_timeout(nodes, Self::DEFAULT_TIMEOUT).await
    }

    /// [`connect_cluster`](Self::connect_cluster) with another timeout for connecting and
    /// for each command (its retries through a failover included).
    pub async fn connect_cluster_with_timeout<I, S>(
        nodes: I,
        timeout: Duration,
    ) -> Result<Self, StoreError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let nodes = nodes
            .into_iter()
            .enumerate()
            .map(|(place, url)| {
                url.as_ref().into_connection_info().map_err(|e| {
                    StoreError::new(format!(
                        "Redis cluster: node URL {} of the list does not parse: {e}",
                        place + 1
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if nodes.is_empty() {
            return Err(StoreError::new(
                "Redis cluster: no node URL given; name at least one node of the cluster",
            ));
        }
        let client = Self::cluster_client(&nodes, timeout, None)?;
        let connection = Self::cluster_connection(&client, timeout).await?;
        Ok(RedisStore {
            server: Arc::new(Server::Cluster(nodes)),
            connection: Connection::Cluster(connection),
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            timeout,
        })
    }

    /// A client of the cluster of `nodes`, with RESP3 and the timeouts; its pushes (a
    /// subscription's messages) to `pushes`.
    fn cluster_client(
        nodes: &[ConnectionInfo],
        timeout: Duration,
        pushes: Option<tokio::sync::mpsc::UnboundedSender<::redis::PushInfo>>,
    ) -> Result<ClusterClient, StoreError> {
        let builder = ClusterClientBuilder::new(nodes.to_vec())
            .use_protocol(ProtocolVersion::RESP3)
            .connection_timeout(timeout)
            .response_timeout(timeout)
            // Retries through a failover included: a command answers within the timeout.
            .overall_response_timeout(Some(timeout));
        let builder = match pushes {
            Some(pushes) => builder.push_sender(pushes),
            None => builder,
        };
        builder
            .build()
            .map_err(|e| StoreError::new(format!("Redis cluster: {e}")))
    }

    /// Connects `client` to its cluster within `timeout` (per node tried, and twice that in
    /// all).
    async fn cluster_connection(
        client: &ClusterClient,
        timeout: Duration,
    ) -> Result<ClusterConnection, StoreError> {
        match tokio::time::timeout(timeout.saturating_mul(2), client.get_async_connection()).await {
            Ok(connected) => connected
                .map_err(|e| StoreError::new(format!("Redis cluster: no node answers: {e}"))),
            Err(_) => Err(StoreError::new(format!(
                "Redis cluster: no node answered within {:?}",
                timeout.saturating_mul(2)
            ))),
        }
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
        self.hashed_key("e", id)
    }

    /// What a removal took, under the entry's hash tag.
    fn taken_key(&self, id: &str) -> String {
        self.hashed_key("x", id)
    }

    fn user_key(&self, user: &UserId) -> String {
        self.hashed_key("u", user.as_str())
    }

    /// Gives back the place of `id` in `user`'s set, as far as Redis answers: a place not
    /// given back counts against the limit until its expiry score passes, and no longer.
    async fn give_back_place(&self, user: &UserId, id: &str) {
        let _: Result<i64, _> = ::redis::cmd("ZREM")
            .arg(self.user_key(user))
            .arg(sha256_hex(id))
            .query_async(&mut self.connection.clone())
            .await;
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
        let token = call_token()?;
        let id = entry.id.as_str();

        // First a place in the user's set (atomic there), then the entry on its own key.
        let reserved: i64 = Script::new(RESERVE_SCRIPT)
            .key(self.user_key(&entry.user))
            .arg(started_ms)
            .arg(u64::try_from(max_per_user).unwrap_or(u64::MAX))
            .arg(sha256_hex(id))
            .arg(expires_ms)
            .arg(ttl_ms)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        match reserved {
            0 => return Ok(Inserted::UserAtLimit),
            1 | 2 => {}
            other => {
                return Err(StoreError::new(Corrupt(format!(
                    "a reservation answered {other}"
                ))));
            }
        }
        // Only a place this call reserved is given back; one there already is another's.
        let reserved_here = reserved == 1;
        let written: Result<i64, _> = Script::new(WRITE_SCRIPT)
            .key(self.entry_key(id))
            .arg(stored)
            .arg(ttl_ms)
            .arg(state_name(entry.state))
            .arg(&token)
            .invoke_async(&mut self.connection.clone())
            .await;
        match written {
            Ok(1) => Ok(Inserted::Stored),
            Ok(_) => {
                if reserved_here {
                    self.give_back_place(&entry.user, id).await;
                }
                Err(StoreError::new(DuplicateId))
            }
            Err(error) => {
                // The write may have landed before the answer was lost: then it stands.
                let made: Result<Option<String>, _> = ::redis::cmd("HGET")
                    .arg(self.entry_key(id))
                    .arg("made")
                    .query_async(&mut self.connection.clone())
                    .await;
                match made {
                    Ok(Some(made)) if made == token => Ok(Inserted::Stored),
                    Ok(_) => {
                        if reserved_here {
                            self.give_back_place(&entry.user, id).await;
                        }
                        Err(store_error(error))
                    }
                    // Redis out of reach: the place stays until its expiry, counted until then.
                    Err(_) => Err(store_error(error)),
                }
            }
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
            .key(self.taken_key(id))
            .arg(call_token()?)
            .arg(TAKEN_KEPT_MS)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        let Some(entry) = decode_entry(id, fields)? else {
            return Ok(None);
        };
        // The entry is gone, whatever happens next: this removal happened. If Redis fails
        // now, the id stays in the user's set until its expiry score passes, counting
        // against the limit until then and no longer.
        self.give_back_place(&entry.user, id).await;
        Ok(Some(entry))
    }

    async fn mark_completed(&self, id: &str) -> Result<Option<PendingEntry>, StoreError> {
        let fields: Option<Vec<Option<String>>> = Script::new(MARK_COMPLETED_SCRIPT)
            .key(self.entry_key(id))
            .arg(state_name(EntryState::Pending))
            .arg(state_name(EntryState::Completed))
            .arg(call_token()?)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        fields.map_or(Ok(None), |fields| decode_entry(id, fields))
    }

    async fn renew(&self, entry: &PendingEntry, until: SystemTime) -> Result<bool, StoreError> {
        let until_ms = millis(until)?;
        let from_now_ms = until_ms.saturating_sub(millis(SystemTime::now())?).max(1);
        let member = sha256_hex(entry.id.as_str());
        // The place first: a place held longer than its entry only counts for longer, which
        // never lets the limit be passed.
        let _: i64 = Script::new(RENEW_PLACE_SCRIPT)
            .key(self.user_key(&entry.user))
            .arg(&member)
            .arg(until_ms)
            .arg(from_now_ms)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        let renewed: i64 = Script::new(RENEW_SCRIPT)
            .key(self.entry_key(entry.id.as_str()))
            .arg(until_ms)
            .arg(state_name(EntryState::Pending))
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        if renewed == 0 {
            // Gone (expired or taken): nothing is left to count.
            self.give_back_place(&entry.user, entry.id.as_str()).await;
        }
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
pub(crate) fn decode_entry(
    id: &str,
    fields: Vec<Option<String>>,
) -> Result<Option<PendingEntry>, StoreError> {
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
    lower_hex(&Sha256::digest(text.as_bytes()))
}
