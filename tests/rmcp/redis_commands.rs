//! What replicas cost Redis (issue 56, item 4): the commands one flow sends, counted by Redis
//! itself (`INFO commandstats`), on two replicas of `examples/conformance_server --redis`
//! behind HAProxy (round-robin, a 2025-11-25 session kept on its replica), for each flow of
//! the replicas' runs on both revisions: two forms, a form asked again, a URL-mode step whose
//! link is opened through the proxy (so on either replica), and a task that asks.
//!
//! Each flow runs once to warm up (the scripts loaded, the session open), then `RUNS` times
//! between a `CONFIG RESETSTAT` and the count. The replicas' heartbeats are taken off; with no
//! flow running, they must be all the replicas send. The counts must stay within
//! `BUDGET`, each command's reason written beside it; `benches/README.md` has the table this
//! test prints (`cargo test --test rmcp redis_commands -- --ignored --nocapture`).
//!
//! Redis here is always a server of the test's own, never `REDIS_URL`'s: other tests running on
//! a shared one would be counted too. With `ELICIT_REDIS_MONITOR=FILE`, every command Redis
//! receives is written to FILE (`redis-cli monitor`), each flow's runs after a line
//! `"echo" "== REVISION FLOW"`: the way to see why a command is sent.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use elicit_test_support::load::flows::{
    FLOWS, Flow, LoadClient, connect, connect_opening_after, run_flow,
};
use elicit_test_support::load::haproxy::Proxy;
use elicit_test_support::load::server::ServerProcess;
use elicit_test_support::redis_restart;
use rmcp::model::ProtocolVersion;
use rmcp::service::{RoleClient, RunningService};

/// How many times each flow is counted after its warm-up.
const RUNS: usize = 5;
/// How long the person of the slow URL-mode step takes to open the link, and how many times.
const SLOW_OPENING: Duration = Duration::from_secs(5);
const SLOW_RUNS: usize = 1;
/// How long a flow's last commands are given to land before the count.
const SETTLE: Duration = Duration::from_millis(200);
/// How long the replicas are watched with no flow running.
const IDLE: Duration = Duration::from_secs(6);

const STATE_KEYS: &str = "cmds-1:0606060606060606060606060606060606060606060606060606060606060606";

/// Commands by name, as `INFO commandstats` names them (`evalsha`, `hmget`, ...), each a count.
type Counts = BTreeMap<String, f64>;

/// The commands of one server since its last `CONFIG RESETSTAT`.
async fn command_stats(redis: &mut redis::aio::MultiplexedConnection) -> Counts {
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(redis)
        .await
        .expect("INFO commandstats");
    info.lines()
        .filter_map(|line| line.strip_prefix("cmdstat_"))
        .filter_map(|line| {
            let (name, fields) = line.split_once(':')?;
            let calls = fields.strip_prefix("calls=")?.split(',').next()?;
            Some((name.to_owned(), calls.parse().ok()?))
        })
        // What the test itself sends to count.
        .filter(|(name, _): &(String, f64)| {
            !name.starts_with("config") && name != "info" && name != "echo"
        })
        .collect()
}

async fn reset_stats(redis: &mut redis::aio::MultiplexedConnection) {
    let _: () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(redis)
        .await
        .expect("CONFIG RESETSTAT");
}

fn total(counts: &Counts) -> f64 {
    // From +0.0: an empty sum of f64 is -0.0, printed so.
    counts.values().fold(0.0, |sum, calls| sum + calls)
}

