//! Two replicas of `examples/url_mode_server` (separate processes, `--redis`) on one Redis, as
//! behind a load balancer: an MCP session on one, the user's browser on the other.
//!
//! Uses the Redis of `REDIS_URL`, else a throwaway `redis-server` of each test's own (see
//! `support::redis_server`, which says why these tests are `#[ignore]`d), and the example
//! binary, built by `support::examples_built` on first use.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use elicit_mcp::wire::{
    ElicitationCapability, ElicitationCompleteNotification, UrlElicitationRequiredError,
};
use elicit_test_support::browser::browse;
use elicit_test_support::examples_built;
use elicit_test_support::redis_server::{self, Redis};
use elicit_test_support::rmcp::{client_info, forward_completion};
use rmcp::model as sdk;
use rmcp::service::{NotificationContext, RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ServiceExt};
use tokio::sync::mpsc;

const STARTUP_LIMIT: Duration = Duration::from_secs(30);
const NOTIFICATION_LIMIT: Duration = Duration::from_secs(10);

/// One server process, killed when dropped.
struct Replica {
    child: Child,
    base: String,
}

impl Replica {
    fn start(redis: &str, prefix: &str) -> Replica {
        let binary = example_binary();
        let mut child = Command::new(&binary)
            .args(["--redis", redis, "--prefix", prefix, "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()));
        let stdout = child.stdout.take().unwrap();
        let (found, listening) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("listening on ") {
                    let url = rest.split_whitespace().next().unwrap_or_default();
                    let _ = found.send(url.trim_end_matches("/mcp").to_owned());
                }
            }
        });
        let base = listening
            .recv_timeout(STARTUP_LIMIT)
            .expect("the replica prints where it listens");
        Replica { child, base }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.kill();
    }
}

fn example_binary() -> PathBuf {
    examples_built::examples_dir().join(format!("url_mode_server{}", std::env::consts::EXE_SUFFIX))
}

/// The two replicas, started on a Redis key prefix of this test's own, and their Redis (kept
/// until the test ends).
fn two_replicas(test: &str) -> (Redis, Replica, Replica) {
    let redis = Redis::for_test(test);
    let prefix = redis_server::fresh_prefix(test);
    let a = Replica::start(&redis.url(), &prefix);
    let b = Replica::start(&redis.url(), &prefix);
    (redis, a, b)
}

/// Signs a browser in on `replica` as `user`; returns its cookie.
fn sign_in(replica: &Replica, user: &str) -> String {
    let page = browse("GET", &format!("{}/login?user={user}", replica.base), None);
    assert_eq!(page.status, 200, "{}", page.body);
    page.set_cookie.expect("a session cookie")
}

/// The link the MCP client showed, opened on another replica (the load balancer's choice).
fn on_replica(link: &str, replica: &Replica) -> String {
    let path = &link[link.find("/connect").expect("a connect link")..];
    format!("{}{path}", replica.base)
}

// ---------------------------------------------------------------------------------------------
// The MCP client: declares URL mode, reports completion notifications.

#[derive(Clone)]
struct UrlClient {
    completions: mpsc::UnboundedSender<ElicitationCompleteNotification>,
}

impl ClientHandler for UrlClient {
    fn get_info(&self) -> sdk::ClientConfig {
        client_info(
            "elicit-replicas-test",
            sdk::ProtocolVersion::V_2025_11_25,
            Some(&ElicitationCapability::url()),
            false,
        )
    }

    async fn on_custom_notification(
        &self,
        notification: sdk::CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        forward_completion(&notification, &self.completions);
    }
}

struct Session {
    client: RunningService<RoleClient, UrlClient>,
    completions: mpsc::UnboundedReceiver<ElicitationCompleteNotification>,
}

async fn session(replica: &Replica) -> Session {
    let (sender, completions) = mpsc::unbounded_channel();
    let transport = StreamableHttpClientTransport::from_uri(format!("{}/mcp", replica.base));
    let client = UrlClient {
        completions: sender,
    }
    .serve(transport)
    .await
    .expect("an MCP session");
    Session {
        client,
        completions,
    }
}

impl Session {
    /// `list_files`: its -32042's only URL elicitation (id, link), or the files.
    async fn list_files(&self) -> Result<String, (String, String)> {
        match self
            .client
            .call_tool(sdk::CallToolRequestParams::new("list_files"))
            .await
        {
            Ok(result) => Ok(result
                .content
                .iter()
                .filter_map(|block| block.as_text())
                .map(|text| text.text.clone())
                .collect()),
            Err(ServiceError::McpError(error)) => {
                let required = UrlElicitationRequiredError::try_from(&error).unwrap();
                let elicitation = &required.elicitations()[0];
                Err((
                    elicitation.elicitation_id().as_str().to_owned(),
                    elicitation.url().to_owned(),
                ))
            }
            Err(other) => panic!("list_files: {other}"),
        }
    }

