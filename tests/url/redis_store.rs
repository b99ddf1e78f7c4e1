//! `RedisStore` against a real Redis (the server named by `REDIS_URL`, else a throwaway
//! `redis-server` of each test's own; see `support::redis_server`, which says why these tests
//! are `#[ignore]`d): the tracker's guarantees across replicas, routing of completions
//! to the replica holding the connection, failures when Redis is gone, and a load run over two
//! replicas. Also, on Redis and in memory alike: ids of any alphabet, since nothing is read
//! from an id.
//!
//! A "replica" here is a tracker with its own Redis connections and its own subscription, as
//! each server process has; `rmcp::replicas` runs the same flows across real processes.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use elicit_mcp::server::{
    AwaitedBy, Collected, CompletedElicitation, CompletionError, Completions, ConnectionId,
    ElicitationStore, ElicitationTracker, Initiator, MemoryStore, RedisStore, Routed, StartError,
    UrlPolicy, UserId,
};
use elicit_mcp::wire::{ElicitationCapability, ElicitationCompleteNotification, ElicitationId};
use elicit_test_support::connect_page::connect_url;
use elicit_test_support::redis_restart;
use elicit_test_support::redis_server::{self, Redis};
use elicit_test_support::tracker::{start, user};
use tokio::sync::oneshot;

type Tracker = ElicitationTracker<RedisStore>;

async fn replica(url: &str, prefix: &str) -> Tracker {
    let store = RedisStore::connect(url)
        .await
        .expect("the Redis of REDIS_URL answers")
        .with_prefix(prefix);
    ElicitationTracker::with_store(store, UrlPolicy::production())
}

fn on(replica: &str, session: &str, subject: &str) -> Initiator {
    Initiator::new(user(subject), ConnectionId::on_replica(replica, session))
}

async fn next_within(
    completions: &mut Completions,
    limit: Duration,
) -> Option<(ConnectionId, ElicitationCompleteNotification)> {
    match tokio::time::timeout(limit, completions.next()).await {
        Ok(Some(routed)) => Some(routed.expect("a completion this crate wrote").into_parts()),
        Ok(None) => panic!("the subscription closed"),
        Err(_) => None,
    }
}

