//! What `elicit_mcp::http::Guard` costs: one small 2026-07-28 `tools/call` served by rmcp's
//! `StreamableHttpService` through the guard, against the same service alone. Both are called
//! as tower services (no sockets, so nothing but the two services' own work is timed), with the
//! same request built the same way each iteration (headers, the peer's `ConnectInfo`, a
//! 230-byte body), and both answers read to their end and checked.
//!
//! Criterion measures the two routines (its report), then the ratio is measured paired, so that
//! the machine's other load falls on both sides alike: five runs, each of 200 rounds, a round
//! timing 20 calls through the guard and 20 alone, the order swapped from one round to the
//! next; a run's ratio is the median of the guarded rounds over the median of the bare ones.
//! It prints each run's ratio, their median and their spread. Run with
//! `cargo bench --bench http_guard`.

#[path = "common/mod.rs"]
mod common;

use std::convert::Infallible;
use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, HttpBody};
use axum::extract::ConnectInfo;
use axum::http;
use criterion::Criterion;
use elicit_mcp::http::Guard;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use tower_service::Service;

const RUNS: usize = 5;
const ROUNDS: usize = 200;
const CALLS_PER_ROUND: usize = 20;
const GROUP: &str = "http_guard";

/// A tool that asks nothing: what is timed is the transport's work, not a handler's.
#[derive(Clone)]
struct Adder {
    tool_router: ToolRouter<Adder>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Sum {
    a: i64,
    b: i64,
}

#[tool_router]
impl Adder {
    #[tool(description = "Adds two numbers")]
    async fn add(&self, Parameters(sum): Parameters<Sum>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text(
            (sum.a + sum.b).to_string(),
        )]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Adder {}

fn adder() -> Result<Adder, std::io::Error> {
    Ok(Adder {
        tool_router: Adder::tool_router(),
    })
}

const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

fn request() -> http::Request<Body> {
    let mut request = http::Request::post("http://127.0.0.1/mcp")
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("content-length", BODY.len())
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "add")
        .body(Body::from(BODY))
        .expect("a valid request");
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    request
}

/// One call through `service`, its answer read to the end; the text of the answer.
async fn call<S, B>(mut service: S) -> String
where
    S: Service<http::Request<Body>, Response = http::Response<B>, Error = Infallible>,
    B: HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<elicit_mcp::http::BoxError>,
{
    let Ok(()) = std::future::poll_fn(|context| service.poll_ready(context)).await;
    let Ok(response) = service.call(request()).await;
    let body = Body::new(response.into_body());
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("the answer reads");
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The two services, checked to answer the call alike: the bench compares answers, not
/// failures.
fn services(
    runtime: &tokio::runtime::Runtime,
) -> (
    StreamableHttpService<Adder, LocalSessionManager>,
    elicit_mcp::http::Guarded<
        StreamableHttpService<Adder, LocalSessionManager>,
        LocalSessionManager,
    >,
) {
    let _entered = runtime.enter();
    let alone: StreamableHttpService<Adder, LocalSessionManager> = StreamableHttpService::new(
        adder,
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let guarded = Guard::new().service(
        adder,
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let answer = runtime.block_on(call(alone.clone()));
    assert!(answer.contains(r#""text":"5""#), "{answer}");
    assert_eq!(runtime.block_on(call(guarded.clone())), answer);
    (alone, guarded)
}

fn benches(c: &mut Criterion) {
    let runtime = runtime();
    let (alone, guarded) = services(&runtime);
    let mut group = c.benchmark_group(GROUP);
    group.bench_function("guarded", |b| {
        b.iter(|| runtime.block_on(call(guarded.clone())))
    });
    group.bench_function("rmcp_alone", |b| {
        b.iter(|| runtime.block_on(call(alone.clone())))
    });
    group.finish();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// One run of the paired measurement: the median round through the guard over the median
/// round alone.
fn paired_run(runtime: &tokio::runtime::Runtime) -> (f64, f64) {
    let (alone, guarded) = services(runtime);
    let mut guarded_rounds = Vec::with_capacity(ROUNDS);
    let mut alone_rounds = Vec::with_capacity(ROUNDS);
    let time = |rounds: &mut Vec<Duration>, guard: bool| {
        let start = Instant::now();
        for _ in 0..CALLS_PER_ROUND {
            if guard {
                black_box(runtime.block_on(call(guarded.clone())));
            } else {
                black_box(runtime.block_on(call(alone.clone())));
            }
        }
        rounds.push(start.elapsed());
    };
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            time(&mut guarded_rounds, true);
            time(&mut alone_rounds, false);
        } else {
            time(&mut alone_rounds, false);
            time(&mut guarded_rounds, true);
        }
    }
    let median = |rounds: &mut Vec<Duration>| {
        rounds.sort();
        rounds[rounds.len() / 2].as_secs_f64() * 1e9 / CALLS_PER_ROUND as f64
    };
    (median(&mut guarded_rounds), median(&mut alone_rounds))
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
    if let Some((guarded, alone)) = common::typical_pair(GROUP, "guarded", "rmcp_alone") {
        println!(
            "criterion: guarded {guarded:.0} ns, rmcp alone {alone:.0} ns, {:.3}x",
            guarded / alone
        );
    }
    // A filtered run (`cargo bench --bench http_guard -- guarded`) is criterion's alone.
    if std::env::args().skip(1).any(|arg| !arg.starts_with('-')) {
        return;
    }
    let runtime = runtime();
    let mut ratios = Vec::with_capacity(RUNS);
    for run in 1..=RUNS {
        let (guarded, alone) = paired_run(&runtime);
        println!(
            "paired run {run}: guarded {guarded:.0} ns, rmcp alone {alone:.0} ns per call, {:.3}x",
            guarded / alone
        );
        ratios.push(guarded / alone);
    }
    let each: Vec<String> = ratios.iter().map(|r| format!("{r:.3}x")).collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "\nguarded / rmcp alone, one small tools/call, {RUNS} paired runs: median {:.3}x, spread {:.3}x to {:.3}x (runs: {})",
        ratios[RUNS / 2],
        ratios[0],
        ratios[RUNS - 1],
        each.join(", ")
    );
}
