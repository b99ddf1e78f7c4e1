//! Tasks shared by the replicas of a server ([`Tasks::shared`](super::Tasks::shared)): the
//! replica that runs a task writes its state to the store as it changes, so that any replica
//! answers `tasks/get`; a `tasks/update` or `tasks/cancel` reaches the running replica (over
//! the store, from another one), which applies it and writes the task's state at once, and is
//! acknowledged once that state is in the store (a `tasks/get` after it, on any replica, sees
//! it); a replica's heartbeat lets the others fail its tasks when it stops.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use ::rmcp::model as sdk;
use ::rmcp::task_manager::TaskManager;
use serde::{Deserialize, Serialize};

use crate::server::{RedisStore, StoreError, TaskMessages, TaskRecord, UserId};

/// How often the running replica looks for changes of its tasks to write: a replica answering
/// `tasks/get` for a task it does not run is at most this much behind, but for the changes a
/// `tasks/update` or `tasks/cancel` makes, which are written before they are acknowledged.
const MIRROR_EVERY: Duration = Duration::from_millis(50);

/// How long an update or a cancellation waits for the running replica to write the state it
/// leads to; past it, it is acknowledged anyway (it was delivered: the state follows within
/// [`MIRROR_EVERY`]). An update that changes nothing of the task waits this long.
const WRITTEN_WITHIN: Duration = Duration::from_millis(500);

/// How often the replica that handed on an update looks whether its state is written.
const LOOK_EVERY: Duration = Duration::from_millis(2);

/// What one replica sends another for a task the other runs.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Message {
    Update(sdk::UpdateTaskParams),
    Cancel { task_id: String },
}

/// The tasks of a server's replicas, in a store they share.
pub(crate) struct SharedTasks {
    store: RedisStore,
    replica: String,
    lease: Duration,
    /// The tasks this replica runs and has not yet written in their final state.
    running: Mutex<HashMap<String, Running>>,
    /// Tasks of this replica that another replica failed, taking it for stopped (the store
    /// was out of its reach for longer than the lease): cancelled here, and answered from the
    /// store, so that every replica says the same of them.
    ended_elsewhere: Mutex<HashSet<String>>,
    /// Started with the first task: the heartbeat, the writer, the listener.
    started: OnceLock<()>,
    /// Held while a task's state is read and written, so that the writer's turn and the
    /// listener's write after an update never put an older state over a newer one.
    writing: tokio::sync::Mutex<()>,
}

/// A task this replica runs.
struct Running {
    owner: Option<String>,
    /// Its state last written.
    written: Option<String>,
    /// How long its record is kept.
    keep: Option<Duration>,
}

impl std::fmt::Debug for SharedTasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedTasks")
            .field("replica", &self.replica)
            .field("lease", &self.lease)
            .finish_non_exhaustive()
    }
}

impl SharedTasks {
    pub fn new(store: RedisStore, replica: String, lease: Duration) -> Self {
        SharedTasks {
            store,
            replica,
            lease,
            running: Mutex::default(),
            ended_elsewhere: Mutex::default(),
            started: OnceLock::new(),
            writing: tokio::sync::Mutex::new(()),
        }
    }

    fn running(&self) -> MutexGuard<'_, HashMap<String, Running>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether another replica ended task `id` of this one.
    pub fn ended_elsewhere(&self, id: &str) -> bool {
        self.ended_elsewhere
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(id)
    }

    /// Writes the new task `id` of `user` before the call that created it is answered, so
    /// that any replica knows it; starts this replica's heartbeat, writer and listener with
    /// its first task.
    pub async fn created(
        self: &Arc<Self>,
        manager: &TaskManager,
        id: &str,
        user: Option<&UserId>,
    ) -> Result<(), sdk::ErrorData> {
        self.start(manager).await.map_err(unreachable)?;
        let detail = manager.get_task(id)?;
        // Kept as long as rmcp keeps it: its TTL, then as long again for pollers to see its end.
        let keep = detail.task.ttl_ms.map(|ttl| Duration::from_millis(ttl) * 2);
        let record = TaskRecord {
            owner: user.map(|user| RedisStore::hashed(user.as_str())),
            replica: self.replica.clone(),
            detail: serde_json::to_string(&detail).map_err(internal)?,
            is_final: false,
        };
        self.store
            .put_task(id, &record, keep)
            .await
            .map_err(unreachable)?;
        self.running().insert(
            id.to_owned(),
            Running {
                owner: record.owner,
                written: Some(record.detail),
                keep,
            },
        );
        Ok(())
    }

