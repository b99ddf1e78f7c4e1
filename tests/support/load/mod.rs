//! The bounded load run of issue 20: `conformance_server` as its own process on loopback, with
//! a short ask timeout, called by concurrent rmcp clients on both revisions, each running the
//! two-form flow `test_input_required_result_multi_round` again and again (on 2025-11-25 two
//! `elicitation/create` requests in sequence; on 2026-07-28 two input-required rounds and the
//! final retry); then clients on 2025-11-25 that vanish while the server's ask is pending,
//! whose asks end by the timeout. It reports completed against expected, p50 and p99 per flow,
//! and the server's memory and descriptors before and after.
//!
//! `tests/rmcp/examples.rs` runs [`Plan::SHORT`] in `cargo test`; `benches/load.rs` runs
//! either (`cargo bench --bench load -- --full`), and `benches/README.md` quotes the full run.

pub mod flows;
pub mod haproxy;
pub mod server;

use std::fmt;
use std::time::{Duration, Instant};

use elicit_mcp::wire::ElicitationCapability;
use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Map, Value, json};
use server::{Memory, ServerProcess};

/// The flow every client runs: two forms asked one after the other.
const FLOW: &str = "test_input_required_result_multi_round";
/// What the flow answers when both forms are filled by [`FillingClient`].
const FLOW_RESULT: &str = r#"step1 accepted: {"name":"load"}; step2 accepted: {"color":"load"}"#;

/// How much load, and how long to wait for it to settle.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Concurrent clients on each revision.
    pub clients: usize,
    /// Flows on each revision, shared among the clients.
    pub flows_per_revision: usize,
    /// 2025-11-25 clients that vanish while an ask is pending, in each wave.
    pub vanishing: usize,
    /// Waves of vanishing clients, one after the other: whether the memory a wave leaves is
    /// reused by the next (the allocator keeping freed pages) or adds up (something held).
    pub waves: usize,
    /// The server's `--ask-timeout`.
    pub ask_timeout: Duration,
    /// The server's `--session-idle`: how long the vanished clients' sessions outlive them.
    pub session_idle: Duration,
    /// How long, at most, to wait after the vanishing for the server's descriptors to return.
    pub settle_limit: Duration,
}

impl Plan {
    /// The form CI runs: a few seconds.
    pub const SHORT: Plan = Plan {
        clients: 8,
        flows_per_revision: 50,
        vanishing: 8,
        waves: 2,
        ask_timeout: Duration::from_secs(2),
        session_idle: Duration::from_secs(3),
        settle_limit: Duration::from_secs(30),
    };
    /// The form `benches/README.md` quotes.
    pub const FULL: Plan = Plan {
        clients: 32,
        flows_per_revision: 1600,
        vanishing: 200,
        waves: 5,
        ask_timeout: Duration::from_secs(2),
        session_idle: Duration::from_secs(3),
        settle_limit: Duration::from_secs(60),
    };
}

/// The flows of one revision.
#[derive(Debug)]
pub struct RevisionRun {
    pub revision: ProtocolVersion,
    pub expected: usize,
    pub completed: usize,
    pub p50: Duration,
    pub p99: Duration,
    pub elapsed: Duration,
}

/// The clients that vanished with an ask pending.
#[derive(Debug)]
pub struct Vanishing {
    pub clients: usize,
    /// How many had an `elicitation/create` pending when they vanished.
    pub pending: usize,
    pub fds_before: usize,
    pub fds_pending: usize,
    /// A quarter of a second after the vanishing: still held while the asks wait.
    pub fds_vanished: usize,
    pub fds_after: usize,
    pub memory_before: Memory,
    pub memory_pending: Memory,
    pub memory_after: Memory,
    /// From the vanishing until the sessions had ended and the descriptors were back (or the
    /// settle limit).
    pub settled_in: Duration,
    /// A flow run after the settling completed.
    pub served_after: bool,
    /// A silent client that stays: how long its call took to come back, and what it said.
    /// Its ask ends by the timeout as the vanished clients' do, but this one sees it.
    pub witness: Option<(Duration, String)>,
}

/// What one run measured.
#[derive(Debug)]
pub struct Report {
    pub plan: Plan,
    pub memory_start: Memory,
    pub memory_after_flows: Memory,
    pub revisions: Vec<RevisionRun>,
    /// The waves, in order ([`Plan::waves`]).
    pub vanishing: Vec<Vanishing>,
}

