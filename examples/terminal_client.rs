//! An MCP client on rmcp that calls one tool of a server and lets the person at the terminal
//! answer the server's elicitations, rendered by `elicit_mcp::client::terminal`.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp,terminal --example terminal_client -- [--protocol REVISION] [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]
//! cargo run -p elicit-examples --features rmcp,terminal --example terminal_client -- [--protocol REVISION] [--arguments JSON] TOOL http://127.0.0.1:PORT/mcp
//!
//! cargo run -p elicit-examples --features rmcp,terminal --example terminal_client -- book_room cargo run --quiet -p elicit-examples --features rmcp,terminal --example stdio_server
//! ```
//!
//! The first free argument is the tool; everything after it says where the server is: a
//! command, started as a child process that speaks MCP on its stdin and stdout, or the URL of a
//! streamable-HTTP server on loopback (such as `url_mode_server`'s). `--arguments` gives the
//! tool's arguments as a JSON object.
//!
//! The client negotiates as the official clients do: `server/discover` first, for 2026-07-28,
//! and the `initialize` handshake of 2025-11-25 with a server that does not discover;
//! `--protocol 2025-11-25` (or `2026-07-28`) speaks only that revision. It says on stderr which
//! revision the server answered. It declares both elicitation modes and the tasks extension,
//! and answers the server's forms and URLs the same way wherever they come: an
//! `elicitation/create` (2025-11-25), an input-required round (2026-07-28, the call retried
//! with the answers and the server's state), or a task's input request (polled with
//! `tasks/get`, answered with `tasks/update`):
//!
//! - the request is checked as the spec requires (the schema subset, a declared mode, an
//!   http(s) URL); a bad one is refused with -32602, and the terminal shows why;
//! - every form and URL consent names the server that asks: the `serverInfo` it gave at
//!   `initialize` (or, should it give none, the command or URL it was reached by);
//! - a form is rendered field by field, shown back for review (any answer can be changed),
//!   and sent only once the shared validator passes it;
//! - a URL is shown with its registrable domain highlighted and its warnings, and opens in the
//!   browser (or the program named by `ELICIT_BROWSER`) only if the user says so;
//! - a tool call refused with -32042 (`URLElicitationRequiredError`) has each of its URLs
//!   offered the same way; once the user opened them all, the client waits for the server's
//!   `notifications/elicitation/complete` (Ctrl-C gives up) and calls the tool again;
//! - `notifications/elicitation/complete` is reported on the terminal; on 2026-07-28, where
//!   the server finishes a browser step by answering the retried call, the terminal says the
//!   call is waiting for it;
//! - a task's status messages are shown as they change.
//!
//! The tool's result is printed on stdout, one text block a line; the exit status is 1 when
//! the tool reports an error. A child server's stderr is kept out of the prompts and shown
//! only if the session fails.

use std::collections::VecDeque;
use std::error::Error;
use std::process::{ExitCode, Stdio};
use std::sync::{Arc, Mutex, PoisonError};

use elicit_examples::check_loopback;
use elicit_examples::clients::{
    Answerer, CallError, Invocation, Revision, call_tool, capabilities, server_identity,
    spoken_revision,
};
use elicit_mcp::client::terminal::{Renderer, TerminalError};
use elicit_mcp::client::{Completion, ServerIdentity, UrlElicitationWatch};
use elicit_mcp::wire::{
    ElicitAction, ElicitRequestParams, ElicitationCapability, ElicitationCompleteNotification,
    UrlElicitationRequiredError,
};
use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientConfig, CustomNotification, Implementation,
};
use rmcp::service::{
    ClientServiceExt, NotificationContext, Peer, RequestContext, RoleClient, ServiceError,
};
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::Notify;

const USAGE: &str = "usage: terminal_client [--protocol 2025-11-25|2026-07-28] [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]";

/// How many of the server's last stderr lines to keep for a failed connection's report.
const KEPT_SERVER_LINES: usize = 40;

/// How many times a tool call refused with -32042 is retried after the user's browser steps.
const URL_REQUIRED_ROUNDS: usize = 3;

/// What this client declares: both modes, since it can show a form and open a browser.
fn declared_elicitation() -> ElicitationCapability {
    ElicitationCapability::form_and_url()
}