    /// The heartbeat, the writer and the listener, once.
    async fn start(self: &Arc<Self>, manager: &TaskManager) -> Result<(), StoreError> {
        if self.started.get().is_some() {
            return Ok(());
        }
        // The first heartbeat and the subscription before the first task is known: another
        // replica must not take it for orphaned, and its updates must find a listener.
        self.store.beat(&self.replica, self.lease).await?;
        let messages = self.store.task_messages(&self.replica).await?;
        if self.started.set(()).is_err() {
            // Another call started them meanwhile.
            return Ok(());
        }
        tokio::spawn(Arc::clone(self).write(manager.clone()));
        tokio::spawn(Arc::clone(self).listen(messages, manager.clone()));
        Ok(())
    }

    /// Beats within the lease, and writes each running task's state when it changed, its
    /// end last; runs as long as the process.
    async fn write(self: Arc<Self>, manager: TaskManager) {
        let beat_every = self.lease / 3;
        let mut beaten = Instant::now();
        loop {
            tokio::time::sleep(MIRROR_EVERY).await;
            if beaten.elapsed() >= beat_every
                && self.store.beat(&self.replica, self.lease).await.is_ok()
            {
                beaten = Instant::now();
            }
            let ids: Vec<String> = self.running().keys().cloned().collect();
            for id in ids {
                self.write_one(&manager, &id).await;
            }
            // Once rmcp forgets one of them, the store alone answers for it anyway.
            self.ended_elsewhere
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|id| manager.get_task(id).is_ok());
        }
    }

    /// Writes task `id`'s state now, after an update or a cancellation this replica applied.
    pub async fn write_now(&self, manager: &TaskManager, id: &str) {
        self.write_one(manager, id).await;
    }

    /// Writes task `id`'s state if it changed; forgets it once its end is written, or once
    /// rmcp no longer has it.
    async fn write_one(&self, manager: &TaskManager, id: &str) {
        let _writing = self.writing.lock().await;
        let Ok(detail) = manager.get_task(id) else {
            self.running().remove(id);
            return;
        };
        let is_final = matches!(
            detail.status(),
            sdk::TaskStatus::Completed | sdk::TaskStatus::Failed | sdk::TaskStatus::Cancelled
        );
        let Ok(text) = serde_json::to_string(&detail) else {
            return;
        };
        let (owner, keep) = {
            let running = self.running();
            let Some(task) = running.get(id) else { return };
            if task.written.as_deref() == Some(text.as_str()) {
                return;
            }
            (task.owner.clone(), task.keep)
        };
        let record = TaskRecord {
            owner,
            replica: self.replica.clone(),
            detail: text,
            is_final,
        };
        // A store that fails now is tried again on the next turn: the state stays unwritten.
        let Ok(written) = self.store.put_task(id, &record, keep).await else {
            return;
        };
        if !written {
            // Ended elsewhere: what the others told the client stands, and the work stops.
            self.running().remove(id);
            self.ended_elsewhere
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(id.to_owned());
            let _ = manager.cancel_task(id);
            return;
        }
        let mut running = self.running();
        if is_final {
            running.remove(id);
        } else if let Some(task) = running.get_mut(id) {
            task.written = Some(record.detail);
        }
    }

    /// The record of a task this replica does not run, if it is `user`'s; a task whose
    /// replica stopped is failed first, saying so.
    pub async fn get(
        &self,
        id: &str,
        user: Option<&UserId>,
    ) -> Result<sdk::GetTaskResult, sdk::ErrorData> {
        let record = self.record(id, user).await?;
        let record = if record.is_final || !self.stopped(&record.replica).await? {
            record
        } else {
            self.end_orphan(id, &record).await?
        };
        let detail: sdk::DetailedTask = serde_json::from_str(&record.detail).map_err(internal)?;
        Ok(sdk::GetTaskResult::new(detail))
    }

    /// Whether `replica` stopped: its heartbeat missing past its lease, and for half a lease
    /// more since a replica first saw it missing, so that a replica that was only cut off from
    /// the store (its heartbeat expired meanwhile) beats again before its tasks are failed.
    async fn stopped(&self, replica: &str) -> Result<bool, sdk::ErrorData> {
        let missing = self.store.missing_for(replica).await.map_err(unreachable)?;
        Ok(missing.is_some_and(|missing| missing >= self.lease / 2))
    }

    /// Hands `tasks/update` to the replica running the task, once it is `user`'s.
    pub async fn update(
        &self,
        request: sdk::UpdateTaskParams,
        user: Option<&UserId>,
    ) -> Result<(), sdk::ErrorData> {
        let record = self.record(&request.task_id, user).await?;
        if record.is_final {
            // Over: answers to it are ignored, as rmcp ignores them.
            return Ok(());
        }
        let id = request.task_id.clone();
        self.send(&record, &Message::Update(request)).await?;
        self.written_after(&id, &record.detail).await;
        Ok(())
    }

    /// Hands `tasks/cancel` to the replica running the task, once it is `user`'s.
    pub async fn cancel(&self, id: &str, user: Option<&UserId>) -> Result<(), sdk::ErrorData> {
        let record = self.record(id, user).await?;
        if record.is_final {
            return Ok(());
        }
        let message = Message::Cancel {
            task_id: id.to_owned(),
        };
        self.send(&record, &message).await?;
        self.written_after(id, &record.detail).await;
        Ok(())
    }

    /// Waits, at most [`WRITTEN_WITHIN`], until the store holds a state of task `id` other
    /// than `before`: the one the running replica wrote once it applied what was sent.
    async fn written_after(&self, id: &str, before: &str) {
        let deadline = Instant::now() + WRITTEN_WITHIN;
        while Instant::now() < deadline {
            match self.store.task(id).await {
                Ok(Some(record)) if record.detail != before => return,
                // The store gone meanwhile: what was sent was delivered, and is acknowledged.
                Err(_) => return,
                _ => tokio::time::sleep(LOOK_EVERY).await,
            }
        }
    }

    /// The record of task `id` if it is `user`'s; as for a task that does not exist otherwise,
    /// so another user learns nothing of it.
    async fn record(&self, id: &str, user: Option<&UserId>) -> Result<TaskRecord, sdk::ErrorData> {
        let unknown = || sdk::ErrorData::invalid_params(format!("unknown task: {id}"), None);
        let record = self
            .store
            .task(id)
            .await
            .map_err(unreachable)?
            .ok_or_else(unknown)?;
        let caller = user.map(|user| RedisStore::hashed(user.as_str()));
        match (&record.owner, caller) {
            (Some(owner), caller) if caller.as_ref() != Some(owner) => Err(unknown()),
            _ => Ok(record),
        }
    }

    /// Sends `message` to the replica running the task: answered once it listened.
    async fn send(&self, record: &TaskRecord, message: &Message) -> Result<(), sdk::ErrorData> {
        let text = serde_json::to_string(message).map_err(internal)?;
        if self
            .store
            .send_to_tasks_of(&record.replica, &text)
            .await
            .map_err(unreachable)?
        {
            return Ok(());
        }
        Err(sdk::ErrorData::internal_error(
            "the replica running this task does not answer; try again in a moment (if it \
             stopped, the task fails once its lease runs out)",
            None,
        ))
    }

    /// Fails the task of a replica that stopped, unless another replica or the running one
    /// wrote first: the record as it now stands.
    async fn end_orphan(
        &self,
        id: &str,
        record: &TaskRecord,
    ) -> Result<TaskRecord, sdk::ErrorData> {
        let detail: sdk::DetailedTask = serde_json::from_str(&record.detail).map_err(internal)?;
        let error = sdk::ErrorData::internal_error(
            format!(
                "the replica `{}` running this task stopped (no heartbeat for its lease of {} s \
                 and half as long again)",
                record.replica,
                self.lease.as_secs_f64()
            ),
            None,
        );
        let mut task = detail.task;
        task.status_message = Some(error.message.to_string());
        task.last_updated_at = ::rmcp::task_manager::current_timestamp();
        let error = match serde_json::to_value(&error).map_err(internal)? {
            serde_json::Value::Object(object) => object,
            _ => Default::default(),
        };
        let ended = sdk::DetailedTask::new(task, sdk::TaskPayload::Failed { error });
        let ended = serde_json::to_string(&ended).map_err(internal)?;
        self.store
            .end_orphan(id, &record.detail, &ended)
            .await
            .map_err(unreachable)?;
        self.store
            .task(id)
            .await
            .map_err(unreachable)?
            .ok_or_else(|| sdk::ErrorData::invalid_params(format!("unknown task: {id}"), None))
    }
}

