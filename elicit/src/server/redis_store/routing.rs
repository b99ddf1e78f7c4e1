//! The routing of completion notifications to the replica holding the connection that
//! started the elicitation: Redis pub/sub, one channel per replica (sharded on a cluster).

use std::fmt;
use std::time::Duration;

use ::redis::aio::ConnectionManager;
use ::redis::cluster_async::ClusterConnection;
use ::redis::{PushInfo, PushKind, Value};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{Corrupt, RedisStore, Server, StoredConnection, store_error};

/// How long a subscription that lost its connection waits between tries to get it back.
const BETWEEN_TRIES: Duration = Duration::from_millis(200);
use crate::server::{Addressed, AwaitedBy, CompletedElicitation, StoreError};
use crate::wire::{ElicitationCompleteNotification, ElicitationId};

/// What a completion carries over pub/sub to the replica holding the connection.
#[derive(Serialize, Deserialize)]
struct RoutedCompletion {
    connection: StoredConnection,
    #[serde(rename = "elicitationId")]
    elicitation_id: String,
}

/// Where [`RedisStore::publish_completion`] sent a completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Routed {
    /// To the replica holding the connection, which was listening.
    Delivered,
    /// The elicitation has no completion notification: a retry waits on it
    /// ([`AwaitedBy::Retry`]), whose revision has none, and collects the completion itself.
    /// Nothing was sent.
    NoNotification,
    /// No replica listens under the connection's replica name: it is gone. The elicitation
    /// is complete all the same; only the optional notification is lost, and the client's
    /// retry still works.
    ReplicaGone,
    /// The connection names no replica ([`ConnectionId::new`](crate::server::ConnectionId::new)
    /// rather than [`ConnectionId::on_replica`](crate::server::ConnectionId::on_replica)): notify
    /// it locally, if it is here.
    NoReplica,
}

/// The completions routed to one replica: read them with [`next`](Self::next) and send each
/// to its connection (e.g. `elicit_mcp::rmcp::ConnectionPeers::send`).
pub struct Completions {
    channel: Channel,
}

impl fmt::Debug for Completions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Completions")
            .field("channel", &self.channel.name)
            .finish_non_exhaustive()
    }
}

/// One subscribed channel: the messages published on it, in order.
pub(super) struct Channel {
    /// The store it was opened from: on a cluster, a subscription lost is opened anew.
    store: RedisStore,
    subscription: Subscription,
    name: String,
    pushes: mpsc::UnboundedReceiver<PushInfo>,
}

/// The connection holding a subscription open.
enum Subscription {
    /// One server: `SUBSCRIBE`, which redis-rs sends again after a reconnect, which a command
    /// on the connection starts (see [`Channel::reconnect`]).
    Single(ConnectionManager),
    /// A cluster: `SSUBSCRIBE` on a cluster connection of its own, which routes it to the
    /// master owning the channel's slot. Kept only to hold it open.
    Cluster(#[allow(dead_code)] ClusterConnection),
}

impl Channel {
    /// Gets the subscription back after its connection dropped. One server: pings until the
    /// connection is back, as redis-rs reconnects (and re-subscribes) only when a command
    /// runs on it, and a subscription sends none of its own. A cluster: opens the subscription
    /// anew until it holds, from a fresh look at which node owns the channel's slot; a
    /// cluster connection that sends no command would not learn of a failover by itself.
    async fn reconnect(&mut self) {
        match &mut self.subscription {
            Subscription::Single(connection) => {
                while ::redis::cmd("PING")
                    .query_async::<()>(connection)
                    .await
                    .is_err()
                {
                    tokio::time::sleep(BETWEEN_TRIES).await;
                }
            }
            Subscription::Cluster(_) => loop {
                if let Ok((subscription, pushes)) = self.store.open_subscription(&self.name).await {
                    self.subscription = subscription;
                    self.pushes = pushes;
                    return;
                }
                tokio::time::sleep(BETWEEN_TRIES).await;
            },
        }
    }

    /// The next message's payload, as text. `None` once the subscription is closed.
    pub(super) async fn next(&mut self) -> Option<Result<String, StoreError>> {
        loop {
            let push = self.pushes.recv().await?;
            match push.kind {
                PushKind::Disconnection => {
                    self.reconnect().await;
                    continue;
                }
                // A cluster whose slot moved to another node (a failover the old master saw,
                // a resharding) unsubscribes the channel there: subscribe where it is now.
                PushKind::SUnsubscribe
                    if push
                        .data
                        .first()
                        .cloned()
                        .and_then(text)
                        .is_some_and(|channel| channel == self.name) =>
                {
                    self.reconnect().await;
                    continue;
                }
                PushKind::Message | PushKind::SMessage => {}
                // Subscription confirmations come this way too.
                _ => continue,
            }
            let mut data = push.data.into_iter();
            let (Some(channel), Some(payload)) = (data.next(), data.next()) else {
                return Some(Err(StoreError::new(Corrupt(
                    "a pub/sub message without channel and payload".into(),
                ))));
            };
            if text(channel).as_deref() != Some(self.name.as_str()) {
                continue;
            }
            return Some(
                text(payload).ok_or_else(|| StoreError::new(Corrupt("a non-text message".into()))),
            );
        }
    }
}

impl RedisStore {
    /// Sends the completion notification of `completed` to the replica holding its
    /// connection, over pub/sub. Call it on the replica that completed the elicitation.
    pub async fn publish_completion(
        &self,
        completed: &CompletedElicitation,
    ) -> Result<Routed, StoreError> {
        if completed.awaited_by() == Some(AwaitedBy::Retry) {
            return Ok(Routed::NoNotification);
        }
        let (to, notification) = completed.notification().into_parts();
        let Some(replica) = to.replica() else {
            return Ok(Routed::NoReplica);
        };
        let message = serde_json::to_string(&RoutedCompletion {
            connection: StoredConnection::from(&to),
            elicitation_id: notification.elicitation_id().as_str().to_owned(),
        })
        .map_err(StoreError::new)?;
        let receivers = self
            .publish(self.replica_channel(replica), &message)
            .await?;
        Ok(if receivers == 0 {
            Routed::ReplicaGone
        } else {
            Routed::Delivered
        })
    }

