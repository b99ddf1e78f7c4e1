//! `RedisStore` on a real Redis Cluster (six `redis-server` nodes of the test's own, 3 masters
//! and 3 replicas; see `support::redis_cluster`, which says why these tests are `#[ignore]`d):
//! URL-mode flows across replicas (start, complete once, the per-user limit), the keys' hash
//! tags, routing of completions over sharded pub/sub, the replay guard and credentials; and a
//! master killed mid-flow, its replica taking over, every flow finishing once.
//!
//! A "replica" here is a tracker with its own connections to the cluster, as each server
//! process has.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use crate::redis_store::any_alphabet_of_ids;
use elicit_mcp::Secret;
use elicit_mcp::server::{
    AtRestKeys, CompletionError, ConnectionId, CredentialStore, ElicitationTracker, Initiator,
    RedisStore, ReplayGuard, Routed, StartError, UrlPolicy,
};
use elicit_mcp::wire::ElicitationId;
use elicit_test_support::redis_cluster::Cluster;
use elicit_test_support::redis_server;
use elicit_test_support::tracker::{start, user};

type Tracker = ElicitationTracker<RedisStore>;

async fn store(cluster: &Cluster, prefix: &str) -> RedisStore {
    RedisStore::connect_cluster(cluster.urls())
        .await
        .expect("the cluster answers")
        .with_prefix(prefix)
}

async fn replica(cluster: &Cluster, prefix: &str) -> Tracker {
    ElicitationTracker::with_store(store(cluster, prefix).await, UrlPolicy::production())
}

fn on(replica: &str, session: &str, subject: &str) -> Initiator {
    Initiator::new(user(subject), ConnectionId::on_replica(replica, session))
}

