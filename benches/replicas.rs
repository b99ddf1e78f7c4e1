//! The replicas' load run (issue 39): Redis, three replicas of `conformance_server --redis`
//! (built `--release`, one `ELICIT_STATE_KEYS`, a task lease of 3 s) and Debian's HAProxy in
//! front of them on loopback (round-robin; a 2025-11-25 session kept on its replica by its
//! `Mcp-Session-Id`; health checks, a failed connection redispatched; nothing routed by task
//! id). Concurrent rmcp clients on both revisions run a mix of flows through the proxy, one
//! after the other: two forms in sequence, a form sent first without a required field and
//! asked again (a re-ask), a
//! URL-mode step completed by opening its link through the proxy (so on any replica), and a
//! task that asks (created, polled with `tasks/get`, answered with `tasks/update`, read). A
//! third of the way in one replica is killed; two thirds in, Redis is stopped (saving its
//! data) and started again two seconds later.
//!
//! Each flow ends one of four ways: completed with the right result; a clear error (an error
//! the server or the transport gave: the client may retry); hung (nothing within 60 s); lost
//! (an answer that is not the flow's). It reports them per revision with p50 and p99 of the
//! completed flows, and fails unless none is lost and none hung. The clients give up a lost
//! event stream after three tries (rmcp's default tries for ever, so a 2025-11-25 call whose
//! session was on the killed replica would wait for ever: a client's setting to know).
//!
//! ```sh
//! cargo bench --bench replicas              # 200 flows per revision
//! cargo bench --bench replicas -- --full    # 1,000 flows per revision
//! ```
//! Needs `redis-server` and `haproxy` (Debian: `apt-get install redis-server haproxy`).

#[cfg(target_os = "linux")]
use elicit_test_support::redis_restart;

#[cfg(target_os = "linux")]
#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flows = match args.iter().position(|arg| arg == "--flows") {
        Some(at) => args
            .get(at + 1)
            .and_then(|flows| flows.parse().ok())
            .expect("--flows takes a number"),
        None if args.iter().any(|arg| arg == "--full") => 1000,
        None => 200,
    };
    let report = run::run(flows).await;
    println!("{report}");
    if report
        .revisions
        .iter()
        .any(|run| run.lost > 0 || run.hung > 0)
    {
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("the replicas' load run starts Linux processes (redis-server, haproxy)");
}

#[cfg(target_os = "linux")]
mod run {
    use std::fmt;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use rmcp::model::ProtocolVersion;

    use crate::redis_restart;
    use elicit_test_support::load::flows::{FLOWS, connect, run_flow};
    use elicit_test_support::load::haproxy::Proxy;
    use elicit_test_support::load::server::ServerProcess;

    /// Concurrent clients on each revision.
    const CLIENTS: usize = 8;
    /// The longest a flow may take before it counts as hung.
    const HUNG_AFTER: Duration = Duration::from_secs(60);
    const STATE_KEYS: &str =
        "load-1:0505050505050505050505050505050505050505050505050505050505050505";

    /// How a flow ended.
    enum Ended {
        Completed(Duration),
        ClearError(String),
        Hung,
        Lost(String),
    }

    /// One revision's flows.
    pub struct RevisionRun {
        revision: ProtocolVersion,
        flows: usize,
        completed: usize,
        errors: usize,
        pub hung: usize,
        pub lost: usize,
        p50: Duration,
        p99: Duration,
        first_errors: Vec<String>,
        lost_answers: Vec<String>,
    }

    pub struct Report {
        pub revisions: Vec<RevisionRun>,
        faults: Vec<(Duration, &'static str)>,
        elapsed: Duration,
    }

    /// One client on `revision`, running flows until `next` passes `total`; reconnects after
    /// an error (its session may have been on the killed replica).
    async fn worker(
        url: String,
        proxy: String,
        revision: ProtocolVersion,
        next: Arc<AtomicUsize>,
        total: usize,
    ) -> Vec<Ended> {
        let mut ended = Vec::new();
        let mut client = None;
        loop {
            let n = next.fetch_add(1, Ordering::Relaxed);
            if n >= total {
                break;
            }
            let flow = FLOWS[n % FLOWS.len()];
            let started = Instant::now();
            if client.is_none() {
                match tokio::time::timeout(HUNG_AFTER, connect(&url, &proxy, &revision)).await {
                    Ok(Ok(connected)) => client = Some(connected),
                    Ok(Err(error)) => {
                        ended.push(Ended::ClearError(format!("connect: {error}")));
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        continue;
                    }
                    Err(_) => {
                        ended.push(Ended::Hung);
                        continue;
                    }
                }
            }
            let Some(connected) = &client else { continue };
            let outcome = tokio::time::timeout(HUNG_AFTER, run_flow(connected, flow, n)).await;
            match &outcome {
                Ok(Ok(Ok(()))) => {}
                Ok(Ok(Err(said))) => eprintln!("replicas: {revision} {flow:?} LOST: {said}"),
                Ok(Err(error)) => eprintln!("replicas: {revision} {flow:?} error: {error}"),
                Err(_) => eprintln!("replicas: {revision} {flow:?} HUNG"),
            }
            ended.push(match outcome {
                Ok(Ok(Ok(()))) => Ended::Completed(started.elapsed()),
                Ok(Ok(Err(said))) => Ended::Lost(format!("{flow:?}: {said}")),
                Ok(Err(error)) => {
                    // A session on a replica that is gone: a new one, on a replica that is not.
                    if let Some(old) = client.take() {
                        let _ = tokio::time::timeout(Duration::from_secs(5), old.cancel()).await;
                    }
                    Ended::ClearError(format!("{flow:?}: {error}"))
                }
                Err(_) => Ended::Hung,
            });
        }
        if let Some(client) = client {
            let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
        }
        ended
    }