/// Answers elicitations at the terminal.
pub struct TerminalClient {
    renderer: Renderer,
    completions: Completions,
    /// What the user called the server (its command or URL): its name should it give none.
    server_as_called: ServerIdentity,
    /// The revision to speak.
    revision: Revision,
}

impl TerminalClient {
    /// The server as the user is shown it: the `serverInfo` it gave at `initialize`.
    fn server(&self, peer: &Peer<RoleClient>) -> ServerIdentity {
        server_identity(peer, &self.server_as_called)
    }
}

/// The URL-mode elicitations the user consented to, and a signal for the call waiting on them.
#[derive(Clone, Default)]
struct Completions {
    watch: Arc<Mutex<UrlElicitationWatch<()>>>,
    ready_to_retry: Arc<Notify>,
}

impl Completions {
    fn watch(&self) -> std::sync::MutexGuard<'_, UrlElicitationWatch<()>> {
        self.watch.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ClientHandler for TerminalClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            capabilities(&declared_elicitation()),
            Implementation::new("elicit-terminal-client", env!("CARGO_PKG_VERSION")),
        )
        // What `initialize` names, for a server that does not discover.
        .with_protocol_version(self.revision.handshake_version())
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        self.answer(self.server(&context.peer), request).await
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        let Ok(complete) = ElicitationCompleteNotification::try_from(&notification) else {
            return;
        };
        // Unknown or repeated ids are ignored, as the spec requires.
        let completion = self.completions.watch().on_complete(&complete);
        if let Completion::Completed { ready_to_retry } = completion {
            eprintln!(
                "The server finished elicitation {}: you can close the browser tab.",
                complete.elicitation_id()
            );
            if !ready_to_retry.is_empty() {
                self.completions.ready_to_retry.notify_one();
            }
        }
    }
}