impl SharedTasks {
    /// Hands each message sent to this replica's tasks to the task runtime, and writes the
    /// state it leads to at once: the sender acknowledges the client once it is written.
    async fn listen(self: Arc<Self>, mut messages: TaskMessages, manager: TaskManager) {
        while let Some(message) = messages.next().await {
            // A message this crate did not write, or for a task that has ended here since:
            // what rmcp would answer the client is lost, and the sender acknowledges it once
            // its wait for a new state runs out.
            let Ok(Ok(message)) = message.map(|text| serde_json::from_str::<Message>(&text)) else {
                continue;
            };
            let id = match message {
                Message::Update(request) => {
                    let _ = manager.update_task(&request.task_id, request.input_responses);
                    request.task_id
                }
                Message::Cancel { task_id } => {
                    let _ = manager.cancel_task(&task_id);
                    task_id
                }
            };
            self.write_one(&manager, &id).await;
        }
    }
}

/// The store unreachable or failing: a clear error the client may retry.
fn unreachable(error: StoreError) -> sdk::ErrorData {
    sdk::ErrorData::internal_error(
        format!("the task store is unreachable right now; try again in a moment ({error})"),
        None,
    )
}

fn internal(error: serde_json::Error) -> sdk::ErrorData {
    sdk::ErrorData::internal_error(
        format!("a task's state could not be written or read: {error}"),
        None,
    )
}
