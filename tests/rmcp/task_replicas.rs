//! Tasks shared by two replicas of `examples/conformance_server` (separate processes,
//! `--redis`, one `ELICIT_STATE_KEYS`), as behind a load balancer that routes nothing by task
//! id: a task created on one is polled, answered and read through the other, and a replica
//! that stops has its tasks failed by the other within its lease.
//!
//! Uses the Redis of `REDIS_URL`, else a throwaway `redis-server` of each test's own (see
//! `support::redis_server`, which says why these tests are `#[ignore]`d); the last test, a
//! 6-node Redis Cluster of its own (`support::redis_cluster`).

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use crate::task_asks::pending;
use crate::tasks::{call, http_client, negotiating, result_text, settled, task_id};
use elicit_test_support::load::server::ServerProcess;
use elicit_test_support::redis_cluster::Cluster;
use elicit_test_support::redis_restart;
use elicit_test_support::redis_server::{self, Redis};
use rmcp::model::{self as sdk, TaskPayload, TaskStatus};
use serde_json::{Value, json};

const STATE_KEYS: &str = "state-1:0303030303030303030303030303030303030303030303030303030303030303";

/// A replica of the conformance server on `redis`, its tasks' lease `lease` seconds.
fn replica(redis: &Redis, prefix: &str, lease: &str) -> ServerProcess {
    replica_on(&redis.url(), prefix, lease)
}

/// A Redis of the test's own and two replicas on it, with the default lease: the Redis is
/// returned first, so that it is dropped after the replicas.
fn two_replicas(test: &str) -> (Redis, ServerProcess, ServerProcess) {
    let redis = Redis::for_test(test);
    let prefix = redis_server::fresh_prefix(test);
    let first = replica(&redis, &prefix, "15");
    let second = replica(&redis, &prefix, "15");
    (redis, first, second)
}

fn replica_on(url: &str, prefix: &str, lease: &str) -> ServerProcess {
    let args = [
        "--redis",
        url,
        "--prefix",
        prefix,
        "--task-lease",
        lease,
        "127.0.0.1:0",
    ];
    ServerProcess::start_with_env(
        "conformance_server",
        &args,
        &[("ELICIT_STATE_KEYS", STATE_KEYS)],
    )
}