impl Answerer for TerminalClient {
    async fn answer(
        &self,
        server: ServerIdentity,
        request: sdk::ElicitRequestParams,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let request = ElicitRequestParams::try_from(&request).inspect_err(|refused| {
            eprintln!("terminal_client: refused an elicitation: {refused}")
        })?;
        if let Err(not_declared) =
            ElicitationCapability::require(Some(&declared_elicitation()), request.mode())
        {
            return Err(ErrorData::invalid_params(not_declared.to_string(), None));
        }
        // Only a URL elicitation has a completion to watch for.
        let url = match &request {
            ElicitRequestParams::Url(url) => Some(url.clone()),
            _ => None,
        };
        // The prompts block on the terminal: off the async workers.
        let renderer = self.renderer.clone();
        let rendered = tokio::task::spawn_blocking(move || renderer.elicit(&server, &request))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the prompt failed: {e}"), None))?;
        match rendered {
            Ok(result) => {
                if let Some(url) = url.filter(|_| result.action == ElicitAction::Accept) {
                    // So that its completion notification is recognised and reported. A full
                    // watch only means that notification will not be reported: say so.
                    if let Err(full) = self.completions.watch().track(&url) {
                        eprintln!("terminal_client: {full}");
                    }
                }
                Ok(sdk::ElicitResult::from(result))
            }
            Err(TerminalError::InvalidUrl(invalid)) => {
                eprintln!("terminal_client: refused an elicitation: {invalid}");
                Err(ErrorData::invalid_params(
                    format!("`url`: {invalid}"),
                    Some(serde_json::json!({ "property": "url" })),
                ))
            }
            Err(error) => Err(ErrorData::internal_error(error.to_string(), None)),
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("terminal_client: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<ExitCode, Box<dyn Error>> {
    let invocation = Invocation::parse(std::env::args().skip(1), USAGE)?;
    let client = TerminalClient {
        renderer: Renderer::new(),
        completions: Completions::default(),
        server_as_called: ServerIdentity::new(invocation.server.join(" ")),
        revision: invocation.revision.clone(),
    };
    if let [url] = invocation.server.as_slice()
        && (url.starts_with("http://") || url.starts_with("https://"))
    {
        check_loopback(url)?;
        let transport = StreamableHttpClientTransport::from_uri(url.as_str());
        return call(client, transport, &invocation).await;
    }
    let mut command = tokio::process::Command::new(&invocation.server[0]);
    command.args(&invocation.server[1..]);
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", invocation.server[0]))?;
    let server_log = keep_last_lines(stderr);
    let outcome = call(client, transport, &invocation).await;
    if outcome.is_err() {
        let lines = server_log.lock().unwrap_or_else(PoisonError::into_inner);
        if !lines.is_empty() {
            eprintln!("the server's last words on stderr:");
            for line in lines.iter() {
                eprintln!("  {line}");
            }
        }
    }
    outcome
}

async fn call<T, E, A>(
    client: TerminalClient,
    transport: T,
    invocation: &Invocation,
) -> Result<ExitCode, Box<dyn Error>>
where
    T: IntoTransport<RoleClient, E, A>,
    E: Error + Send + Sync + 'static,
{
    let (renderer, completions) = (client.renderer.clone(), client.completions.clone());
    let server_as_called = client.server_as_called.clone();
    let client = client
        .serve_with_lifecycle(transport, invocation.revision.lifecycle())
        .await
        .map_err(|e| format!("the server did not start an MCP session: {e}"))?;
    let server = server_identity(client.peer(), &server_as_called);
    eprintln!(
        "Connected to {server}, speaking MCP {}.",
        spoken_revision(client.peer())
    );
    let mut request = CallToolRequestParams::new(invocation.tool.clone());
    if let Some(arguments) = &invocation.arguments {
        request = request.with_arguments(arguments.clone());
    }
    let mut rounds = 0;
    let result = loop {
        let said = |line: &str| eprintln!("{line}");
        let error = match call_tool(&client, &server, request.clone(), said).await {
            Ok(result) => break result,
            Err(CallError::Service(ServiceError::McpError(error)))
                if rounds < URL_REQUIRED_ROUNDS =>
            {
                error
            }
            Err(error) => {
                return Err(format!("calling `{}` failed: {error}", invocation.tool).into());
            }
        };
        let Ok(required) = UrlElicitationRequiredError::try_from(&error) else {
            return Err(format!("calling `{}` failed: {error}", invocation.tool).into());
        };
        rounds += 1;
        if !open_required_urls(&renderer, &server, &completions, required).await? {
            return Err(format!(
                "`{}` needs the browser steps you did not take; it was not called again",
                invocation.tool
            )
            .into());
        }
    };
    for block in &result.content {
        match block.as_text() {
            Some(text) => println!("{}", text.text),
            None => println!("{}", serde_json::to_string(block)?),
        }
    }
    client.cancel().await?;
    Ok(if result.is_error == Some(true) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Offers each URL of a -32042 error, then waits until the server says every one is done.
/// `false` when the user did not open them all (or gave up waiting): there is nothing to retry.
async fn open_required_urls(
    renderer: &Renderer,
    server: &ServerIdentity,
    completions: &Completions,
    required: UrlElicitationRequiredError,
) -> Result<bool, Box<dyn Error>> {
    // Registered before the prompts, so a completion that arrives while the user is still
    // looking at the next URL is not lost.
    // A full watch is an error to report, not a reason to drop the call: its text says so.
    let already_done = completions
        .watch()
        .retry_after((), &required)
        .map_err(|full| full.to_string())?
        .is_some();
    eprintln!("{}", required.message());
    for elicitation in required.elicitations() {
        let renderer = renderer.clone();
        let (server, params) = (server.clone(), elicitation.clone());
        let result = tokio::task::spawn_blocking(move || renderer.url(&server, &params)).await??;
        if result.action != ElicitAction::Accept {
            for abandoned in required.elicitation_ids() {
                let _ = completions.watch().abandon(abandoned);
            }
            return Ok(false);
        }
    }
    if already_done {
        return Ok(true);
    }
    eprintln!("Waiting for the server to confirm the browser step (Ctrl-C gives up)…");
    tokio::select! {
        () = completions.ready_to_retry.notified() => Ok(true),
        _ = tokio::signal::ctrl_c() => Ok(false),
    }
}

/// Reads the server's stderr in the background, keeping the last lines.
fn keep_last_lines(stderr: Option<tokio::process::ChildStderr>) -> Arc<Mutex<VecDeque<String>>> {
    let kept = Arc::new(Mutex::new(VecDeque::new()));
    if let Some(stderr) = stderr {
        let sink = Arc::clone(&kept);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut kept = sink.lock().unwrap_or_else(PoisonError::into_inner);
                if kept.len() == KEPT_SERVER_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
    }
    kept
}