#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn binding_and_single_use_hold_across_replicas() {
    let redis = Redis::for_test("binding_and_single_use_hold_across_replicas");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("binding");
    let (a, b) = (replica(&url, &prefix).await, replica(&url, &prefix).await);
    let alice = Initiator::new(
        UserId::from_issuer_and_subject("https://auth.example.com", "alice-sub").unwrap(),
        ConnectionId::on_replica("replica-a", "session-1"),
    );
    let id = start(&a, &alice).await.unwrap();

    // B sees what A stored, bound to Alice and her connection on A.
    let entry = b.verify(id.as_str(), &alice.user).await.unwrap();
    assert_eq!(entry.user, alice.user);
    assert_eq!(entry.user.subject(), "alice-sub");
    assert_eq!(entry.connection, alice.connection);
    assert_eq!(entry.connection.replica(), Some("replica-a"));

    // Someone else, or the same subject from another issuer, is refused and consumes nothing.
    for other in [
        user("mallory"),
        user("alice-sub"),
        UserId::from_issuer_and_subject("https://other.example.com", "alice-sub").unwrap(),
    ] {
        assert!(matches!(
            b.complete(id.as_str(), &other).await,
            Err(CompletionError::WrongUser)
        ));
    }
    let done = b.complete(id.as_str(), &alice.user).await.unwrap();
    assert_eq!(done.user(), &alice.user);
    assert_eq!(done.notification().to(), &alice.connection);
    for tracker in [&a, &b] {
        assert!(matches!(
            tracker.complete(id.as_str(), &alice.user).await,
            Err(CompletionError::NotPending)
        ));
    }

    // Discard works across replicas too.
    let id = start(&a, &alice).await.unwrap();
    b.discard(id.as_str(), &alice.user).await.unwrap();
    assert!(matches!(
        a.verify(id.as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
}

#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn the_store_names_no_link_and_expires_in_redis() {
    let redis = Redis::for_test("the_store_names_no_link_and_expires_in_redis");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("keys");
    let tracker = replica(&url, &prefix)
        .await
        .with_ttl(Duration::from_millis(1500));
    let alice = on("replica-a", "session-1", "alice-sub-123");
    let id = start(&tracker, &alice).await.unwrap();

    let mut redis = ::redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let keys: Vec<String> = ::redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut redis)
        .await
        .unwrap();
    assert_eq!(keys.len(), 2, "the entry and Alice's set: {keys:?}");
    for key in &keys {
        assert!(
            !key.contains(id.as_str()) && !key.contains("alice"),
            "{key}"
        );
        // The last part is the hash, in braces: the key's hash tag (its slot on a cluster).
        let tagged = key.rsplit(':').next().unwrap();
        let hash = tagged
            .strip_prefix('{')
            .and_then(|tagged| tagged.strip_suffix('}'))
            .unwrap_or_else(|| panic!("{key} ends in its hash tag"));
        assert!(
            hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "{key}"
        );
        let ttl: i64 = ::redis::cmd("PTTL")
            .arg(key)
            .query_async(&mut redis)
            .await
            .unwrap();
        assert!((1..=1500).contains(&ttl), "{key} expires in {ttl} ms");
    }
    let entry_key = keys.iter().find(|key| key.contains(":e:")).unwrap();
    let value: String = ::redis::cmd("HGET")
        .arg(entry_key)
        .arg("entry")
        .query_async(&mut redis)
        .await
        .unwrap();
    assert!(!value.contains(id.as_str()), "{value}");

    // Redis expires it by itself: no sweeper runs here.
    tokio::time::sleep(Duration::from_millis(1700)).await;
    let left: Vec<String> = ::redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut redis)
        .await
        .unwrap();
    assert!(left.is_empty(), "{left:?}");
    assert!(matches!(
        tracker.complete(id.as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn the_per_user_limit_is_held_in_redis_across_replicas() {
    let redis = Redis::for_test("the_per_user_limit_is_held_in_redis_across_replicas");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("limit");
    let a = Arc::new(replica(&url, &prefix).await.with_max_pending_per_user(5));
    let b = Arc::new(replica(&url, &prefix).await.with_max_pending_per_user(5));

    // Twenty starts for one user race on two replicas: exactly five get in.
    let alice = on("replica-a", "session-1", "alice");
    let racing: Vec<_> = (0..20)
        .map(|i| {
            let (tracker, alice) = (if i % 2 == 0 { &a } else { &b }.clone(), alice.clone());
            tokio::spawn(async move { start(&tracker, &alice).await })
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

    // Another user is not held back; completing one of Alice's frees a place on any replica.
    start(&b, &on("replica-b", "session-2", "bob"))
        .await
        .unwrap();
    b.complete(started[0].as_str(), &alice.user).await.unwrap();
    start(&a, &alice).await.unwrap();
    assert!(matches!(
        start(&b, &alice).await,
        Err(StartError::TooManyPending { limit: 5 })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn two_replicas_racing_to_complete_have_one_winner() {
    let redis = Redis::for_test("two_replicas_racing_to_complete_have_one_winner");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("race");
    let a = Arc::new(replica(&url, &prefix).await);
    let b = Arc::new(replica(&url, &prefix).await);
    for round in 0..50 {
        let alice = on("replica-a", "session-1", &format!("user-{round}"));
        let id = start(&a, &alice).await.unwrap();
        let barrier = Arc::new(tokio::sync::Barrier::new(2));
        let racers: Vec<_> = [&a, &b]
            .into_iter()
            .map(|tracker| {
                let (tracker, barrier, id, user) = (
                    tracker.clone(),
                    barrier.clone(),
                    id.clone(),
                    alice.user.clone(),
                );
                tokio::spawn(async move {
                    barrier.wait().await;
                    tracker.complete(id.as_str(), &user).await
                })
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
}

#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn a_completion_reaches_only_the_replica_holding_the_connection() {
    let redis = Redis::for_test("a_completion_reaches_only_the_replica_holding_the_connection");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("routing");
    let (a, b) = (replica(&url, &prefix).await, replica(&url, &prefix).await);
    let mut to_a = a.store().completions("replica-a").await.unwrap();
    let mut to_b = b.store().completions("replica-b").await.unwrap();

    let alice = on("replica-a", "session-1", "alice");
    let id = start(&a, &alice).await.unwrap();
    let done = b.complete(id.as_str(), &alice.user).await.unwrap();
    assert_eq!(
        b.store().publish_completion(&done).await.unwrap(),
        Routed::Delivered
    );
    let (to, notification) = next_within(&mut to_a, Duration::from_secs(5))
        .await
        .expect("A hears of the completion");
    assert_eq!(to, alice.connection);
    assert_eq!(notification.elicitation_id(), &id);
    assert!(
        next_within(&mut to_b, Duration::from_millis(300))
            .await
            .is_none()
    );

    // Its replica gone: the elicitation is complete all the same, the notification is lost.
    let gone = on("replica-gone", "session-9", "carol");
    let id = start(&a, &gone).await.unwrap();
    let done = b.complete(id.as_str(), &gone.user).await.unwrap();
    assert_eq!(
        b.store().publish_completion(&done).await.unwrap(),
        Routed::ReplicaGone
    );
    // A connection named without a replica is for the completing process to notify.
    let local = Initiator::new(user("dave"), ConnectionId::new("session-3"));
    let id = start(&a, &local).await.unwrap();
    let done = a.complete(id.as_str(), &local.user).await.unwrap();
    assert_eq!(
        a.store().publish_completion(&done).await.unwrap(),
        Routed::NoReplica
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test]
async fn an_unreachable_redis_is_an_error() {
    // Nothing listens on a port just freed: connecting fails within the timeout, cleanly.
    let closed = format!("redis://127.0.0.1:{}/", free_port());
    let began = Instant::now();
    let refused = RedisStore::connect_with_timeout(&closed, Duration::from_millis(500)).await;
    assert!(refused.is_err());
    assert!(refused.unwrap_err().to_string().contains("Redis"));
    assert!(began.elapsed() < Duration::from_secs(10));
}

/// A tracker on `server`'s Redis (a short timeout), with one link of alice's pending.
async fn pending_on(
    server: &redis_server::OwnServer,
) -> (ElicitationTracker<RedisStore>, Initiator, ElicitationId) {
    let store = RedisStore::connect_with_timeout(&server.url(), Duration::from_millis(500))
        .await
        .unwrap();
    let tracker = ElicitationTracker::with_store(store, UrlPolicy::production());
    let alice = on("replica-a", "session-1", "alice");
    let id = start(&tracker, &alice).await.unwrap();
    (tracker, alice, id)
}

/// Completes `id` once Redis answers again (at most 5 s): what the completion said.
async fn complete_once_back(
    tracker: &ElicitationTracker<RedisStore>,
    id: &ElicitationId,
    alice: &Initiator,
) -> Option<Result<CompletedElicitation, CompletionError>> {
    for _ in 0..50 {
        match tracker.complete(id.as_str(), &alice.user).await {
            Err(CompletionError::Store(_)) => tokio::time::sleep(Duration::from_millis(100)).await,
            other => return Some(other),
        }
    }
    None
}

/// A server of this test's own, stopped under a tracker and started again empty.
#[tokio::test]
#[ignore = "needs redis-server on PATH (apt-get install redis-server), which it stops and restarts; run with --include-ignored"]
async fn a_redis_gone_is_an_error_and_back_empty_no_link_completes_twice() {
    let mut server = redis_restart::own("a_redis_gone_is_an_error_and_back_empty");
    let (tracker, alice, id) = pending_on(&server).await;

    server.shut_down();
    let began = Instant::now();
    assert!(matches!(
        tracker.complete(id.as_str(), &alice.user).await,
        Err(CompletionError::Store(_))
    ));
    assert!(matches!(
        start(&tracker, &alice).await,
        Err(StartError::Store(_))
    ));
    assert!(
        began.elapsed() < Duration::from_secs(15),
        "{:?}",
        began.elapsed()
    );

    // Back without persistence: the pending link is gone, so it cannot complete at all; the
    // client crate reconnected by itself.
    server.restart();
    let outcome = complete_once_back(&tracker, &id, &alice).await;
    assert!(
        matches!(outcome, Some(Err(CompletionError::NotPending))),
        "{outcome:?}"
    );
    start(&tracker, &alice).await.unwrap();
}

/// A server restarted with its data (as with RDB or AOF persistence): the link pending before
/// completes after, once; meanwhile the store is an error, not a hang.
#[tokio::test]
#[ignore = "needs redis-server on PATH (apt-get install redis-server), which it stops and restarts; run with --include-ignored"]
async fn a_redis_restarted_with_its_data_completes_the_link_pending_before() {
    let mut server = redis_restart::own("a_redis_restarted_with_its_data");
    let (tracker, alice, id) = pending_on(&server).await;

    server.shut_down_saving();
    assert!(matches!(
        tracker.complete(id.as_str(), &alice.user).await,
        Err(CompletionError::Store(_))
    ));
    server.start_again();
    let outcome = complete_once_back(&tracker, &id, &alice).await;
    assert!(matches!(outcome, Some(Ok(_))), "{outcome:?}");
    assert!(matches!(
        tracker.complete(id.as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
}

/// 1,000 flows over two replicas: each starts on one, completes on the other, and its
/// notification is routed back to the replica that started it. None may be lost, none
/// completed twice; the run is bounded in time. Prints throughput and latency percentiles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn a_load_run_over_two_replicas_loses_nothing_and_completes_nothing_twice() {
    const FLOWS: usize = 1000;
    const IN_FLIGHT: usize = 32;
    const USERS: usize = 100;
    let redis =
        Redis::for_test("a_load_run_over_two_replicas_loses_nothing_and_completes_nothing_twice");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("load");
    let replicas = Arc::new([replica(&url, &prefix).await, replica(&url, &prefix).await]);
    let names = ["replica-a", "replica-b"];

    // Each replica's sessions: an elicitation id's waiter, told when its notification comes.
    type Waiters = Arc<Mutex<HashMap<(ConnectionId, ElicitationId), oneshot::Sender<()>>>>;
    let waiters: [Waiters; 2] = Default::default();
    let unexpected = Arc::new(Mutex::new(Vec::<String>::new()));
    for (index, name) in names.into_iter().enumerate() {
        let mut completions = replicas[index].store().completions(name).await.unwrap();
        let (waiters, unexpected) = (waiters[index].clone(), unexpected.clone());
        tokio::spawn(async move {
            while let Some(routed) = completions.next().await {
                let (to, notification) = routed.unwrap().into_parts();
                let key = (to, notification.elicitation_id().clone());
                match waiters.lock().unwrap().remove(&key) {
                    Some(waiter) => drop(waiter.send(())),
                    None => unexpected.lock().unwrap().push(format!("{key:?}")),
                }
            }
        });
    }

    let run = async {
        let began = Instant::now();
        let gate = Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT));
        let flows: Vec<_> = (0..FLOWS)
            .map(|flow| {
                let (replicas, waiters, gate) = (replicas.clone(), waiters.clone(), gate.clone());
                tokio::spawn(async move {
                    let _slot = gate.acquire_owned().await.unwrap();
                    let (starting, completing) = (flow % 2, 1 - flow % 2);
                    let initiator = on(
                        names[starting],
                        &format!("session-{flow}"),
                        &format!("user-{}", flow % USERS),
                    );
                    let flow_began = Instant::now();
                    let id = start(&replicas[starting], &initiator).await.unwrap();
                    let (told, notified) = oneshot::channel();
                    waiters[starting]
                        .lock()
                        .unwrap()
                        .insert((initiator.connection.clone(), id.clone()), told);
                    let done = replicas[completing]
                        .complete(id.as_str(), &initiator.user)
                        .await
                        .unwrap();
                    let routed = replicas[completing]
                        .store()
                        .publish_completion(&done)
                        .await
                        .unwrap();
                    assert_eq!(routed, Routed::Delivered);
                    tokio::time::timeout(Duration::from_secs(10), notified)
                        .await
                        .expect("the notification arrives within 10 s")
                        .unwrap();
                    (id, initiator.user, flow_began.elapsed())
                })
            })
            .collect();
        let mut finished = Vec::with_capacity(FLOWS);
        for flow in flows {
            finished.push(flow.await.unwrap());
        }
        (finished, began.elapsed())
    };
    let (finished, elapsed) = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("1,000 flows within 120 s");

    // None lost, none doubled: every id once, every waiter told, nothing else delivered.
    let ids: HashSet<&ElicitationId> = finished.iter().map(|(id, _, _)| id).collect();
    assert_eq!(ids.len(), FLOWS);
    assert!(waiters.iter().all(|w| w.lock().unwrap().is_empty()));
    assert!(unexpected.lock().unwrap().is_empty(), "{unexpected:?}");
    // And none completes again, on either replica.
    for (id, user, _) in &finished {
        for tracker in replicas.iter() {
            assert!(matches!(
                tracker.complete(id.as_str(), user).await,
                Err(CompletionError::NotPending)
            ));
        }
    }

    let mut latencies: Vec<Duration> = finished.iter().map(|(_, _, took)| *took).collect();
    latencies.sort();
    let percentile = |p: usize| latencies[(latencies.len() * p / 100).min(latencies.len() - 1)];
    let _ = writeln!(
        std::io::stderr(),
        "load run: {FLOWS} flows over 2 replicas, {IN_FLIGHT} in flight: {:.0} flows/s; \
         start-to-notification latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        FLOWS as f64 / elapsed.as_secs_f64(),
        percentile(50).as_secs_f64() * 1e3,
        percentile(99).as_secs_f64() * 1e3,
        latencies[latencies.len() - 1].as_secs_f64() * 1e3,
    );
}

/// Ids that are not lowercase hex: base32, upper case, dots, a first letter that once meant
/// "awaited", and ids ending in `.done`, one the other's name with that suffix.
const FOREIGN_IDS: [&str; 6] = [
    "MFRGGZDFMZTWQ2LKNNWG23TP",
    "Alice.Session.7",
    "w",
    "r0",
    "ZZ",
    "ZZ.done",
];

/// Each start takes the next of `ids`; the tracker gets no other.
fn ids_from(
    ids: &[&str],
) -> impl Fn() -> Result<ElicitationId, elicit_mcp::wire::RandomnessUnavailableError>
+ Send
+ Sync
+ 'static {
    let ids = Mutex::new(
        ids.iter()
            .map(|id| ElicitationId::new(*id))
            .collect::<VecDeque<_>>(),
    );
    move || {
        Ok(ids
            .lock()
            .unwrap()
            .pop_front()
            .expect("an id for every start"))
    }
}

/// Starts plain and awaited elicitations under `FOREIGN_IDS` and runs each to its end: each
/// is pending, completes once for its user, and a waited-on one is collected once.
pub(crate) async fn any_alphabet_of_ids<S: ElicitationStore>(tracker: ElicitationTracker<S>) {
    let tracker = tracker.with_id_source(ids_from(&FOREIGN_IDS));
    let alice = on("replica-a", "session-1", "alice-sub");
    let client = ElicitationCapability::url();
    let awaited_by = [None, Some(AwaitedBy::Session), Some(AwaitedBy::Retry)];
    for (id, by) in FOREIGN_IDS.iter().zip(awaited_by.into_iter().cycle()) {
        let start = tracker.start(&alice, Some(&client), "Connect", connect_url);
        let started = match by {
            None => start.await,
            Some(by) => start.with_awaited_by(by).await,
        };
        assert_eq!(started.unwrap().id().as_str(), *id);
    }
    for (id, by) in FOREIGN_IDS.iter().zip(awaited_by.into_iter().cycle()) {
        let entry = tracker.verify(id, &alice.user).await.unwrap();
        assert_eq!((entry.id.as_str(), entry.awaited_by), (*id, by), "{id}");
        if by.is_some() {
            let looked = tracker.collect(id, &alice.user).await.unwrap();
            assert_eq!(looked, Collected::Waiting, "{id}");
        }
        let done = tracker.complete(id, &alice.user).await.unwrap();
        assert_eq!(done.notification().message().elicitation_id().as_str(), *id);
        assert_eq!(done.awaited_by(), by, "{id}");
        assert!(
            matches!(
                tracker.complete(id, &alice.user).await,
                Err(CompletionError::NotPending)
            ),
            "{id} completes once"
        );
        if by.is_some() {
            let collected = tracker.collect(id, &alice.user).await.unwrap();
            assert_eq!(collected, Collected::Completed(ElicitationId::new(*id)));
            assert!(
                matches!(
                    tracker.collect(id, &alice.user).await,
                    Err(CompletionError::NotPending)
                ),
                "{id} is collected once"
            );
        }
    }
    for id in FOREIGN_IDS {
        assert!(
            tracker.store().get(id).await.unwrap().is_none(),
            "{id} is gone"
        );
    }
}

#[tokio::test]
async fn ids_of_any_alphabet_run_their_course_in_memory() {
    any_alphabet_of_ids(ElicitationTracker::with_store(
        MemoryStore::new(),
        UrlPolicy::production(),
    ))
    .await;
}

#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn ids_of_any_alphabet_run_their_course_on_redis() {
    let redis = Redis::for_test("ids_of_any_alphabet_run_their_course_on_redis");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("alphabet");
    any_alphabet_of_ids(replica(&url, &prefix).await).await;
}

#[tokio::test]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn credentials_rest_encrypted_in_redis_and_rotate() {
    use elicit_mcp::Secret;
    use elicit_mcp::server::{AtRestKeys, CredentialStore};

    const KEY: &str = "sk-at-rest-0123456789";
    let redis = Redis::for_test("credentials_rest_encrypted_in_redis_and_rotate");
    let url = redis.url();
    let prefix = redis_server::fresh_prefix("credentials");
    let store = RedisStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(&prefix);
    let old = AtRestKeys::from_keyring("old", [("old", [1u8; 32])]).unwrap();
    let credentials = store.credentials(old);
    let alice = user("alice");
    let day = Duration::from_secs(24 * 60 * 60);
    credentials
        .keep(&alice, "calendar", &Secret::new(KEY.to_owned()), day)
        .await
        .unwrap();
    // Another replica with the same keys finds it; another user does not.
    let again = RedisStore::connect(&url)
        .await
        .unwrap()
        .with_prefix(&prefix)
        .credentials(AtRestKeys::from_keyring("old", [("old", [1u8; 32])]).unwrap());
    let found = again.find(&alice, "calendar").await.unwrap().expect("kept");
    assert_eq!(found.expose_secret(), KEY);
    assert!(
        again
            .find(&user("bob"), "calendar")
            .await
            .unwrap()
            .is_none()
    );

    // What Redis holds reads as nothing: no key of the prefix holds the secret in any form.
    let mut connection = ::redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let keys: Vec<String> = ::redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(keys.len(), 1, "{keys:?}");
    let raw: String = ::redis::cmd("GET")
        .arg(&keys[0])
        .query_async(&mut connection)
        .await
        .unwrap();
    assert!(!raw.contains(KEY) && !raw.contains("sk-at-rest"), "{raw}");
    let ttl: i64 = ::redis::cmd("PTTL")
        .arg(&keys[0])
        .query_async(&mut connection)
        .await
        .unwrap();
    assert!(ttl > 0 && ttl <= 24 * 60 * 60 * 1000, "{ttl}");

    // Without the key it does not open; a rotated ring still opens it; a retired one not.
    let stranger = store.credentials(AtRestKeys::from_keyring("x", [("x", [2u8; 32])]).unwrap());
    assert!(stranger.find(&alice, "calendar").await.unwrap().is_none());
    let rotated = store.credentials(
        AtRestKeys::from_keyring("new", [("new", [3u8; 32]), ("old", [1u8; 32])]).unwrap(),
    );
    assert_eq!(
        rotated
            .find(&alice, "calendar")
            .await
            .unwrap()
            .unwrap()
            .expose_secret(),
        KEY
    );
    let retired = store.credentials(AtRestKeys::from_keyring("new", [("new", [3u8; 32])]).unwrap());
    assert!(retired.find(&alice, "calendar").await.unwrap().is_none());

    assert!(rotated.forget(&alice, "calendar").await.unwrap());
    assert!(!rotated.forget(&alice, "calendar").await.unwrap());
    assert!(again.find(&alice, "calendar").await.unwrap().is_none());
}
