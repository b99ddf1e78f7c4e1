//! An MCP client on rmcp that calls one tool of a stdio server and lets the person at the
//! terminal answer the server's elicitations, rendered by `elicit::client::terminal`.
//!
//! ```sh
//! cargo run --example terminal_client -- [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]
//! cargo run --example terminal_client -- book_room cargo run --quiet --example stdio_server
//! ```
//!
//! The first free argument is the tool; everything after it is the command that starts the
//! server, which then speaks MCP on its stdin and stdout. `--arguments` gives the tool's
//! arguments as a JSON object. The client declares both elicitation modes on protocol
//! 2025-11-25 and answers each `elicitation/create`:
//!
//! - the request is checked as the spec requires (the schema subset, a declared mode, an
//!   http(s) URL); a bad one is refused with -32602, and the terminal shows why;
//! - a form is rendered field by field and sent only once the shared validator passes it;
//! - a URL is shown with its registrable domain highlighted and its warnings, and opens in the
//!   browser (or the program named by `ELICIT_BROWSER`) only if the user says so;
//! - `notifications/elicitation/complete` is reported on the terminal.
//!
//! The tool's result is printed on stdout, one text block a line; the exit status is 1 when
//! the tool reports an error. The server's stderr is kept out of the prompts and shown only if
//! the connection fails.

use std::collections::VecDeque;
use std::error::Error;
use std::process::{ExitCode, Stdio};
use std::sync::{Arc, Mutex, PoisonError};

use elicit::client::terminal::{Renderer, TerminalError};
use elicit::{ElicitRequestParams, ElicitationCapability, ElicitationCompleteNotification};
use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, CustomNotification,
    Implementation, JsonObject, ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use tokio::io::{AsyncBufReadExt, BufReader};

const USAGE: &str = "usage: terminal_client [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]";

/// How many of the server's last stderr lines to keep for a failed connection's report.
const KEPT_SERVER_LINES: usize = 40;

/// What this client declares: both modes, since it can show a form and open a browser.
fn declared_elicitation() -> ElicitationCapability {
    ElicitationCapability::form_and_url()
}

/// Answers elicitations at the terminal.
pub struct TerminalClient {
    renderer: Renderer,
}

impl ClientHandler for TerminalClient {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            sdk::ElicitationCapability::try_from(&declared_elicitation()).ok();
        ClientConfig::new(
            capabilities,
            Implementation::new("elicit-terminal-client", env!("CARGO_PKG_VERSION")),
        )
        // The `initialize` handshake's newest revision, in which servers may send
        // `elicitation/create`.
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let request = ElicitRequestParams::try_from(&request).inspect_err(|refused| {
            eprintln!("terminal_client: refused an elicitation: {refused}")
        })?;
        if let Err(not_declared) =
            ElicitationCapability::require(Some(&declared_elicitation()), request.mode())
        {
            return Err(ErrorData::invalid_params(not_declared.to_string(), None));
        }
        // The prompts block on the terminal: off the async workers.
        let renderer = self.renderer.clone();
        let rendered = tokio::task::spawn_blocking(move || renderer.elicit(&request))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the prompt failed: {e}"), None))?;
        match rendered {
            Ok(result) => Ok(sdk::ElicitResult::from(result)),
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

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Ok(complete) = ElicitationCompleteNotification::try_from(&notification) {
            eprintln!(
                "The server finished elicitation {}: you can close the browser tab.",
                complete.elicitation_id()
            );
        }
    }
}

/// The command line: the tool, its arguments, and the server's command.
struct Invocation {
    tool: String,
    arguments: Option<JsonObject>,
    server: Vec<String>,
}

fn parse_arguments(mut args: impl Iterator<Item = String>) -> Result<Invocation, String> {
    let mut arguments = None;
    let tool = loop {
        match args.next() {
            Some(flag) if flag == "--arguments" => {
                let json = args.next().ok_or("--arguments needs a JSON object")?;
                let object: JsonObject = serde_json::from_str(&json)
                    .map_err(|e| format!("--arguments must be a JSON object: {e}"))?;
                arguments = Some(object);
            }
            Some(flag) if flag == "--help" || flag == "-h" => return Err(USAGE.to_owned()),
            Some(tool) => break tool,
            None => return Err(format!("no tool given\n{USAGE}")),
        }
    };
    let server: Vec<String> = args.collect();
    if server.is_empty() {
        return Err(format!(
            "no server command given after the tool `{tool}`\n{USAGE}"
        ));
    }
    Ok(Invocation {
        tool,
        arguments,
        server,
    })
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
    let invocation = parse_arguments(std::env::args().skip(1))?;
    let mut command = tokio::process::Command::new(&invocation.server[0]);
    command.args(&invocation.server[1..]);
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", invocation.server[0]))?;
    let server_log = keep_last_lines(stderr);

    let client = TerminalClient {
        renderer: Renderer::new(),
    };
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

async fn call(
    client: TerminalClient,
    transport: TokioChildProcess,
    invocation: &Invocation,
) -> Result<ExitCode, Box<dyn Error>> {
    let client = client
        .serve(transport)
        .await
        .map_err(|e| format!("the server did not start an MCP session: {e}"))?;
    let mut request = CallToolRequestParams::new(invocation.tool.clone());
    if let Some(arguments) = &invocation.arguments {
        request = request.with_arguments(arguments.clone());
    }
    let result = client
        .call_tool(request)
        .await
        .map_err(|e| format!("calling `{}` failed: {e}", invocation.tool))?;
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