fn answers(value: Value) -> sdk::InputResponses {
    let Value::Object(answers) = value else {
        panic!("answers are an object")
    };
    answers.into_iter().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn a_task_created_on_one_replica_is_polled_answered_and_read_on_the_other() {
    let (_redis, first, second) = two_replicas("tasks_on_two_replicas");
    let on_first = http_client(first.url(), true, negotiating()).await;
    for lifecycle in [
        negotiating(),
        rmcp::service::ClientLifecycleMode::Initialize,
    ] {
        let on_second = http_client(second.url(), true, lifecycle).await;
        let created = on_first
            .call_tool_once(call("confirm_delete", json!({"filename": "a.txt"})))
            .await;
        let id = task_id(created.unwrap());
        // The other replica sees it ask, takes the answer to the one running it, and gives
        // its result.
        let asked = pending(&on_second, &id, 1).await;
        assert!(asked.contains_key("confirm"), "{asked:?}");
        on_second
            .peer()
            .update_task(sdk::UpdateTaskParams::new(
                id.clone(),
                answers(json!({"confirm": {"action": "accept", "content": {"confirm": true}}})),
            ))
            .await
            .expect("tasks/update is taken by the other replica");
        assert_eq!(
            result_text(&settled(&on_second, &id).await),
            "deleted a.txt"
        );
        assert_eq!(result_text(&settled(&on_first, &id).await), "deleted a.txt");

        // A cancel through the other replica reaches the running method.
        let created = on_first
            .call_tool_once(call("slow_compute", json!({"seconds": 30})))
            .await;
        let id = task_id(created.unwrap());
        on_second
            .peer()
            .cancel_task(sdk::CancelTaskParams::new(id.clone()))
            .await
            .expect("tasks/cancel is taken by the other replica");
        assert_eq!(
            settled(&on_second, &id).await.status(),
            TaskStatus::Cancelled
        );

        // A task no replica created is unknown on both.
        let unknown = on_second
            .peer()
            .get_task(sdk::GetTaskParams::new("no-such-task".to_owned()))
            .await;
        let error = elicit_test_support::rmcp::error_of(unknown);
        assert_eq!(error.code, sdk::ErrorCode::INVALID_PARAMS);
        assert_eq!(error.message, "unknown task: no-such-task");
        on_second.cancel().await.unwrap();
    }
    on_first.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn an_update_taken_by_either_replica_is_read_on_either_as_soon_as_it_is_acknowledged() {
    // The suite's partial fulfillment: one of two keys answered, then `tasks/get` at once.
    // The replica that does not run the task answers `tasks/get` from the store, which the
    // running one writes every 50 ms: the update is acknowledged only once its state is there.
    let (_redis, first, second) = two_replicas("task_update_read_back");
    let on_first = http_client(first.url(), true, negotiating()).await;
    let on_second = http_client(second.url(), true, negotiating()).await;
    let both = |name: &str| json!({"action": "accept", "content": {"name": name, "confirm": true}});
    // Updated on each replica in turn, read on the one that does not run the task.
    for (updater, reader) in [(&on_second, &on_second), (&on_first, &on_second)] {
        for _ in 0..5 {
            let created = on_first
                .call_tool_once(call("multi_input", json!({})))
                .await;
            let id = task_id(created.unwrap());
            let asked = pending(reader, &id, 2).await;
            let keys: Vec<String> = asked.keys().cloned().collect();
            updater
                .peer()
                .update_task(sdk::UpdateTaskParams::new(
                    id.clone(),
                    answers(json!({ keys[0].clone(): both("partial") })),
                ))
                .await
                .expect("tasks/update is acknowledged");
            let read = reader
                .peer()
                .get_task(sdk::GetTaskParams::new(id.clone()))
                .await
                .expect("tasks/get answers");
            let TaskPayload::InputRequired { input_requests } = &read.task.payload else {
                panic!("still waiting for the other key: {read:?}");
            };
            let left: Vec<&String> = input_requests.keys().collect();
            assert_eq!(left, [&keys[1]], "the answered key is gone at once");
            on_first
                .peer()
                .cancel_task(sdk::CancelTaskParams::new(id))
                .await
                .expect("tasks/cancel is acknowledged");
        }
    }
    on_first.cancel().await.unwrap();
    on_second.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn a_replica_that_stops_has_its_tasks_failed_within_its_lease_and_the_other_goes_on() {
    let test = "tasks_of_a_stopped_replica";
    let redis = Redis::for_test(test);
    let prefix = redis_server::fresh_prefix(test);
    let lease = Duration::from_secs(2);
    let first = replica(&redis, &prefix, "2");
    let second = replica(&redis, &prefix, "2");
    let on_first = http_client(first.url(), true, negotiating()).await;
    let on_second = http_client(second.url(), true, negotiating()).await;
    let created = on_first
        .call_tool_once(call("slow_compute", json!({"seconds": 60})))
        .await;
    let orphan = task_id(created.unwrap());
    let working = on_second
        .peer()
        .get_task(sdk::GetTaskParams::new(orphan.clone()))
        .await
        .expect("the other replica knows the task");
    assert_eq!(working.task.status(), TaskStatus::Working);

    drop(on_first);
    drop(first);
    let stopped = Instant::now();
    let failed = settled(&on_second, &orphan).await;
    let waited = stopped.elapsed();
    // The lease, half a lease more for a replica only cut off from Redis, and the polls.
    assert!(
        waited <= lease + lease / 2 + Duration::from_secs(2),
        "failed {waited:?} after the replica stopped, with a lease of {lease:?}"
    );
    assert_eq!(failed.status(), TaskStatus::Failed);
    let message = failed.task.status_message.clone().unwrap_or_default();
    assert!(message.contains("running this task stopped"), "{message}");
    let TaskPayload::Failed { error } = &failed.payload else {
        panic!("a failed task carries its error: {failed:?}")
    };
    assert_eq!(error["message"], message.as_str());

    // The replica left goes on with tasks of its own.
    let created = on_second
        .call_tool_once(call(
            "slow_compute",
            json!({"seconds": 0, "label": "after"}),
        ))
        .await;
    let id = task_id(created.unwrap());
    assert_eq!(
        result_text(&settled(&on_second, &id).await),
        "computed `after` in 0 s"
    );
    on_second.cancel().await.unwrap();
}

/// Redis gone, back with its data, then back empty, under two replicas with a task asking: each
/// request that needs Redis meanwhile gets a clear error within a bounded time (no hang), the
/// replicas recover by themselves, the task in progress finishes after the restart with data,
/// and after the empty restart what was lost is an unknown task, not a wrong answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server on PATH (apt-get install redis-server), which it stops and restarts; run with --include-ignored"]
async fn tasks_go_on_through_redis_going_away_and_coming_back() {
    let mut redis = redis_restart::own("tasks_through_redis_going_away");
    let prefix = redis_server::fresh_prefix("tasks_through_redis_going_away");
    let first = replica_on(&redis.url(), &prefix, "15");
    let second = replica_on(&redis.url(), &prefix, "15");
    let on_first = http_client(first.url(), true, negotiating()).await;
    let on_second = http_client(second.url(), true, negotiating()).await;
    let created = on_first
        .call_tool_once(call("confirm_delete", json!({"filename": "b.txt"})))
        .await;
    let id = task_id(created.unwrap());
    pending(&on_second, &id, 1).await;

    redis.shut_down_saving();
    // What needs Redis fails within the store's timeout, retryable; the running replica still
    // answers for its own task.
    let began = Instant::now();
    let elsewhere = on_second
        .peer()
        .get_task(sdk::GetTaskParams::new(id.clone()))
        .await;
    let error = elicit_test_support::rmcp::error_of(elsewhere);
    assert_eq!(error.code, sdk::ErrorCode::INTERNAL_ERROR);
    assert!(error.message.contains("try again"), "{}", error.message);
    let refused = on_first
        .call_tool_once(call("slow_compute", json!({"seconds": 0})))
        .await;
    let error = elicit_test_support::rmcp::error_of(refused);
    assert!(error.message.contains("try again"), "{}", error.message);
    assert!(
        began.elapsed() < Duration::from_secs(15),
        "{:?}",
        began.elapsed()
    );
    pending(&on_first, &id, 1).await;

    // Back with its data: the same task is answered through the other replica and finishes.
    redis.start_again();
    let yes = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    let mut refused = None;
    for _ in 0..100 {
        let update = on_second
            .peer()
            .update_task(sdk::UpdateTaskParams::new(id.clone(), answers(yes.clone())))
            .await;
        match update {
            Ok(()) => {
                refused = None;
                break;
            }
            Err(error) => refused = Some(error),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        refused.is_none(),
        "the replicas reconnect by themselves: {refused:?}"
    );
    assert_eq!(
        result_text(&settled(&on_second, &id).await),
        "deleted b.txt"
    );

    // Gone without its data, and back empty: the task is unknown to the replica that did not
    // run it, never answered wrongly; new tasks are shared again.
    redis.shut_down();
    redis.restart();
    let mut unknown = None;
    for _ in 0..100 {
        let got = on_second
            .peer()
            .get_task(sdk::GetTaskParams::new(id.clone()))
            .await;
        let error = elicit_test_support::rmcp::error_of(got);
        if error.code == sdk::ErrorCode::INVALID_PARAMS {
            unknown = Some(error.message.into_owned());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(unknown, Some(format!("unknown task: {id}")));
    let created = on_first
        .call_tool_once(call(
            "slow_compute",
            json!({"seconds": 0, "label": "again"}),
        ))
        .await;
    let id = task_id(created.unwrap());
    assert_eq!(
        result_text(&settled(&on_second, &id).await),
        "computed `again` in 0 s"
    );
    on_first.cancel().await.unwrap();
    on_second.cancel().await.unwrap();
}

/// Two replicas on a Redis Cluster (`--redis-cluster`): a task created on one asks, and the
/// master holding its record is killed; while its replica takes over, the other replica's
/// `tasks/get` and `tasks/update` get a clear, retryable error at worst, and once it has, the
/// answer reaches the running replica and the task finishes, read alike on both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and redis-cli (apt-get install redis-server); run with --include-ignored"]
async fn tasks_on_a_redis_cluster_finish_through_a_master_killed_mid_task() {
    const RETRY_FOR: Duration = Duration::from_secs(30);
    let test = "tasks_on_a_redis_cluster";
    let mut cluster = Cluster::start(test);
    let prefix = redis_server::fresh_prefix(test);
    let nodes = cluster.urls().join(",");
    let replica = || {
        ServerProcess::start_with_env(
            "conformance_server",
            &[
                "--redis-cluster",
                &nodes,
                "--prefix",
                &prefix,
                "--task-lease",
                "15",
                "127.0.0.1:0",
            ],
            &[("ELICIT_STATE_KEYS", STATE_KEYS)],
        )
    };
    let (first, second) = (replica(), replica());
    let on_first = http_client(first.url(), true, negotiating()).await;
    let on_second = http_client(second.url(), true, negotiating()).await;
    let created = on_first
        .call_tool_once(call("confirm_delete", json!({"filename": "c.txt"})))
        .await;
    let id = task_id(created.unwrap());
    let asked = pending(&on_second, &id, 1).await;
    assert!(asked.contains_key("confirm"), "{asked:?}");

    let records = cluster.keys(&format!("{prefix}:t:*"));
    assert_eq!(records.len(), 1, "{records:?}");
    cluster.wait_replicated();
    let victim = cluster
        .master_of_slot(cluster.slot_of(&records[0]))
        .expect("a master holds the task's record");
    cluster.kill(victim);
    let killed = Instant::now();
    let cluster = std::sync::Arc::new(cluster);
    let failover = {
        let cluster = cluster.clone();
        tokio::task::spawn_blocking(move || cluster.wait_for_failover(victim))
    };

    // The answer, through the replica not running the task: refused at worst with a
    // retryable error while the slot has no master, then taken.
    let yes = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    let mut refusals = 0;
    loop {
        let update = on_second
            .peer()
            .update_task(sdk::UpdateTaskParams::new(id.clone(), answers(yes.clone())))
            .await;
        match update {
            Ok(()) => break,
            Err(error) if killed.elapsed() < RETRY_FOR => {
                let error = elicit_test_support::rmcp::error_of::<()>(Err(error));
                assert_eq!(error.code, sdk::ErrorCode::INTERNAL_ERROR, "{error:?}");
                assert!(error.message.contains("try again"), "{}", error.message);
                refusals += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("tasks/update not taken within {RETRY_FOR:?}: {error:?}"),
        }
    }
    // Read through both replicas, once the record is written on the new master.
    for client in [&on_second, &on_first] {
        let finished = loop {
            let got = client
                .peer()
                .get_task(sdk::GetTaskParams::new(id.clone()))
                .await;
            match got {
                Ok(got) if got.task.status().is_terminal() => break got.task,
                Ok(_) | Err(_) if killed.elapsed() < RETRY_FOR => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => panic!("task {id} did not finish within {RETRY_FOR:?}: {other:?}"),
            }
        };
        assert_eq!(result_text(&finished), "deleted c.txt");
    }
    failover.await.unwrap();
    eprintln!(
        "a task through a failover: finished {:.1} s after its master was killed, \
         {refusals} retryable refusals on the way",
        killed.elapsed().as_secs_f64()
    );
    on_first.cancel().await.unwrap();
    on_second.cancel().await.unwrap();
}