/// Runs `plan` against a fresh `conformance_server`.
pub async fn run(plan: &Plan) -> Report {
    let timeout = format!("{}", plan.ask_timeout.as_secs_f64());
    let idle = format!("{}", plan.session_idle.as_secs_f64());
    let server = ServerProcess::start(
        "conformance_server",
        &["--ask-timeout", &timeout, "--session-idle", &idle],
    );
    let memory_start = server.memory();
    let mut revisions = Vec::new();
    for revision in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        revisions.push(run_flows(server.url(), plan, revision).await);
    }
    let memory_after_flows = server.memory();
    let mut vanishing = Vec::with_capacity(plan.waves);
    for _ in 0..plan.waves {
        vanishing.push(vanish(&server, plan).await);
    }
    Report {
        plan: plan.clone(),
        memory_start,
        memory_after_flows,
        revisions,
        vanishing,
    }
}

/// `plan.clients` clients on `revision`, each running its share of the flows one after the
/// other, every flow timed.
async fn run_flows(url: &str, plan: &Plan, revision: ProtocolVersion) -> RevisionRun {
    let started = Instant::now();
    let mut clients = Vec::new();
    for index in 0..plan.clients {
        let share = plan.flows_per_revision / plan.clients
            + usize::from(index < plan.flows_per_revision % plan.clients);
        let url = url.to_owned();
        let revision = revision.clone();
        clients.push(tokio::spawn(async move {
            let client = connect(&url, &revision).await;
            let mut times = Vec::with_capacity(share);
            for _ in 0..share {
                let start = Instant::now();
                let result = client.call_tool(CallToolRequestParams::new(FLOW)).await;
                if result.is_ok_and(|result| text(&result) == FLOW_RESULT) {
                    times.push(start.elapsed());
                }
            }
            let _ = client.cancel().await;
            times
        }));
    }
    let mut times = Vec::new();
    for client in clients {
        times.extend(client.await.expect("a load client does not panic"));
    }
    let elapsed = started.elapsed();
    times.sort();
    RevisionRun {
        revision,
        expected: plan.flows_per_revision,
        completed: times.len(),
        p50: percentile(&times, 50),
        p99: percentile(&times, 99),
        elapsed,
    }
}

/// A client on `revision`: 2026-07-28 found by `server/discover`, 2025-11-25 over the
/// `initialize` handshake.
async fn connect(
    url: &str,
    revision: &ProtocolVersion,
) -> rmcp::service::RunningService<RoleClient, FillingClient> {
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = if *revision == ProtocolVersion::V_2026_07_28 {
        let discover = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        FillingClient
            .serve_with_lifecycle(transport, discover)
            .await
    } else {
        FillingClient.serve(transport).await
    }
    .expect("the load client connects");
    let negotiated = client.peer_info().map(|info| info.protocol_version.clone());
    assert_eq!(
        negotiated.as_ref(),
        Some(revision),
        "negotiated another revision"
    );
    client
}

/// `plan.vanishing` 2025-11-25 clients start the flow and vanish once the server's first ask
/// reaches them: their runtime is dropped, as a killed process would, with no DELETE. The
/// server's asks end by its timeout; this waits for its descriptors to come back.
async fn vanish(server: &ServerProcess, plan: &Plan) -> Vanishing {
    let fds_before = server.open_fds();
    let memory_before = server.memory();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime for the vanishing clients");
    let (asked, mut pending) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..plan.vanishing {
        let url = server.url().to_owned();
        let client = SilentClient {
            asked: asked.clone(),
        };
        runtime.spawn(async move {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            if let Ok(client) = client.serve(transport).await {
                let _ = client.call_tool(CallToolRequestParams::new(FLOW)).await;
            }
        });
    }
    let witness = tokio::spawn(silent_call(server.url().to_owned(), asked.clone()));
    drop(asked);
    let mut pending_count = 0;
    let all_asked = tokio::time::timeout(Duration::from_secs(60), async {
        // The witness is asked too.
        while pending_count < plan.vanishing + 1 && pending.recv().await.is_some() {
            pending_count += 1;
        }
    });
    let _ = all_asked.await;
    pending_count = pending_count.saturating_sub(1);
    let fds_pending = server.open_fds();
    let memory_pending = server.memory();
    let vanished = Instant::now();
    runtime.shutdown_background();
    tokio::time::sleep(Duration::from_millis(250)).await;
    let fds_vanished = server.open_fds();
    // The asks end at the timeout, and the sessions once they have been idle as long as the
    // server keeps them; the descriptors come back as the streams whose peer is gone close.
    let sessions_end = plan.ask_timeout + plan.session_idle + Duration::from_secs(1);
    tokio::time::sleep(sessions_end.saturating_sub(Duration::from_millis(250))).await;
    while server.open_fds() > fds_before && vanished.elapsed() < plan.settle_limit {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let settled_in = vanished.elapsed();
    let fds_after = server.open_fds();
    let memory_after = server.memory();
    let served_after = {
        let client = connect(server.url(), &ProtocolVersion::V_2025_11_25).await;
        let result = client.call_tool(CallToolRequestParams::new(FLOW)).await;
        let _ = client.cancel().await;
        result.is_ok_and(|result| text(&result) == FLOW_RESULT)
    };
    let witness = tokio::time::timeout(Duration::from_secs(5), witness)
        .await
        .ok()
        .and_then(Result::ok);
    Vanishing {
        clients: plan.vanishing,
        pending: pending_count,
        fds_before,
        fds_pending,
        fds_vanished,
        fds_after,
        memory_before,
        memory_pending,
        memory_after,
        settled_in,
        served_after,
        witness,
    }
}

/// One silent 2025-11-25 client that stays connected: the time its flow takes to come back,
/// and what came back.
async fn silent_call(
    url: String,
    asked: tokio::sync::mpsc::UnboundedSender<()>,
) -> (Duration, String) {
    let transport = StreamableHttpClientTransport::from_uri(url.as_str());
    let client = SilentClient { asked }
        .serve(transport)
        .await
        .expect("the witness connects");
    let start = Instant::now();
    let outcome = match client.call_tool(CallToolRequestParams::new(FLOW)).await {
        Ok(result) => format!("result: {}", text(&result)),
        Err(error) => format!("error: {error}"),
    };
    let elapsed = start.elapsed();
    let _ = client.cancel().await;
    (elapsed, outcome)
}

fn percentile(sorted: &[Duration], percent: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (sorted.len() * percent).div_ceil(100).max(1);
    sorted[rank - 1]
}

fn text(result: &sdk::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text())
        .map(|text| text.text.as_str())
        .collect()
}