    /// Subscribes to the completions routed to the replica named `replica`: those of elicitations
    /// started on its connections
    /// ([`ConnectionId::on_replica`](crate::server::ConnectionId::on_replica) with the same name)
    /// and completed anywhere. Give each replica its own name.
    pub async fn completions(&self, replica: &str) -> Result<Completions, StoreError> {
        Ok(Completions {
            channel: self.subscribe(self.replica_channel(replica)).await?,
        })
    }

    /// A subscription of its own to `channel`, kept through reconnections.
    pub(super) async fn subscribe(&self, channel: String) -> Result<Channel, StoreError> {
        let (subscription, pushes) = self.open_subscription(&channel).await?;
        Ok(Channel {
            store: self.clone(),
            subscription,
            name: channel,
            pushes,
        })
    }

    /// A connection subscribed to `channel`, and the pushes it receives.
    async fn open_subscription(
        &self,
        channel: &str,
    ) -> Result<(Subscription, mpsc::UnboundedReceiver<PushInfo>), StoreError> {
        let (sender, pushes) = mpsc::unbounded_channel();
        match &*self.server {
            Server::Single(client) => {
                let config = Self::config(self.timeout)
                    .set_push_sender(sender)
                    .set_automatic_resubscription();
                let mut subscription = client
                    .get_connection_manager_with_config(config)
                    .await
                    .map_err(store_error)?;
                subscription.subscribe(channel).await.map_err(store_error)?;
                Ok((Subscription::Single(subscription), pushes))
            }
            Server::Cluster(nodes) => {
                let client = Self::cluster_client(nodes, self.timeout, Some(sender))?;
                let mut subscription = Self::cluster_connection(&client, self.timeout).await?;
                match tokio::time::timeout(self.timeout, subscription.ssubscribe(channel)).await {
                    Ok(subscribed) => subscribed.map_err(store_error)?,
                    Err(_) => {
                        return Err(StoreError::new(format!(
                            "Redis cluster: subscribing to a channel took longer than {:?}",
                            self.timeout
                        )));
                    }
                }
                Ok((Subscription::Cluster(subscription), pushes))
            }
        }
    }

    /// Publishes `message` on `channel`: the number of subscribers that received it. Sharded
    /// on a cluster (`SPUBLISH`), whose count is exact for the shard owning the channel; a
    /// plain `PUBLISH` there would count only the subscribers of the node it went to.
    pub(super) async fn publish(&self, channel: String, message: &str) -> Result<u64, StoreError> {
        let command = match *self.server {
            Server::Single(_) => "PUBLISH",
            Server::Cluster(_) => "SPUBLISH",
        };
        ::redis::cmd(command)
            .arg(channel)
            .arg(message)
            .query_async(&mut self.connection.clone())
            .await
            .map_err(store_error)
    }

    /// Under the replica's hash tag, as its heartbeat and its task channel.
    fn replica_channel(&self, replica: &str) -> String {
        format!("{}:replica:{{{replica}}}", self.prefix)
    }
}

impl Completions {
    /// The next completion routed here, addressed to its connection. `None` once the
    /// subscription is closed. A message on the channel that this crate did not write is an
    /// error, not skipped.
    pub async fn next(
        &mut self,
    ) -> Option<Result<Addressed<ElicitationCompleteNotification>, StoreError>> {
        let payload = self.channel.next().await?;
        Some(payload.and_then(|payload| decode_completion(&payload)))
    }
}

pub(crate) fn decode_completion(
    payload: &str,
) -> Result<Addressed<ElicitationCompleteNotification>, StoreError> {
    let routed: RoutedCompletion = serde_json::from_str(payload)
        .map_err(|e| StoreError::new(Corrupt(format!("a completion message: {e}"))))?;
    Ok(Addressed::new(
        routed.connection.into(),
        ElicitationCompleteNotification::new(ElicitationId::new(routed.elicitation_id)),
    ))
}

fn text(value: Value) -> Option<String> {
    ::redis::from_redis_value(value).ok()
}