    fn percentile(sorted: &[Duration], percent: usize) -> Duration {
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        sorted[(sorted.len() * percent).div_ceil(100).max(1) - 1]
    }

    pub async fn run(flows: usize) -> Report {
        let mut redis = redis_restart::own("replicas_load");
        let args = [
            "--redis",
            &redis.url(),
            "--prefix",
            "load",
            "--task-lease",
            "3",
            "127.0.0.1:0",
        ];
        let env = [("ELICIT_STATE_KEYS", STATE_KEYS)];
        let replicas: Vec<Arc<Mutex<Option<ServerProcess>>>> = (0..3)
            .map(|_| {
                let replica = ServerProcess::start_with_env("conformance_server", &args, &env);
                Arc::new(Mutex::new(Some(replica)))
            })
            .collect();
        let backends: Vec<String> = replicas
            .iter()
            .map(|replica| {
                let replica = replica.lock().expect("a replica");
                replica.as_ref().expect("started").address().to_owned()
            })
            .collect();
        let proxy = Proxy::start(&backends);
        let mcp = format!("{}/mcp", proxy.url);

        let started = Instant::now();
        let done = Arc::new(AtomicUsize::new(0));
        let mut revisions = Vec::new();
        for revision in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
            let next = Arc::new(AtomicUsize::new(0));
            let workers: Vec<_> = (0..CLIENTS)
                .map(|_| {
                    let next = next.clone();
                    let done = done.clone();
                    let worker = worker(
                        mcp.clone(),
                        proxy.url.clone(),
                        revision.clone(),
                        next,
                        flows,
                    );
                    tokio::spawn(async move {
                        let ended = worker.await;
                        done.fetch_add(ended.len(), Ordering::Relaxed);
                        ended
                    })
                })
                .collect();
            revisions.push((revision, workers, next));
        }

        // The faults, as the flows go: a replica killed, then Redis gone and back.
        let mut faults = Vec::new();
        let total = 2 * flows;
        let progress = |nexts: &[Arc<AtomicUsize>]| {
            nexts
                .iter()
                .map(|next| next.load(Ordering::Relaxed).min(flows))
                .sum::<usize>()
        };
        let nexts: Vec<Arc<AtomicUsize>> =
            revisions.iter().map(|(_, _, next)| next.clone()).collect();
        let say = |what: &str| eprintln!("replicas: {:.1?}: {what}", started.elapsed());
        while progress(&nexts) < total / 3 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        say(&format!("{} flows started", progress(&nexts)));
        drop(replicas[2].lock().expect("a replica").take());
        faults.push((started.elapsed(), "replica 3 killed"));
        while progress(&nexts) < 2 * total / 3 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        say(&format!("{} flows started", progress(&nexts)));
        redis.shut_down_saving();
        faults.push((started.elapsed(), "Redis stopped (its data saved)"));
        tokio::time::sleep(Duration::from_secs(2)).await;
        redis.start_again();
        faults.push((started.elapsed(), "Redis started again with its data"));

        let mut runs = Vec::new();
        for (revision, workers, _) in revisions {
            let mut times = Vec::new();
            let (mut errors, mut hung, mut lost) = (0, 0, 0);
            let (mut first_errors, mut lost_answers) = (Vec::new(), Vec::new());
            let mut count = 0;
            for worker in workers {
                for ended in worker.await.expect("a load client does not panic") {
                    count += 1;
                    match ended {
                        Ended::Completed(took) => times.push(took),
                        Ended::ClearError(error) => {
                            errors += 1;
                            if first_errors.len() < 5 {
                                first_errors.push(error);
                            }
                        }
                        Ended::Hung => hung += 1,
                        Ended::Lost(answer) => {
                            lost += 1;
                            if lost_answers.len() < 5 {
                                lost_answers.push(answer);
                            }
                        }
                    }
                }
            }
            times.sort();
            runs.push(RevisionRun {
                revision,
                flows: count,
                completed: times.len(),
                errors,
                hung,
                lost,
                p50: percentile(&times, 50),
                p99: percentile(&times, 99),
                first_errors,
                lost_answers,
            });
        }
        let _ = done;
        drop(proxy);
        Report {
            revisions: runs,
            faults,
            elapsed: started.elapsed(),
        }
    }

    impl fmt::Display for Report {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            writeln!(
                f,
                "replicas: 3 conformance_server --redis behind HAProxy, {CLIENTS} clients per \
                 revision, flows {FLOWS:?} in turn, {:.1?} in all",
                self.elapsed
            )?;
            for (at, fault) in &self.faults {
                writeln!(f, "  at {at:.1?}: {fault}")?;
            }
            for run in &self.revisions {
                writeln!(
                    f,
                    "  {}: {} flows: {} completed, {} clear errors, {} lost, {} hung; completed \
                     p50 {:.2?}, p99 {:.2?}",
                    run.revision,
                    run.flows,
                    run.completed,
                    run.errors,
                    run.lost,
                    run.hung,
                    run.p50,
                    run.p99
                )?;
                for error in &run.first_errors {
                    writeln!(f, "    error: {error}")?;
                }
                for answer in &run.lost_answers {
                    writeln!(f, "    LOST: {answer}")?;
                }
            }
            Ok(())
        }
    }
}