fn client_config() -> ClientConfig {
    let capabilities = ClientCapabilities::try_from(&ElicitationCapability::form())
        .expect("form mode fits rmcp's capabilities");
    ClientConfig::new(capabilities, Implementation::new("elicit-load-client", "0"))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// Fills every field of every form with `"load"`.
#[derive(Clone)]
struct FillingClient;

impl ClientHandler for FillingClient {
    fn get_info(&self) -> ClientConfig {
        client_config()
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let request = serde_json::to_value(&request)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let content: Map<String, Value> = request["requestedSchema"]["properties"]
            .as_object()
            .into_iter()
            .flat_map(|properties| properties.keys())
            .map(|name| (name.clone(), json!("load")))
            .collect();
        serde_json::from_value(json!({"action": "accept", "content": content}))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}

/// Tells that an ask arrived, and never answers it.
#[derive(Clone)]
struct SilentClient {
    asked: tokio::sync::mpsc::UnboundedSender<()>,
}

impl ClientHandler for SilentClient {
    fn get_info(&self) -> ClientConfig {
        client_config()
    }

    async fn create_elicitation(
        &self,
        _request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let _ = self.asked.send(());
        std::future::pending().await
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plan = &self.plan;
        writeln!(
            f,
            "load: {} clients per revision, {} flows per revision ({FLOW}), ask timeout {:?}, \
             idle sessions kept {:?}",
            plan.clients, plan.flows_per_revision, plan.ask_timeout, plan.session_idle
        )?;
        for run in &self.revisions {
            writeln!(
                f,
                "  {}: {}/{} completed in {:.2?}; per flow p50 {:.2?}, p99 {:.2?}",
                run.revision, run.completed, run.expected, run.elapsed, run.p50, run.p99
            )?;
        }
        write!(
            f,
            "  server RSS: {} KiB at start, {} KiB after the flows (peak {} KiB)",
            self.memory_start.rss_kib,
            self.memory_after_flows.rss_kib,
            self.memory_after_flows.peak_kib
        )?;
        for (wave, gone) in self.vanishing.iter().enumerate() {
            writeln!(
                f,
                "\n  vanishing wave {} on 2025-11-25: {} clients, {} with an ask pending; server fds {} before, \
                 {} pending, {} just after they vanished, {} after {:.1?}",
                wave + 1,
                gone.clients,
                gone.pending,
                gone.fds_before,
                gone.fds_pending,
                gone.fds_vanished,
                gone.fds_after,
                gone.settled_in
            )?;
            write!(
                f,
                "  server RSS: {} KiB before, {} KiB pending, {} KiB after; a flow after them {}",
                gone.memory_before.rss_kib,
                gone.memory_pending.rss_kib,
                gone.memory_after.rss_kib,
                if gone.served_after {
                    "completed"
                } else {
                    "FAILED"
                }
            )?;
            match &gone.witness {
                Some((elapsed, outcome)) => write!(
                    f,
                    "\n  a silent client that stayed: its call came back after {elapsed:.2?}: {outcome}"
                ),
                None => write!(
                    f,
                    "\n  a silent client that stayed: its call did not come back"
                ),
            }?;
        }
        Ok(())
    }
}