/// Runs `test` within `limit`, or fails saying so: no cluster test hangs.
async fn within<T>(limit: Duration, what: &str, test: impl Future<Output = T>) -> T {
    tokio::time::timeout(limit, test)
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish within {limit:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and redis-cli (apt-get install redis-server); run with --include-ignored"]
async fn url_mode_on_a_cluster_completes_once_and_holds_the_per_user_limit() {
    let began = Instant::now();
    let cluster = Cluster::start("url_mode_on_a_cluster");
    let prefix = redis_server::fresh_prefix("cluster-url");
    within(Duration::from_secs(60), "URL mode on a cluster", async {
        let (a, b) = (
            Arc::new(
                replica(&cluster, &prefix)
                    .await
                    .with_max_pending_per_user(5),
            ),
            Arc::new(
                replica(&cluster, &prefix)
                    .await
                    .with_max_pending_per_user(5),
            ),
        );

        // Bound to its user, completed once, whichever replica is asked.
        let alice = on("replica-a", "session-1", "alice");
        let id = start(&a, &alice).await.unwrap();
        let entry = b.verify(id.as_str(), &alice.user).await.unwrap();
        assert_eq!(entry.connection, alice.connection);
        assert!(matches!(
            b.complete(id.as_str(), &user("mallory")).await,
            Err(CompletionError::WrongUser)
        ));
        b.complete(id.as_str(), &alice.user).await.unwrap();
        for tracker in [&a, &b] {
            assert!(matches!(
                tracker.complete(id.as_str(), &alice.user).await,
                Err(CompletionError::NotPending)
            ));
        }

        // Twenty starts for one user race on two replicas: exactly five get in, though each
        // entry's key and the user's set are on different slots.
        let carol = on("replica-a", "session-2", "carol");
        let racing: Vec<_> = (0..20)
            .map(|i| {
                let (tracker, carol) = (if i % 2 == 0 { &a } else { &b }.clone(), carol.clone());
                tokio::spawn(async move { start(&tracker, &carol).await })
            })
            .collect();
        let mut started = Vec::new();
        for task in racing {
            match task.await.unwrap() {
                Ok(id) => started.push(id),
                Err(StartError::TooManyPending { limit: 5 }) => {}
                Err(other) => panic!("{other}"),
            }
        }
        assert_eq!(started.len(), 5);
        b.complete(started[0].as_str(), &carol.user).await.unwrap();
        start(&a, &carol).await.unwrap();
        assert!(matches!(
            start(&b, &carol).await,
            Err(StartError::TooManyPending { limit: 5 })
        ));

        // Two replicas racing to complete: one winner, every round.
        for round in 0..20 {
            let dave = on("replica-a", "session-3", &format!("dave-{round}"));
            let id = start(&a, &dave).await.unwrap();
            let racers: Vec<_> = [&a, &b]
                .into_iter()
                .map(|tracker| {
                    let (tracker, id, user) = (tracker.clone(), id.clone(), dave.user.clone());
                    tokio::spawn(async move { tracker.complete(id.as_str(), &user).await })
                })
                .collect();
            let mut winners = 0;
            for racer in racers {
                match racer.await.unwrap() {
                    Ok(_) => winners += 1,
                    Err(CompletionError::NotPending) => {}
                    Err(other) => panic!("{other}"),
                }
            }
            assert_eq!(winners, 1, "round {round}");
        }

        // Every key carries its hash tag, and no key names a link or a user.
        let keys = cluster.keys(&format!("{prefix}:*"));
        assert!(keys.iter().any(|key| key.contains(":e:{")), "{keys:?}");
        assert!(keys.iter().any(|key| key.contains(":u:{")), "{keys:?}");
        for key in &keys {
            let tag = key
                .split_once('{')
                .and_then(|(_, rest)| rest.split_once('}'))
                .map(|(tag, _)| tag)
                .unwrap_or_else(|| panic!("{key} has a hash tag"));
            assert!(
                tag.len() == 64 && tag.bytes().all(|b| b.is_ascii_hexdigit()),
                "{key}"
            );
            assert!(!key.contains("alice") && !key.contains("carol"), "{key}");
        }
    })
    .await;

    // Ids of any alphabet run their course, on a store of its own prefix.
    let prefix = redis_server::fresh_prefix("cluster-alphabet");
    within(
        Duration::from_secs(30),
        "ids of any alphabet on a cluster",
        async { any_alphabet_of_ids(replica(&cluster, &prefix).await).await },
    )
    .await;
    let _ = writeln!(
        std::io::stderr(),
        "URL mode on a 6-node cluster: {:.1} s, cluster start included",
        began.elapsed().as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and redis-cli (apt-get install redis-server); run with --include-ignored"]
async fn routing_replay_guard_and_credentials_on_a_cluster() {
    let cluster = Cluster::start("routing_replay_credentials");
    let prefix = redis_server::fresh_prefix("cluster-routing");
    within(
        Duration::from_secs(60),
        "routing and the rest on a cluster",
        async {
            let (a, b) = (
                replica(&cluster, &prefix).await,
                replica(&cluster, &prefix).await,
            );

            // A completion reaches only the replica holding the connection, over sharded pub/sub;
            // a replica that does not listen is said gone.
            let mut to_a = a.store().completions("replica-a").await.unwrap();
            let mut to_b = b.store().completions("replica-b").await.unwrap();
            for round in 0..10 {
                let alice = on("replica-a", &format!("session-{round}"), "alice");
                let id = start(&a, &alice).await.unwrap();
                let done = b.complete(id.as_str(), &alice.user).await.unwrap();
                assert_eq!(
                    b.store().publish_completion(&done).await.unwrap(),
                    Routed::Delivered
                );
                let (to, notification) = tokio::time::timeout(Duration::from_secs(5), to_a.next())
                    .await
                    .expect("A hears of the completion")
                    .unwrap()
                    .unwrap()
                    .into_parts();
                assert_eq!((to, notification.elicitation_id()), (alice.connection, &id));
            }
            assert!(
                tokio::time::timeout(Duration::from_millis(300), to_b.next())
                    .await
                    .is_err()
            );
            let gone = on("replica-gone", "session-9", "carol");
            let id = start(&a, &gone).await.unwrap();
            let done = b.complete(id.as_str(), &gone.user).await.unwrap();
            assert_eq!(
                b.store().publish_completion(&done).await.unwrap(),
                Routed::ReplicaGone
            );

            // The replay guard: of two replicas opening one state at once, one does, every time.
            let until = SystemTime::now() + Duration::from_secs(60);
            for round in 0..20 {
                let nonce = format!("nonce-{round}");
                let (first, second) = tokio::join!(
                    a.store().first_open(&nonce, until),
                    b.store().first_open(&nonce, until)
                );
                assert!(first.unwrap() ^ second.unwrap(), "round {round}");
                assert!(!a.store().first_open(&nonce, until).await.unwrap());
            }

            // Credentials: kept on one replica, found on the other, encrypted, forgotten once.
            let keys = || AtRestKeys::from_keyring("k", [("k", [5u8; 32])]).unwrap();
            let (kept, found) = (a.store().credentials(keys()), b.store().credentials(keys()));
            let day = Duration::from_secs(24 * 60 * 60);
            let erin = user("erin");
            kept.keep(
                &erin,
                "calendar",
                &Secret::new("sk-cluster-1".to_owned()),
                day,
            )
            .await
            .unwrap();
            let secret = found.find(&erin, "calendar").await.unwrap().expect("kept");
            assert_eq!(secret.expose_secret(), "sk-cluster-1");
            assert!(
                found
                    .find(&user("frank"), "calendar")
                    .await
                    .unwrap()
                    .is_none()
            );
            let stored = cluster.keys(&format!("{prefix}:c:*"));
            assert_eq!(stored.len(), 1, "{stored:?}");
            // Under the user's hash tag, as the user's pending set.
            assert!(stored[0].contains(":c:{"), "{stored:?}");
            assert!(found.forget(&erin, "calendar").await.unwrap());
            assert!(kept.find(&erin, "calendar").await.unwrap().is_none());
        },
    )
    .await;
}

/// Thirty flows started on replica A; the master owning A's completion channel (and a third
/// of the entries) is killed; while its replica takes over, replica B completes every flow,
/// trying again on a store error, and routes each completion to A. Every flow finishes, each
/// completes once, none is answered "not pending" before its completion, and A hears of each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and redis-cli (apt-get install redis-server); run with --include-ignored"]
async fn a_master_killed_mid_flow_its_replica_takes_over_and_every_flow_finishes_once() {
    const FLOWS: usize = 30;
    const RETRY_FOR: Duration = Duration::from_secs(30);
    let began = Instant::now();
    let mut cluster = Cluster::start("a_master_killed_mid_flow");
    let prefix = redis_server::fresh_prefix("cluster-failover");
    let a = Arc::new(replica(&cluster, &prefix).await);
    let b = Arc::new(replica(&cluster, &prefix).await);

    // A's completions, each told to its waiter; anything else is noted.
    let heard: Arc<Mutex<HashMap<ElicitationId, usize>>> = Arc::default();
    let mut completions = a.store().completions("replica-a").await.unwrap();
    let listener = {
        let heard = heard.clone();
        tokio::spawn(async move {
            while let Some(routed) = completions.next().await {
                let (_, notification) = routed.expect("a completion this crate wrote").into_parts();
                *heard
                    .lock()
                    .unwrap()
                    .entry(notification.elicitation_id().clone())
                    .or_default() += 1;
            }
        })
    };

    let mut flows = Vec::new();
    for flow in 0..FLOWS {
        let initiator = on(
            "replica-a",
            &format!("session-{flow}"),
            &format!("user-{flow}"),
        );
        let id = start(&a, &initiator).await.unwrap();
        flows.push((id, initiator));
    }
    let entries = cluster.keys(&format!("{prefix}:e:*"));
    assert_eq!(entries.len(), FLOWS, "{entries:?}");
    cluster.wait_replicated();

    // The master of A's channel goes, with the entries on its slots.
    let channel = "replica:{replica-a}";
    let victim = cluster
        .master_of_slot(cluster.slot_of(channel))
        .expect("a master serves the channel's slot");
    let on_victim = entries
        .iter()
        .filter(|key| cluster.master_of_slot(cluster.slot_of(key)) == Some(victim))
        .count();
    assert!(on_victim > 0, "the killed master holds some of the flows");
    cluster.kill(victim);
    let killed = Instant::now();
    let cluster = Arc::new(cluster);
    let failover = {
        let cluster = cluster.clone();
        tokio::task::spawn_blocking(move || {
            cluster.wait_for_failover(victim);
            killed.elapsed()
        })
    };

    // B completes every flow meanwhile, trying again on a store error (retryable); any other
    // answer than the completion is wrong.
    let finishing: Vec<_> = flows
        .iter()
        .cloned()
        .map(|(id, initiator)| {
            let b = b.clone();
            tokio::spawn(async move {
                let deadline = Instant::now() + RETRY_FOR;
                let mut store_errors = 0;
                let done = loop {
                    match b.complete(id.as_str(), &initiator.user).await {
                        Ok(done) => break done,
                        Err(CompletionError::Store(error)) if Instant::now() < deadline => {
                            store_errors += 1;
                            let _ = error;
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        Err(other) => panic!("flow {id:?} answered wrongly: {other}"),
                    }
                };
                // Routed to A once A's subscription followed its slot to the new master.
                loop {
                    match b.store().publish_completion(&done).await {
                        Ok(Routed::Delivered) => break,
                        Ok(Routed::ReplicaGone) | Err(_) if Instant::now() < deadline => {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        other => panic!("flow {id:?} not routed: {other:?}"),
                    }
                }
                store_errors
            })
        })
        .collect();
    let mut store_errors = 0;
    for flow in finishing {
        store_errors += within(RETRY_FOR * 2, "a flow through the failover", flow)
            .await
            .unwrap();
    }
    let took_over = failover.await.unwrap();
    let finished = killed.elapsed();

    // A heard of every flow, once; none completes again on either replica.
    within(Duration::from_secs(10), "A hearing of every flow", async {
        while heard.lock().unwrap().len() < FLOWS {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let ids: HashSet<&ElicitationId> = flows.iter().map(|(id, _)| id).collect();
    {
        let heard = heard.lock().unwrap();
        assert!(heard.keys().all(|id| ids.contains(id)), "{heard:?}");
        assert!(heard.values().all(|times| *times == 1), "{heard:?}");
    }
    for (id, initiator) in &flows {
        for tracker in [&a, &b] {
            assert!(matches!(
                tracker.complete(id.as_str(), &initiator.user).await,
                Err(CompletionError::NotPending)
            ));
        }
    }
    // And a new flow runs its course on the cluster as it now stands.
    let late = on("replica-a", "session-late", "late-user");
    let id = start(&a, &late).await.unwrap();
    b.complete(id.as_str(), &late.user).await.unwrap();
    listener.abort();

    let _ = writeln!(
        std::io::stderr(),
        "failover: {FLOWS} flows, {on_victim} on the killed master; replica promoted {:.1} s \
         after the kill; every flow finished {:.1} s after it, {store_errors} retryable store \
         errors on the way; {:.1} s in all",
        took_over.as_secs_f64(),
        finished.as_secs_f64(),
        began.elapsed().as_secs_f64()
    );
}