    async fn notified(&mut self) -> Option<String> {
        tokio::time::timeout(NOTIFICATION_LIMIT, self.completions.recv())
            .await
            .ok()
            .flatten()
            .map(|n| n.elicitation_id().as_str().to_owned())
    }
}

// ---------------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn started_on_a_completed_through_b_notifies_the_session_on_a() {
    let (_redis, a, b) = two_replicas("started_on_a_completed_through_b");
    let mut on_a = session(&a).await;
    let (id, link) = on_a.list_files().await.unwrap_err();
    assert!(link.starts_with(&a.base), "{link}");

    let browser = sign_in(&b, "demo-user");
    let connect = on_replica(&link, &b);
    let page = browse("GET", &connect, Some(&browser));
    assert_eq!(page.status, 200, "{}", page.body);
    let done = browse("POST", &connect, Some(&browser));
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(
        done.body.contains("Your MCP client has been told"),
        "{}",
        done.body
    );

    assert_eq!(on_a.notified().await.as_deref(), Some(id.as_str()));
    // The retry on A sees what B stored.
    assert!(on_a.list_files().await.unwrap().contains("3 files"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn another_user_completing_through_b_gets_403() {
    let (_redis, a, b) = two_replicas("another_user_through_b");
    let mut on_a = session(&a).await;
    let (id, link) = on_a.list_files().await.unwrap_err();
    let connect = on_replica(&link, &b);

    let mallory = sign_in(&b, "mallory");
    assert_eq!(browse("GET", &connect, Some(&mallory)).status, 403);
    assert_eq!(browse("POST", &connect, Some(&mallory)).status, 403);
    // Still pending for its own user, who completes it.
    let owner = sign_in(&b, "demo-user");
    assert_eq!(browse("POST", &connect, Some(&owner)).status, 200);
    assert_eq!(on_a.notified().await.as_deref(), Some(id.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn a_and_b_racing_to_complete_one_id_have_one_winner() {
    let (_redis, a, b) = two_replicas("a_and_b_racing");
    let browser = sign_in(&a, "demo-user");
    let mut on_a = session(&a).await;
    // Ten pending elicitations first: once one completes, the user has a token and
    // list_files asks for nothing more.
    let mut pending = Vec::new();
    for _ in 0..10 {
        pending.push(on_a.list_files().await.unwrap_err());
    }
    for (round, (id, link)) in pending.into_iter().enumerate() {
        let start = Arc::new(Barrier::new(2));
        let racers: Vec<_> = [on_replica(&link, &a), on_replica(&link, &b)]
            .into_iter()
            .map(|connect| {
                let (start, browser) = (start.clone(), browser.clone());
                std::thread::spawn(move || {
                    start.wait();
                    browse("POST", &connect, Some(&browser)).status
                })
            })
            .collect();
        let mut statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        statuses.sort();
        assert_eq!(statuses, [200, 404], "round {round}");
        assert_eq!(on_a.notified().await.as_deref(), Some(id.as_str()));
    }
    // Nothing more comes: each id completed once.
    assert!(
        tokio::time::timeout(Duration::from_millis(300), on_a.completions.recv())
            .await
            .is_err()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn with_b_killed_mid_flow_a_still_completes() {
    let (_redis, a, mut b) = two_replicas("b_killed_mid_flow");
    let mut on_a = session(&a).await;
    let on_b = session(&b).await;
    let (from_a, link_a) = on_a.list_files().await.unwrap_err();
    let (_, link_b) = on_b.list_files().await.unwrap_err();

    // The browser lands on B, which checks the link; then B dies.
    let browser = sign_in(&b, "demo-user");
    assert_eq!(
        browse("GET", &on_replica(&link_a, &b), Some(&browser)).status,
        200
    );
    b.kill();

    // A completes the elicitation A started, and notifies its own session.
    let done = browse("POST", &on_replica(&link_a, &a), Some(&browser));
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(on_a.notified().await.as_deref(), Some(from_a.as_str()));

    // B's elicitation completes on A too; B's session is gone with B, so the notification is
    // lost and the page says to retry by hand.
    let done = browse("POST", &on_replica(&link_b, &a), Some(&browser));
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("try again"), "{}", done.body);
}
