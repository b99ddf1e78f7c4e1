//! A Redis Cluster of the test's own: six `redis-server --cluster-enabled yes` nodes on free
//! loopback ports, each with a fresh data dir under one temp dir and no persistence, joined by
//! `redis-cli --cluster create ... --cluster-replicas 1` into 3 masters and 3 replicas;
//! stopped and removed when dropped.
//!
//! `cluster-node-timeout` is 1000 ms, so that a replica takes over a killed master within a
//! few seconds, and `cluster-require-full-coverage` is `no`, so that the other masters' slots
//! stay served meanwhile (what an operator who wants availability sets). Every wait is bounded.
//!
//! Needs Debian's `redis-server` and `redis-cli` (`apt-get install redis-server`), so the tests
//! using it are `#[ignore = "needs ..."]`, as every Redis test is (see `redis_server.rs`); a
//! cluster cannot come from `REDIS_URL`, so they always start their own. Asked to run without
//! them, they fail saying what to install; they never pass unrun.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long the six nodes may take to start, and the cluster to form.
const STARTUP_LIMIT: Duration = Duration::from_secs(30);
/// How long a replica may take to be promoted after its master was killed.
const FAILOVER_LIMIT: Duration = Duration::from_secs(30);
/// How long one `redis-cli` call may take.
const CLI_LIMIT: Duration = Duration::from_secs(20);
const NODES: usize = 6;

/// Six nodes of a cluster on 127.0.0.1.
pub struct Cluster {
    dir: PathBuf,
    nodes: Vec<Node>,
}

struct Node {
    port: u16,
    child: Option<Child>,
}

