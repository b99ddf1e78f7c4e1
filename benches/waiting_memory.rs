//! The memory one waiting ask holds on the server, with 10,000 users waiting at once: elicit on
//! 2025-11-25 and on 2026-07-28, against rmcp's own `elicit::<T>()`.
//!
//! Each measurement is a server process of its own: the bench starts itself again with
//! `--serve SIDE`, and that process serves one MCP connection on its stdin and stdout (the same
//! pipes for every side); the bench itself is the client. So nothing the client holds (its
//! pending requests, the 2026-07-28 states it keeps) is in the server's figures, and no side
//! starts from what another left in the allocator. The server's process counts its own heap
//! with a counting global allocator (bytes asked of the allocator and still live, blocks still
//! live; what glibc adds per block is not in it) and reads its `VmRSS` from
//! `/proc/self/status`, both inside a tool `measure` that the client calls: the same call at
//! every point, so what the call itself allocates cancels out.
//!
//! The sides, each on the same server value (one `#[tool_router]` with a tool per way of
//! asking), the same 8-field form (`Signup`, as in `rmcp_elicit`), the same client, the same
//! transport and the same N:
//!
//! - `ask`: elicit's `Ask` in a `#[tool]`, served through an `Elicitation` (the crate's way),
//!   on 2025-11-25: each call's `elicitation/create` is pending at the client, which does not
//!   answer yet.
//! - `peer`: elicit's `peer.ask().form::<T>()` in a `#[tool]` on rmcp's plain server (no
//!   `Elicitation` around it), on 2025-11-25, pending as above: the ask alone.
//! - `rmcp`: rmcp's own `peer.elicit::<T>()` in a `#[tool]` on rmcp's plain server, on
//!   2025-11-25, pending as above.
//! - `rounds`: the same `Ask` tool served through an `Elicitation` on 2026-07-28: each call's
//!   first round was answered with an `InputRequiredResult` and nothing else, so the user is
//!   "waiting" between rounds; the sealed `requestState` is at the client (in the bench's
//!   process, so not counted: the server's share is what is measured).
//!
//! In each server process: one whole ask first (warm-up: lazy statics, the router, the
//! session), then `measure` (the baseline), then N users each start one call that asks, the
//! client checks that every ask is pending (2025-11-25: N `elicitation/create` requests
//! received and held unanswered; 2026-07-28: N `InputRequiredResult`s with a sealed state
//! received), and the server's own count of calls inside their ask must say N (2025-11-25) or
//! 0 (2026-07-28), or the bench fails; then `measure` again. The growth divided by N is the
//! figure: "cold", the first N a server has waiting at once. The asks are then answered and
//! every call must complete with the answer (on 2026-07-28, a retry carrying the answer and
//! the state), and a second batch of N is measured the same way over a baseline taken after
//! the first ("warm": what is held beyond the structures the first batch sized, such as
//! hash maps keeping their capacity). RSS growth is given for the cold batch only: glibc
//! keeps the first batch's freed pages, so a warm batch's RSS barely moves on any side.
//!
//! Several runs, the order of the sides rotating from run to run, each measurement a fresh
//! process; each figure is the median over the runs with the lowest and highest run, and each
//! ratio the median of the runs' own ratios.
//!
//! Run with `cargo bench --bench waiting_memory` (`-- --quick` for 3 runs of 1,000 users).

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use elicit_mcp::ElicitOutcome;
use elicit_mcp::rmcp::{Ask, ElicitPeer, Elicitation, RequestStateSeal};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model as sdk;
use rmcp::service::{Peer, RequestContext, RoleClient, RoleServer, RunningService};
use rmcp::{ClientHandler, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::{Value, json};
use tokio::sync::watch;

// ---------------------------------------------------------------------------------------------
// The counting allocator: the system's, with the bytes and blocks still live counted.

struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static LIVE_BLOCKS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to `System` with the caller's layout and pointer unchanged; the
// counters only add and subtract the sizes the caller gives.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
            LIVE_BLOCKS.fetch_add(1, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
            LIVE_BLOCKS.fetch_add(1, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        LIVE_BLOCKS.fetch_sub(1, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
            LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;
#[path = "forms/signup.rs"]
mod signup;

use signup::{Signup, SignupSchemars, answer};

// ---------------------------------------------------------------------------------------------
// The server: one tool per way of asking, and `measure`

/// How many calls are inside their ask on the server right now (entered, not yet returned).
static IN_ASK: AtomicUsize = AtomicUsize::new(0);

/// Counts a call inside its ask for as long as it lives (a 2026-07-28 round that returns
/// `InputRequired` drops it).
struct InAsk;

impl InAsk {
    fn enter() -> Self {
        IN_ASK.fetch_add(1, Ordering::SeqCst);
        InAsk
    }
}

impl Drop for InAsk {
    fn drop(&mut self) {
        IN_ASK.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accepted(name: &str) -> sdk::CallToolResult {
    sdk::CallToolResult::success(vec![sdk::ContentBlock::text(format!("accepted {name}"))])
}

fn refused(what: impl std::fmt::Debug) -> sdk::ErrorData {
    sdk::ErrorData::internal_error(format!("{what:?}"), None)
}

#[derive(Clone)]
struct Asking {
    tool_router: ToolRouter<Asking>,
}

#[tool_router]
impl Asking {
    fn new() -> Self {
        Asking {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Asks the form through elicit's Ask")]
    async fn ask_form(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let _in = InAsk::enter();
        match ask.form::<Signup>().await? {
            ElicitOutcome::Accepted(signup) => Ok(accepted(&signup.name)),
            other => Err(refused(other)),
        }
    }

    #[tool(description = "Asks the form through elicit's ElicitPeer")]
    async fn ask_peer(
        &self,
        peer: Peer<RoleServer>,
    ) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let _in = InAsk::enter();
        match peer.ask().form::<Signup>().await {
            Ok(ElicitOutcome::Accepted(signup)) => Ok(accepted(&signup.name)),
            other => Err(refused(other)),
        }
    }

    #[tool(description = "Asks the form through rmcp's elicit")]
    async fn ask_rmcp(
        &self,
        peer: Peer<RoleServer>,
    ) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let _in = InAsk::enter();
        match peer.elicit::<SignupSchemars>("Sign up").await {
            Ok(Some(signup)) => Ok(accepted(&signup.name)),
            other => Err(refused(other)),
        }
    }

    #[tool(description = "The server's live heap, its RSS and the calls inside their ask")]
    async fn measure(&self) -> sdk::CallToolResult {
        let figures = Figures {
            live_bytes: LIVE_BYTES.load(Ordering::SeqCst),
            live_blocks: LIVE_BLOCKS.load(Ordering::SeqCst),
            rss_kib: rss_kib(),
            in_ask: IN_ASK.load(Ordering::SeqCst),
        };
        sdk::CallToolResult::success(vec![sdk::ContentBlock::text(figures.to_text())])
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Asking {}

/// This process's `VmRSS`, in KiB.
fn rss_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .expect("VmRSS in /proc/self/status")
}

/// What `measure` answers.
#[derive(Clone, Copy, Debug)]
struct Figures {
    live_bytes: usize,
    live_blocks: usize,
    rss_kib: usize,
    in_ask: usize,
}

impl Figures {
    fn to_text(self) -> String {
        json!({"live_bytes": self.live_bytes, "live_blocks": self.live_blocks,
            "rss_kib": self.rss_kib, "in_ask": self.in_ask})
        .to_string()
    }

    fn from_text(text: &str) -> Self {
        let value: Value = serde_json::from_str(text).expect("measure answers JSON");
        let field = |name: &str| {
            value[name]
                .as_u64()
                .unwrap_or_else(|| panic!("no {name} in {text}")) as usize
        };
        Figures {
            live_bytes: field("live_bytes"),
            live_blocks: field("live_blocks"),
            rss_kib: field("rss_kib"),
            in_ask: field("in_ask"),
        }
    }
}

const KEY: &[u8] = b"a-bench-key-of-at-least-32-bytes!!";

// ---------------------------------------------------------------------------------------------
// The sides

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Ask,
    Peer,
    Rmcp,
    Rounds,
}

impl Side {
    const ALL: [Side; 4] = [Side::Ask, Side::Peer, Side::Rmcp, Side::Rounds];

    fn name(self) -> &'static str {
        match self {
            Side::Ask => "ask",
            Side::Peer => "peer",
            Side::Rmcp => "rmcp",
            Side::Rounds => "rounds",
        }
    }

    fn from_name(name: &str) -> Self {
        Side::ALL
            .into_iter()
            .find(|side| side.name() == name)
            .unwrap_or_else(|| panic!("no side {name}"))
    }

    fn label(self) -> &'static str {
        match self {
            Side::Ask => "elicit Ask, 2025-11-25 (elicitation/create pending)",
            Side::Peer => "elicit peer.ask(), 2025-11-25 (pending)",
            Side::Rmcp => "rmcp elicit::<T>(), 2025-11-25 (pending)",
            Side::Rounds => "elicit Ask, 2026-07-28 between rounds",
        }
    }

    fn tool(self) -> &'static str {
        match self {
            Side::Ask | Side::Rounds => "ask_form",
            Side::Peer => "ask_peer",
            Side::Rmcp => "ask_rmcp",
        }
    }

    fn version(self) -> sdk::ProtocolVersion {
        match self {
            Side::Rounds => sdk::ProtocolVersion::V_2026_07_28,
            _ => sdk::ProtocolVersion::V_2025_11_25,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The server's process

/// Serves one connection on stdin and stdout as `side` does, until the client goes.
fn serve(side: Side) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let io = rmcp::transport::stdio();
        let seal = RequestStateSeal::from_keyring("bench", [("bench", KEY)]).expect("a good key");
        let elicitation = Elicitation::new(seal);
        let waiting = match side {
            Side::Ask => elicitation
                .serve(Asking::new(), io)
                .await
                .expect("the session starts")
                .waiting()
                .await
                .map(drop),
            Side::Peer | Side::Rmcp => Asking::new()
                .serve(io)
                .await
                .expect("the session starts")
                .waiting()
                .await
                .map(drop),
            Side::Rounds => elicitation
                .serve_directly(Asking::new(), io, Some(Holding::info(side.version())))
                .expect("nothing to set up")
                .waiting()
                .await
                .map(drop),
        };
        waiting.expect("the server ends cleanly");
    });
}

// ---------------------------------------------------------------------------------------------
// The client: the bench's own process

/// A client that counts the forms it is asked and answers them once its gate opens.
#[derive(Clone)]
struct Holding {
    version: sdk::ProtocolVersion,
    asked: Arc<AtomicUsize>,
    gate: watch::Receiver<bool>,
}

impl Holding {
    fn info(version: sdk::ProtocolVersion) -> sdk::ClientConfig {
        sdk::InitializeRequestParams::new(
            sdk::ClientCapabilities::builder()
                .enable_elicitation()
                .build(),
            sdk::Implementation::new("bench-client", "0.0.0"),
        )
        .with_protocol_version(version)
    }
}

impl ClientHandler for Holding {
    fn get_info(&self) -> sdk::ClientConfig {
        Holding::info(self.version.clone())
    }

    async fn create_elicitation(
        &self,
        _request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let mut gate = self.gate.clone();
        gate.wait_for(|open| *open)
            .await
            .map_err(|_| sdk::ErrorData::internal_error("the bench went away", None))?;
        Ok(sdk::ElicitResult::new(sdk::ElicitationAction::Accept).with_content(answer()))
    }
}

/// The figures of one server process.
#[derive(Clone, Copy, Debug)]
struct Measured {
    /// Heap bytes per waiting user, the first batch over the baseline after one ask.
    cold_bytes: f64,
    /// Live blocks per waiting user, the first batch.
    cold_blocks: f64,
    /// RSS bytes per waiting user, the first batch.
    cold_rss: f64,
    /// Heap bytes per waiting user, the second batch over the baseline after the first.
    warm_bytes: f64,
    /// Heap bytes per user still live after the first batch completed.
    after_bytes: f64,
}

struct Connection {
    client: RunningService<RoleClient, Holding>,
    gate: watch::Sender<bool>,
    asked: Arc<AtomicUsize>,
    side: Side,
}

impl Connection {
    async fn measure(&self) -> Figures {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let result = self
            .client
            .call_tool(sdk::CallToolRequestParams::new("measure"))
            .await
            .expect("measure answers");
        let text = result.content[0]
            .as_text()
            .map(|text| text.text.as_str())
            .expect("measure answers text");
        Figures::from_text(text)
    }

    fn call(&self) -> sdk::CallToolRequestParams {
        sdk::CallToolRequestParams::new(self.side.tool())
    }

    /// `users` calls each waiting on its ask; the figures while they wait; then every call
    /// completed with the answer.
    async fn batch(&self, users: usize) -> Figures {
        match self.side {
            Side::Rounds => self.batch_between_rounds(users).await,
            _ => self.batch_pending(users).await,
        }
    }

    async fn batch_pending(&self, users: usize) -> Figures {
        self.gate.send_replace(false);
        self.asked.store(0, Ordering::SeqCst);
        let mut calls = tokio::task::JoinSet::new();
        for _ in 0..users {
            let peer = self.client.peer().clone();
            let request = self.call();
            calls.spawn(async move { peer.call_tool(request).await });
        }
        let deadline = Instant::now() + Duration::from_secs(300);
        while self.asked.load(Ordering::SeqCst) < users {
            assert!(
                Instant::now() < deadline,
                "{}: only {} of {users} asks reached the client",
                self.side.name(),
                self.asked.load(Ordering::SeqCst)
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let waiting = self.measure().await;
        assert_eq!(
            self.asked.load(Ordering::SeqCst),
            users,
            "{}: more asks than calls reached the client",
            self.side.name()
        );
        assert_eq!(
            waiting.in_ask,
            users,
            "{}: the server does not have every call inside its ask",
            self.side.name()
        );
        self.gate.send_replace(true);
        while let Some(done) = calls.join_next().await {
            let done = done
                .expect("the call's task")
                .expect("the call is answered");
            assert_eq!(
                done.content[0].as_text().map(|t| t.text.as_str()),
                Some("accepted Ada"),
                "{}: {done:?}",
                self.side.name()
            );
        }
        waiting
    }

    async fn batch_between_rounds(&self, users: usize) -> Figures {
        let mut calls = tokio::task::JoinSet::new();
        for _ in 0..users {
            let peer = self.client.peer().clone();
            let request = self.call();
            calls.spawn(async move { peer.call_tool_once(request).await });
        }
        let mut states = Vec::with_capacity(users);
        while let Some(first) = calls.join_next().await {
            let first = first
                .expect("the call's task")
                .expect("the round is answered");
            let sdk::CallToolResponse::InputRequired(first) = first else {
                panic!("rounds: the first round is not input-required: {first:?}");
            };
            assert!(
                first
                    .input_requests
                    .as_ref()
                    .is_some_and(|requests| requests.contains_key("signup")),
                "rounds: the first round does not ask the form: {first:?}"
            );
            states.push(first.request_state.expect("rounds: a sealed requestState"));
        }
        assert_eq!(states.len(), users, "rounds: not every call is waiting");
        let waiting = self.measure().await;
        assert_eq!(
            waiting.in_ask, 0,
            "rounds: calls still inside their ask on the server between rounds"
        );
        let mut retries = tokio::task::JoinSet::new();
        for state in states {
            let peer = self.client.peer().clone();
            let answer = json!({"action": "accept", "content": answer()});
            let retry = self
                .call()
                .with_input_responses(sdk::InputResponses::from([("signup".to_owned(), answer)]))
                .with_request_state(state);
            retries.spawn(async move { peer.call_tool(retry).await });
        }
        while let Some(done) = retries.join_next().await {
            let done = done
                .expect("the retry's task")
                .expect("the retry completes");
            assert_eq!(
                done.content[0].as_text().map(|t| t.text.as_str()),
                Some("accepted Ada"),
                "rounds: {done:?}"
            );
        }
        waiting
    }
}

/// One server process for `side`: the warm-up, the two batches of `users`, the figures.
async fn measure_side(side: Side, users: usize) -> Measured {
    let bench = std::env::current_exe().expect("the bench's own path");
    let mut child = tokio::process::Command::new(&bench)
        .args(["--serve", side.name()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", bench.display()));
    let io = (
        child.stdout.take().expect("stdout is piped"),
        child.stdin.take().expect("stdin is piped"),
    );
    let (gate, gate_rx) = watch::channel(true);
    let asked = Arc::new(AtomicUsize::new(0));
    let holding = Holding {
        version: side.version(),
        asked: asked.clone(),
        gate: gate_rx,
    };
    let client = match side {
        Side::Rounds => {
            let mut info = Asking::new().get_info();
            info.protocol_version = side.version();
            rmcp::service::serve_directly(holding, io, Some(info.into()))
        }
        _ => holding.serve(io).await.expect("the session starts"),
    };
    let connection = Connection {
        client,
        gate,
        asked,
        side,
    };

    // Warm-up: one whole ask.
    connection.batch(1).await;
    let baseline = connection.measure().await;
    let first = connection.batch(users).await;
    let after_first = connection.measure().await;
    let second = connection.batch(users).await;

    let per_user = |bytes: isize| bytes as f64 / users as f64;
    let measured = Measured {
        cold_bytes: per_user(first.live_bytes as isize - baseline.live_bytes as isize),
        cold_blocks: per_user(first.live_blocks as isize - baseline.live_blocks as isize),
        cold_rss: per_user((first.rss_kib as isize - baseline.rss_kib as isize) * 1024),
        warm_bytes: per_user(second.live_bytes as isize - after_first.live_bytes as isize),
        after_bytes: per_user(after_first.live_bytes as isize - baseline.live_bytes as isize),
    };
    connection.client.cancel().await.expect("the client closes");
    let status = child.wait().await.expect("the server's status");
    assert!(
        status.success(),
        "{}: the server failed: {status}",
        side.name()
    );
    measured
}

// ---------------------------------------------------------------------------------------------
// The figures

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// "median (lowest - highest)" of `values`, each printed by `show`.
fn spread(mut values: Vec<f64>, show: impl Fn(f64) -> String) -> String {
    let mid = median(&mut values);
    format!(
        "{} ({} - {})",
        show(mid),
        show(values[0]),
        show(values[values.len() - 1])
    )
}

fn bytes(value: f64) -> String {
    format!("{value:.0} B")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == "--serve") {
        serve(Side::from_name(&args[at + 1]));
        return;
    }
    let quick = args.iter().any(|arg| arg == "--quick");
    let (runs, users) = if quick { (3, 1_000) } else { (5, 10_000) };

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut figures: Vec<Vec<Measured>> = vec![Vec::new(); Side::ALL.len()];
    for run in 0..runs {
        for k in 0..Side::ALL.len() {
            let i = (run + k) % Side::ALL.len();
            let side = Side::ALL[i];
            let measured = runtime.block_on(measure_side(side, users));
            println!(
                "run {} {:<7} heap {:>7.1} B/user cold, {:>7.1} warm, {:>7.1} left after; {:>5.2} blocks/user; RSS {:>7.1} B/user",
                run + 1,
                side.name(),
                measured.cold_bytes,
                measured.warm_bytes,
                measured.after_bytes,
                measured.cold_blocks,
                measured.cold_rss
            );
            figures[i].push(measured);
        }
    }

    println!(
        "\nwaiting_memory: {users} users waiting at once, {runs} runs (sides alternating, a server process each); per waiting user, median (lowest - highest run)"
    );
    for (i, side) in Side::ALL.iter().enumerate() {
        let of = |f: fn(&Measured) -> f64| figures[i].iter().map(f).collect::<Vec<_>>();
        println!("  {}", side.label());
        println!(
            "    heap, cold {}; warm {}; blocks {}; RSS, cold {}",
            spread(of(|m| m.cold_bytes), bytes),
            spread(of(|m| m.warm_bytes), bytes),
            spread(of(|m| m.cold_blocks), |v| format!("{v:.2}")),
            spread(of(|m| m.cold_rss), bytes),
        );
    }
    let rmcp = Side::ALL.iter().position(|&s| s == Side::Rmcp).unwrap_or(2);
    for (i, side) in Side::ALL.iter().enumerate() {
        if *side == Side::Rmcp {
            continue;
        }
        let ratio = |f: fn(&Measured) -> f64| {
            figures[i]
                .iter()
                .zip(&figures[rmcp])
                .map(|(ours, theirs)| f(ours) / f(theirs))
                .collect::<Vec<_>>()
        };
        println!(
            "  {} / rmcp: heap cold {}, warm {}; RSS cold {}",
            side.name(),
            spread(ratio(|m| m.cold_bytes), |v| format!("{v:.2}x")),
            spread(ratio(|m| m.warm_bytes), |v| format!("{v:.2}x")),
            spread(ratio(|m| m.cold_rss), |v| format!("{v:.2}x")),
        );
    }
}
