//! The records of tasks (the extension `io.modelcontextprotocol/tasks`) shared by the replicas:
//! each task's last known state as the replica running it wrote it, whose task it is, and
//! which replica runs it; the replicas' heartbeats; and a channel per replica that brings it
//! the `tasks/update` and `tasks/cancel` other replicas received for its tasks. What a record
//! holds is the protocol's (the rmcp layer writes and reads it); here it is text.

use std::time::Duration;

use super::routing::Channel;
use super::{RedisStore, store_error};
use crate::server::StoreError;

/// Writes a task's record unless a final one is there already: a task's end is never
/// overwritten by an older state. KEYS: the record. ARGV: owner, replica, detail, final
/// (`1`/`0`), time to live in ms (`0`: none). Returns 1 when written (or when this same final
/// record is there already: the write sent again after a connection dropped).
const PUT_SCRIPT: &str = r"
if redis.call('HGET', KEYS[1], 'final') == '1' then
    if ARGV[4] == '1' and redis.call('HGET', KEYS[1], 'detail') == ARGV[3] then return 1 end
    return 0
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'replica', ARGV[2], 'detail', ARGV[3], 'final', ARGV[4])
if ARGV[5] == '0' then redis.call('PERSIST', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return 1
";

/// Ends a task whose replica stopped, if its record is still the one read: another replica
/// that got there first, or the running replica writing meanwhile, wins. KEYS: the record.
/// ARGV: the detail read, the final detail. Returns 1 when ended here.
const ORPHAN_SCRIPT: &str = r"
if redis.call('HGET', KEYS[1], 'final') ~= '0' then return 0 end
if redis.call('HGET', KEYS[1], 'detail') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'detail', ARGV[2], 'final', '1')
return 1
";

/// How long a replica's heartbeat has been seen missing, in ms, or -1 while it beats: the
/// first replica to see it missing notes the time (Redis's own clock), and the note goes with
/// the replica's next beat. KEYS: the heartbeat, the note. ARGV: how long to keep the note, ms.
const MISSING_SCRIPT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('SET', KEYS[2], now, 'NX', 'PX', ARGV[1])
return now - tonumber(redis.call('GET', KEYS[2]))
";

/// A task as the replicas share it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TaskRecord {
    /// Whose task it is, hashed; `None` when the server knows no users.
    pub owner: Option<String>,
    /// The replica that runs it.
    pub replica: String,
    /// Its last state, as the protocol writes it.
    pub detail: String,
    /// Whether that state is its end.
    pub is_final: bool,
}

/// The `tasks/update` and `tasks/cancel` other replicas received for this replica's tasks.
pub(crate) struct TaskMessages {
    channel: Channel,
}

impl TaskMessages {
    /// The next message, as text. `None` once the subscription is closed.
    pub async fn next(&mut self) -> Option<Result<String, StoreError>> {
        self.channel.next().await
    }
}

impl RedisStore {
    fn task_key(&self, id: &str) -> String {
        self.hashed_key("t", id)
    }

    fn alive_key(&self, replica: &str) -> String {
        format!("{}:alive:{{{replica}}}", self.prefix)
    }

    fn missing_key(&self, replica: &str) -> String {
        format!("{}:missing:{{{replica}}}", self.prefix)
    }

    /// Under the replica's hash tag, as its heartbeat and its completions.
    fn task_channel(&self, replica: &str) -> String {
        format!("{}:tasks:{{{replica}}}", self.prefix)
    }

    /// Writes the record of task `id`, kept `keep` (`None`: until deleted); `false` when its
    /// final record was there already, and stays.
    pub(crate) async fn put_task(
        &self,
        id: &str,
        record: &TaskRecord,
        keep: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let keep_ms = keep.map_or(0, |keep| {
            u64::try_from(keep.as_millis()).unwrap_or(u64::MAX).max(1)
        });
        let written: u8 = ::redis::Script::new(PUT_SCRIPT)
            .key(self.task_key(id))
            .arg(record.owner.as_deref().unwrap_or_default())
            .arg(&record.replica)
            .arg(&record.detail)
            .arg(if record.is_final { "1" } else { "0" })
            .arg(keep_ms)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(written == 1)
    }

    /// The record of task `id`, if the store has it.
    pub(crate) async fn task(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        type Fields = (
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let (owner, replica, detail, is_final): Fields = ::redis::cmd("HMGET")
            .arg(self.task_key(id))
            .arg("owner")
            .arg("replica")
            .arg("detail")
            .arg("final")
            .query_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        let (Some(owner), Some(replica), Some(detail), Some(is_final)) =
            (owner, replica, detail, is_final)
        else {
            return Ok(None);
        };
        Ok(Some(TaskRecord {
            owner: Some(owner).filter(|owner| !owner.is_empty()),
            replica,
            detail,
            is_final: is_final == "1",
        }))
    }

    /// Ends task `id` with `ended` (its final detail) if its record still holds `read`:
    /// `true` when this call ended it.
    pub(crate) async fn end_orphan(
        &self,
        id: &str,
        read: &str,
        ended: &str,
    ) -> Result<bool, StoreError> {
        let ended_here: u8 = ::redis::Script::new(ORPHAN_SCRIPT)
            .key(self.task_key(id))
            .arg(read)
            .arg(ended)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(ended_here == 1)
    }

    /// Says that `replica` is alive for `lease` more, and drops any note of it missing.
    pub(crate) async fn beat(&self, replica: &str, lease: Duration) -> Result<(), StoreError> {
        let lease_ms = u64::try_from(lease.as_millis()).unwrap_or(u64::MAX).max(1);
        ::redis::pipe()
            .atomic()
            .cmd("SET")
            .arg(self.alive_key(replica))
            .arg(1)
            .arg("PX")
            .arg(lease_ms)
            .ignore()
            .cmd("DEL")
            .arg(self.missing_key(replica))
            .ignore()
            .query_async::<()>(&mut self.connection.clone())
            .await
            .map_err(store_error)
    }

    /// How long `replica`'s heartbeat has been seen missing (`None` while it beats), by
    /// Redis's clock: the first call that sees it missing starts the count.
    pub(crate) async fn missing_for(&self, replica: &str) -> Result<Option<Duration>, StoreError> {
        // Kept well past any lease: a replica that stays gone stays noted.
        const NOTE_KEPT_MS: u64 = 24 * 60 * 60 * 1000;
        let missing_ms: i64 = ::redis::Script::new(MISSING_SCRIPT)
            .key(self.alive_key(replica))
            .key(self.missing_key(replica))
            .arg(NOTE_KEPT_MS)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(u64::try_from(missing_ms).ok().map(Duration::from_millis))
    }

    /// Sends `message` to `replica`'s task channel: `true` when it was listening.
    pub(crate) async fn send_to_tasks_of(
        &self,
        replica: &str,
        message: &str,
    ) -> Result<bool, StoreError> {
        self.publish(self.task_channel(replica), message)
            .await
            .map(|receivers| receivers > 0)
    }

    /// The messages other replicas send to `replica`'s tasks.
    pub(crate) async fn task_messages(&self, replica: &str) -> Result<TaskMessages, StoreError> {
        Ok(TaskMessages {
            channel: self.subscribe(self.task_channel(replica)).await?,
        })
    }
}