impl Cluster {
    /// Starts six nodes and makes a cluster of them, 3 masters and 3 replicas, all in sync.
    pub fn start(test: &str) -> Cluster {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "elicit-redis-cluster-{}-{}-{test}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temp dir for the cluster's nodes");
        let mut cluster = Cluster {
            dir,
            nodes: Vec::new(),
        };
        let began = Instant::now();
        let mut failures = Vec::new();
        while cluster.nodes.len() < NODES {
            assert!(
                began.elapsed() < STARTUP_LIMIT && failures.len() < 20,
                "{test}: the cluster's nodes did not start: {failures:?}"
            );
            let port = free_port_pair();
            match cluster.spawn(port) {
                Ok(child) => cluster.nodes.push(Node {
                    port,
                    child: Some(child),
                }),
                Err(failure) => failures.push(failure),
            }
        }
        let mut create = Command::new("redis-cli");
        create.arg("--cluster").arg("create");
        for node in &cluster.nodes {
            create.arg(format!("127.0.0.1:{}", node.port));
        }
        create.args(["--cluster-replicas", "1", "--cluster-yes"]);
        let created = run(create, CLI_LIMIT);
        assert!(
            created.as_ref().is_ok_and(|out| out.contains("[OK]")),
            "{test}: redis-cli --cluster create failed: {created:?}"
        );
        cluster.wait_until(STARTUP_LIMIT, "the cluster is ok on every node", |c| {
            c.live_ports().iter().all(|&port| {
                let info = cli(port, &["cluster", "info"]).unwrap_or_default();
                info.contains("cluster_state:ok")
                    && info.contains("cluster_slots_ok:16384")
                    && info.contains(&format!("cluster_known_nodes:{NODES}"))
            })
        });
        cluster.wait_until(STARTUP_LIMIT, "three replicas in sync", |c| {
            c.replicas_in_sync() == NODES / 2
        });
        cluster
    }

    /// The URLs of the live nodes, for `RedisStore::connect_cluster`.
    pub fn urls(&self) -> Vec<String> {
        self.live_ports()
            .into_iter()
            .map(|port| format!("redis://127.0.0.1:{port}/"))
            .collect()
    }

    /// Every key matching `pattern` on the live masters.
    pub fn keys(&self, pattern: &str) -> Vec<String> {
        self.masters()
            .into_iter()
            .flat_map(|port| {
                cli(port, &["--raw", "keys", pattern])
                    .unwrap_or_default()
                    .lines()
                    .filter(|key| !key.is_empty())
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The cluster's slot of `key`.
    pub fn slot_of(&self, key: &str) -> u16 {
        let port = self.live_ports()[0];
        cli(port, &["cluster", "keyslot", key])
            .expect("CLUSTER KEYSLOT answers")
            .trim()
            .parse()
            .expect("a slot number")
    }

    /// The ports of the live masters.
    pub fn masters(&self) -> Vec<u16> {
        self.live_ports()
            .into_iter()
            .filter(|&port| {
                cli(port, &["role"]).is_ok_and(|role| role.lines().next() == Some("master"))
            })
            .collect()
    }

    /// Waits until every master's replica has all it wrote (its offset), so that a master
    /// killed next loses nothing acknowledged before.
    pub fn wait_replicated(&self) {
        self.wait_until(
            STARTUP_LIMIT,
            "every replica has its master's writes",
            |c| {
                c.masters().into_iter().all(|port| {
                    let info = cli(port, &["info", "replication"]).unwrap_or_default();
                    let offset = field(&info, "master_repl_offset");
                    let replica_offset = info
                        .lines()
                        .find(|line| line.starts_with("slave0:"))
                        .and_then(|line| {
                            line.split(',')
                                .find_map(|part| part.strip_prefix("offset="))
                                .map(str::to_owned)
                        });
                    offset.is_some() && offset == replica_offset
                })
            },
        );
    }

    /// The port of the live master serving `slot`.
    pub fn master_of_slot(&self, slot: u16) -> Option<u16> {
        self.masters().into_iter().find(|&port| {
            let nodes = cli(port, &["cluster", "nodes"]).unwrap_or_default();
            nodes
                .lines()
                .find(|line| line.contains("myself"))
                .is_some_and(|line| {
                    line.split_whitespace().skip(8).any(|range| {
                        let mut ends = range.splitn(2, '-').map(str::parse::<u16>);
                        match (ends.next(), ends.next()) {
                            (Some(Ok(first)), Some(Ok(last))) => (first..=last).contains(&slot),
                            (Some(Ok(only)), None) => only == slot,
                            _ => false,
                        }
                    })
                })
        })
    }

    /// Kills the node on `port` (SIGKILL: no goodbye to the others).
    pub fn kill(&mut self, port: u16) {
        let node = self
            .nodes
            .iter_mut()
            .find(|node| node.port == port)
            .expect("a node of this cluster");
        if let Some(mut child) = node.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Waits until a replica has taken over the killed master on `port` and the cluster is
    /// ok again, at most `FAILOVER_LIMIT`.
    pub fn wait_for_failover(&self, port: u16) {
        self.wait_until(
            FAILOVER_LIMIT,
            "a replica took over the killed master",
            |c| {
                // Three masters among the live nodes (a replica promoted), and every live node
                // sees the cluster ok and the killed one failed (`fail`, not only `fail?`).
                c.masters().len() == NODES / 2
                    && c.live_ports().into_iter().all(|other| {
                        let info = cli(other, &["cluster", "info"]).unwrap_or_default();
                        let nodes = cli(other, &["cluster", "nodes"]).unwrap_or_default();
                        info.contains("cluster_state:ok")
                            && nodes
                                .lines()
                                .filter(|line| line.contains(&format!(":{port}@")))
                                .all(|line| {
                                    line.split_whitespace()
                                        .nth(2)
                                        .is_some_and(|flags| flags.split(',').any(|f| f == "fail"))
                                })
                    })
            },
        );
    }

    fn live_ports(&self) -> Vec<u16> {
        self.nodes
            .iter()
            .filter(|node| node.child.is_some())
            .map(|node| node.port)
            .collect()
    }

    fn replicas_in_sync(&self) -> usize {
        self.live_ports()
            .into_iter()
            .filter(|&port| {
                let info = cli(port, &["info", "replication"]).unwrap_or_default();
                info.contains("role:slave") && info.contains("master_link_status:up")
            })
            .count()
    }

    fn wait_until(&self, limit: Duration, what: &str, done: impl Fn(&Cluster) -> bool) {
        let began = Instant::now();
        while !done(self) {
            assert!(
                began.elapsed() < limit,
                "waited {limit:?} for this and it did not happen: {what}; the nodes' logs are \
                 in {}",
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn spawn(&self, port: u16) -> Result<Child, String> {
        let dir = self.dir.join(port.to_string());
        std::fs::create_dir_all(&dir).map_err(|e| format!("a data dir for node {port}: {e}"))?;
        let mut child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--cluster-enabled", "yes", "--cluster-config-file"])
            .arg(dir.join("nodes.conf"))
            .args(["--cluster-node-timeout", "1000"])
            .args(["--cluster-require-full-coverage", "no"])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(&dir)
            .arg("--logfile")
            .arg(dir.join("redis.log"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| {
                format!(
                    "this test needs Redis: redis-server could not be started ({error}); \
                     install it (`apt-get install redis-server`)"
                )
            })?;
        let began = Instant::now();
        while began.elapsed() < STARTUP_LIMIT {
            if cli(port, &["ping"]).is_ok_and(|pong| pong.trim() == "PONG") {
                return Ok(child);
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!(
                    "redis-server exited ({status}) on port {port}: {}",
                    log_of(&dir)
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(format!("redis-server did not answer on port {port}"))
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(mut child) = node.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn log_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("redis.log")).unwrap_or_default()
}

fn field(info: &str, name: &str) -> Option<String> {
    info.lines()
        .find_map(|line| line.strip_prefix(&format!("{name}:")))
        .map(|value| value.trim().to_owned())
}

/// `redis-cli -p PORT ARGS...`'s output, within `CLI_LIMIT`.
fn cli(port: u16, args: &[&str]) -> Result<String, String> {
    let mut command = Command::new("redis-cli");
    command
        .args(["-h", "127.0.0.1", "-p", &port.to_string()])
        .args(args);
    run(command, CLI_LIMIT)
}

/// Runs `command` to its end within `limit`: its output, or why not.
fn run(mut command: Command, limit: Duration) -> Result<String, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| {
            format!(
                "this test needs redis-cli ({error}); install it (`apt-get install redis-server`)"
            )
        })?;
    let began = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if began.elapsed() < limit => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{command:?} did not finish within {limit:?}"));
            }
        }
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.success() {
        Ok(text)
    } else {
        Err(format!(
            "{command:?} failed ({}): {text}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// A loopback port free now whose cluster bus port (10,000 above) is free too.
fn free_port_pair() -> u16 {
    loop {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
        let port = listener.local_addr().expect("its address").port();
        if port > 55_535 {
            continue;
        }
        if std::net::TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
}
