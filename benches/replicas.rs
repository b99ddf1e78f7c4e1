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
    use std::process::{Child, Command, Stdio};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use rmcp::model::{
        self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
        ProtocolVersion, TaskPayload,
    };
    use rmcp::service::{
        ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
    };
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::common::client_side_sse::ExponentialBackoff;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use rmcp::{ClientHandler, ErrorData};
    use serde_json::{Map, Value, json};

    use crate::redis_restart;
    use elicit_test_support::load::server::ServerProcess;

    /// Concurrent clients on each revision.
    const CLIENTS: usize = 8;
    /// The longest a flow may take before it counts as hung.
    const HUNG_AFTER: Duration = Duration::from_secs(60);
    const STATE_KEYS: &str =
        "load-1:0505050505050505050505050505050505050505050505050505050505050505";

    /// The flows each client cycles through.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum Flow {
        TwoForms,
        ReAsk,
        Url,
        TaskThatAsks,
    }

    const FLOWS: [Flow; 4] = [Flow::TwoForms, Flow::ReAsk, Flow::Url, Flow::TaskThatAsks];

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

    /// Fills every form: strings `load`, booleans `true`, except that every other form with a
    /// `username` is sent without it (so the server asks again); consents to every URL and
    /// opens it through the proxy.
    struct LoadClient {
        proxy: String,
        leave_out_next: AtomicBool,
        http: reqwest::Client,
    }

    impl ClientHandler for LoadClient {
        fn get_info(&self) -> ClientConfig {
            let mut capabilities = ClientCapabilities::try_from(
                &elicit_mcp::wire::ElicitationCapability::form_and_url(),
            )
            .expect("form and URL modes fit rmcp's capabilities");
            capabilities.extensions = ClientCapabilities::builder()
                .enable_tasks()
                .build()
                .extensions;
            ClientConfig::new(
                capabilities,
                Implementation::new("elicit-replicas-load", "0"),
            )
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
        }

        async fn create_elicitation(
            &self,
            request: sdk::ElicitRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<sdk::ElicitResult, ErrorData> {
            let request = serde_json::to_value(&request)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            if let Some(link) = request["url"].as_str() {
                // The browser reaches the page through the load balancer.
                let path = link.splitn(4, '/').nth(3).unwrap_or_default();
                let page = format!("{}/{path}", self.proxy);
                let http = self.http.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    let _ = http.get(page).send().await;
                });
                return serde_json::from_value(json!({"action": "accept"}))
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None));
            }
            Ok(fill(&request, self.leave_out(&request)))
        }
    }

    impl LoadClient {
        /// Whether to leave this form's required `username` out: every other form that has one.
        fn leave_out(&self, request: &Value) -> bool {
            let has_username = request["requestedSchema"]["properties"]
                .as_object()
                .is_some_and(|properties| properties.contains_key("username"));
            has_username && self.leave_out_next.fetch_xor(true, Ordering::Relaxed)
        }
    }

    fn fill(request: &Value, leave_out_username: bool) -> sdk::ElicitResult {
        let content: Map<String, Value> = request["requestedSchema"]["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(name, _)| !(leave_out_username && *name == "username"))
            .map(|(name, schema)| {
                let value = match (schema["type"].as_str(), name.as_str()) {
                    (Some("boolean"), _) => json!(true),
                    (_, "email") => json!("load@example.com"),
                    _ => json!("load"),
                };
                (name.clone(), value)
            })
            .collect();
        serde_json::from_value(json!({"action": "accept", "content": content}))
            .expect("an accept result")
    }

    async fn connect(
        url: &str,
        proxy: &str,
        revision: &ProtocolVersion,
    ) -> Result<RunningService<RoleClient, LoadClient>, String> {
        let client = LoadClient {
            proxy: proxy.to_owned(),
            leave_out_next: AtomicBool::new(true),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .map_err(|e| e.to_string())?,
        };
        // rmcp's default retries a lost event stream for ever, at doubling delays: a call whose
        // session was on the killed replica would wait for ever. A client that gives up after
        // three tries gets an error, and its next call a new session.
        let mut backoff = ExponentialBackoff::default();
        backoff.max_times = Some(3);
        backoff.base_duration = Duration::from_millis(200);
        backoff.max_delay = Some(Duration::from_secs(1));
        let mut config = StreamableHttpClientTransportConfig::with_uri(url);
        config.retry_config = Arc::new(backoff);
        let transport = StreamableHttpClientTransport::from_config(config);
        let lifecycle = if *revision == ProtocolVersion::V_2026_07_28 {
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            }
        } else {
            ClientLifecycleMode::Initialize
        };
        client
            .serve_with_lifecycle(transport, lifecycle)
            .await
            .map_err(|e| e.to_string())
    }

    fn text(result: &sdk::CallToolResult) -> String {
        result
            .content
            .iter()
            .filter_map(|content| content.as_text())
            .map(|text| text.text.as_str())
            .collect()
    }

    /// Runs `flow` once: what it answered, or the clear error it got.
    async fn run_flow(
        client: &RunningService<RoleClient, LoadClient>,
        flow: Flow,
        n: usize,
    ) -> Result<Result<(), String>, String> {
        let call = |tool: &str, arguments: Value| {
            let mut request = CallToolRequestParams::new(tool.to_owned());
            if let Value::Object(arguments) = arguments {
                request = request.with_arguments(arguments);
            }
            request
        };
        let answered = |result: sdk::CallToolResult, expected: &dyn Fn(&str) -> bool| {
            let said = text(&result);
            if result.is_error == Some(true) {
                Err(said)
            } else if expected(&said) {
                Ok(Ok(()))
            } else {
                Ok(Err(said))
            }
        };
        match flow {
            Flow::TwoForms => {
                let result = client
                    .call_tool(call("test_input_required_result_multi_round", json!({})))
                    .await
                    .map_err(|e| e.to_string())?;
                answered(result, &|said| {
                    said == r#"step1 accepted: {"name":"load"}; step2 accepted: {"color":"load"}"#
                })
            }
            Flow::ReAsk => {
                let result = client
                    .call_tool(call("test_elicitation", json!({"message": "Who are you?"})))
                    .await
                    .map_err(|e| e.to_string())?;
                answered(result, &|said| {
                    said == r#"User response: <action: accept, content: {"username":"load","email":"load@example.com"}>"#
                })
            }
            Flow::Url => {
                let result = client
                    .call_tool(call("test_url_elicitation", json!({})))
                    .await
                    .map_err(|e| e.to_string())?;
                answered(result, &|said| said == "URL step completed")
            }
            Flow::TaskThatAsks => task_flow(client, n).await,
        }
    }

    /// `confirm_delete` as a task: created, polled until it asks, answered, polled to its end.
    async fn task_flow(
        client: &RunningService<RoleClient, LoadClient>,
        n: usize,
    ) -> Result<Result<(), String>, String> {
        let filename = format!("f{n}.txt");
        let mut request = CallToolRequestParams::new("confirm_delete");
        if let Value::Object(arguments) = json!({"filename": filename}) {
            request = request.with_arguments(arguments);
        }
        let created = client
            .call_tool_once(request)
            .await
            .map_err(|e| e.to_string())?;
        let sdk::CallToolResponse::Task(created) = created else {
            return Ok(Err(format!("not a task: {created:?}")));
        };
        let id = created.task.task_id;
        let mut answered = false;
        loop {
            let got = client
                .peer()
                .get_task(sdk::GetTaskParams::new(id.clone()))
                .await
                .map_err(|e| e.to_string())?;
            match &got.task.payload {
                TaskPayload::InputRequired { input_requests } if !answered => {
                    let Some(key) = input_requests.keys().next().cloned() else {
                        continue;
                    };
                    let yes = json!({"action": "accept", "content": {"confirm": true}});
                    client
                        .peer()
                        .update_task(sdk::UpdateTaskParams::new(
                            id.clone(),
                            [(key, yes)].into_iter().collect(),
                        ))
                        .await
                        .map_err(|e| e.to_string())?;
                    answered = true;
                }
                TaskPayload::Completed { result } => {
                    let result: sdk::CallToolResult =
                        serde_json::from_value(Value::Object(result.clone()))
                            .map_err(|e| e.to_string())?;
                    let said = text(&result);
                    return Ok(if said == format!("deleted {filename}") {
                        Ok(())
                    } else {
                        Err(said)
                    });
                }
                TaskPayload::Failed { error } => {
                    return Err(format!("task failed: {}", error["message"]));
                }
                TaskPayload::Cancelled => return Err("task cancelled".to_owned()),
                _ => {}
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
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

    /// HAProxy in front of `backends` on a free loopback port; stopped when dropped.
    struct Proxy {
        child: Child,
        dir: std::path::PathBuf,
        url: String,
    }

    impl Proxy {
        fn start(backends: &[String]) -> Proxy {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|listener| listener.local_addr())
                .expect("a free port")
                .port();
            let dir = std::env::temp_dir().join(format!("elicit-haproxy-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a dir for haproxy's config");
            let servers: String = backends
                .iter()
                .enumerate()
                .map(|(index, backend)| {
                    format!(
                        "    server replica-{index} {backend} check inter 500ms fall 2 rise 2\n"
                    )
                })
                .collect();
            let config = format!(
                "global\n    maxconn 1024\ndefaults\n    mode http\n    retries 3\n    \
                 option redispatch\n    option http-no-delay\n    timeout connect 2s\n    timeout client 120s\n    \
                 timeout server 120s\nfrontend mcp\n    bind 127.0.0.1:{port}\n    \
                 default_backend replicas\nbackend replicas\n    balance roundrobin\n    \
                 stick-table type string len 64 size 100k expire 30m\n    \
                 stick match req.hdr(mcp-session-id)\n    \
                 stick store-response res.hdr(mcp-session-id)\n{servers}"
            );
            let path = dir.join("haproxy.cfg");
            std::fs::write(&path, config).expect("haproxy's config is written");
            let child = Command::new("haproxy")
                .arg("-f")
                .arg(&path)
                .arg("-db")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("haproxy starts (apt-get install haproxy)");
            let began = Instant::now();
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(began.elapsed() < Duration::from_secs(10), "haproxy listens");
                std::thread::sleep(Duration::from_millis(50));
            }
            Proxy {
                child,
                dir,
                url: format!("http://127.0.0.1:{port}"),
            }
        }
    }

    impl Drop for Proxy {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
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
                let url = replica.as_ref().expect("started").url();
                url.trim_start_matches("http://")
                    .trim_end_matches("/mcp")
                    .to_owned()
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