fn line(counts: &Counts) -> String {
    counts
        .iter()
        .filter(|(_, calls)| **calls > 0.0)
        .map(|(name, calls)| format!("{name} {calls:.1}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis (redis-server on PATH: apt-get install redis-server) and HAProxy (bash .ci/haproxy, or apt-get install haproxy); run with --ignored"]
async fn each_flow_sends_redis_only_the_commands_it_needs() {
    let redis_server = redis_restart::own("redis_commands");
    let redis_url = redis_server.url();
    let args = ["--redis", &redis_url, "--prefix", "cmds", "127.0.0.1:0"];
    let env = [("ELICIT_STATE_KEYS", STATE_KEYS)];
    let replicas: Vec<ServerProcess> = (0..2)
        .map(|_| ServerProcess::start_with_env("conformance_server", &args, &env))
        .collect();
    let backends: Vec<String> = replicas
        .iter()
        .map(|replica| replica.address().to_owned())
        .collect();
    let proxy = Proxy::start(&backends);
    let mcp = format!("{}/mcp", proxy.url);
    let mut redis = redis::Client::open(redis_url.as_str())
        .expect("the Redis URL")
        .get_multiplexed_async_connection()
        .await
        .expect("Redis answers");

    let _monitor = std::env::var_os("ELICIT_REDIS_MONITOR").map(|file| monitor(&redis_url, file));
    // With no flow running, the replicas send nothing but their heartbeats.
    reset_stats(&mut redis).await;
    tokio::time::sleep(IDLE).await;
    let idle = without_heartbeats(command_stats(&mut redis).await);
    println!("redis commands in {IDLE:?} without a flow: {}", line(&idle));
    let mut over = Vec::new();
    if total(&idle) > 0.0 {
        over.push(format!("idle: {}", line(&idle)));
    }
    for revision in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let client = connect(&mcp, &proxy.url, &revision)
            .await
            .unwrap_or_else(|e| panic!("a client on {revision}: {e}"));
        let mut quick_url = 0.0;
        for flow in FLOWS {
            let label = format!("{revision} {flow:?}");
            let per_flow = count(&mut redis, &client, flow, RUNS, &label).await;
            let budget = budget(&revision, flow);
            println!(
                "redis commands per flow: {label}: {:.1} (budget {budget}): {}",
                total(&per_flow),
                line(&per_flow),
            );
            if total(&per_flow) > budget + 0.05 {
                over.push(format!("{label}: {:.1} > {budget}", total(&per_flow)));
            }
            if flow == Flow::Url {
                quick_url = total(&per_flow);
            }
        }
        let _ = client.cancel().await;

        // The same URL-mode step, its link opened only after a while: what a waiting ask
        // costs per second, beyond the step itself.
        let slow = connect_opening_after(&mcp, &proxy.url, &revision, SLOW_OPENING)
            .await
            .unwrap_or_else(|e| panic!("a client on {revision}: {e}"));
        let label = format!("{revision} Url opened after {SLOW_OPENING:?}");
        let per_flow = count(&mut redis, &slow, Flow::Url, SLOW_RUNS, &label).await;
        let _ = slow.cancel().await;
        let per_second = (total(&per_flow) - quick_url) / SLOW_OPENING.as_secs_f64();
        println!(
            "redis commands per second of waiting: {revision}: {per_second:.2} (budget \
             {WAITING_BUDGET}): {label}: {:.1}: {}",
            total(&per_flow),
            line(&per_flow),
        );
        if per_second > WAITING_BUDGET + 0.05 {
            over.push(format!(
                "{revision} waiting: {per_second:.2}/s > {WAITING_BUDGET}"
            ));
        }
    }
    drop(proxy);
    drop(replicas);
    assert!(
        over.is_empty(),
        "flows sent Redis more commands than their budget: {over:?}"
    );
}

/// Runs `flow` once to warm up, then `runs` times counted: the commands per flow, the
/// replicas' heartbeats taken off.
async fn count(
    redis: &mut redis::aio::MultiplexedConnection,
    client: &RunningService<RoleClient, LoadClient>,
    flow: Flow,
    runs: usize,
    label: &str,
) -> Counts {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let next = || FILES.fetch_add(1, Ordering::Relaxed);
    run_once(client, flow, next()).await;
    let _: String = redis::cmd("ECHO")
        .arg(format!("== {label}"))
        .query_async(redis)
        .await
        .expect("ECHO");
    reset_stats(redis).await;
    for _ in 0..runs {
        run_once(client, flow, next()).await;
    }
    // A task's last poll may still be on its way to the replica: let it land.
    tokio::time::sleep(SETTLE).await;
    without_heartbeats(command_stats(redis).await)
        .into_iter()
        .map(|(name, calls)| (name, calls / runs as f64))
        .collect()
}

/// `counts` less the replicas' heartbeats, which come every few seconds whatever runs: each
/// is a transaction of its own (`MULTI`, `SET` alive, `DEL` missing, `EXEC`), the only
/// transaction of these flows, so each `MULTI` counts one.
fn without_heartbeats(mut counts: Counts) -> Counts {
    let beats = counts.get("multi").copied().unwrap_or(0.0);
    for name in ["multi", "exec", "set", "del"] {
        if let Some(calls) = counts.get_mut(name) {
            *calls -= beats;
        }
    }
    counts.retain(|_, calls| *calls > 0.0);
    counts
}

/// `redis-cli monitor` writing to `file`, stopped when dropped.
struct Monitor(std::process::Child);

fn monitor(redis_url: &str, file: std::ffi::OsString) -> Monitor {
    let output = std::fs::File::create(&file).expect("ELICIT_REDIS_MONITOR's file is created");
    let child = std::process::Command::new("redis-cli")
        .args(["-u", redis_url, "monitor"])
        .stdout(output)
        .spawn()
        .expect("redis-cli starts");
    // MONITOR counts from the moment it is taken: let it be taken before the first flow.
    std::thread::sleep(Duration::from_millis(300));
    Monitor(child)
}

impl Drop for Monitor {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn run_once(client: &RunningService<RoleClient, LoadClient>, flow: Flow, n: usize) {
    match tokio::time::timeout(Duration::from_secs(60), run_flow(client, flow, n)).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(answer))) => panic!("{flow:?} answered something else: {answer}"),
        Ok(Err(error)) => panic!("{flow:?} failed: {error}"),
        Err(_) => panic!("{flow:?} did not end within 60 s"),
    }
}

/// The most commands one flow may send, as Redis counts them (a script's own commands each
/// count): what it sent on 2026-12-08, with room for what timing moves (a task's polls that
/// land on the other replica, a replica's heartbeat in the window). `benches/README.md` gives
/// each command's reason.
fn budget(revision: &ProtocolVersion, flow: Flow) -> f64 {
    let on_2025_11_25 = *revision == ProtocolVersion::V_2025_11_25;
    match flow {
        // On 2025-11-25 a form stays in its session's replica; on 2026-07-28 each retry's
        // state is marked used once (a script and its SET NX), for two rounds.
        Flow::TwoForms | Flow::ReAsk if on_2025_11_25 => 0.0,
        Flow::TwoForms | Flow::ReAsk => 5.0,
        // Measured 24 and 35.
        Flow::Url if on_2025_11_25 => 26.0,
        Flow::Url => 40.0,
        // One write per status, at most four (working, input required, working, completed):
        // measured 12 to 14.4. On 2026-07-28 also the polls that land on the other replica,
        // as many as the client sends while the task runs: measured 21.8 to 22.5.
        Flow::TaskThatAsks if on_2025_11_25 => 16.0,
        Flow::TaskThatAsks => 28.0,
    }
}

/// The most commands a waiting URL-mode ask may send per second, over its first
/// `SLOW_OPENING`: one look at its entry, less and less often down to one a second. Measured
/// 1.4 to 1.8; a loaded machine that opens the link late adds a look a second.
const WAITING_BUDGET: f64 = 2.5;
