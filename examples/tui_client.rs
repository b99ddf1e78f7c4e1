//! A full-screen MCP client on rmcp and ratatui that calls one tool of a server and answers
//! the server's forms and URLs in `elicit_mcp::client::tui::ElicitWidget`, inside its own
//! ratatui event loop: the way a ratatui host embeds the widget.
//!
//! ```sh
//! cargo run -p elicit-examples --features tui --example tui_client -- [--protocol REVISION] [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]
//! cargo run -p elicit-examples --features tui --example tui_client -- [--protocol REVISION] [--arguments JSON] TOOL http://127.0.0.1:PORT/mcp
//!
//! cargo run -p elicit-examples --features tui --example tui_client -- book_room cargo run --quiet -p elicit-examples --features rmcp --example stdio_server
//! ```
//!
//! The server is a command, started as a child process speaking MCP on its stdin and stdout,
//! or the URL of a streamable-HTTP server on loopback. The client negotiates as the official
//! clients do (`server/discover` first, for 2026-07-28; the `initialize` handshake of
//! 2025-11-25 with a server that does not discover); `--protocol 2025-11-25` (or
//! `2026-07-28`) speaks only that revision, and the waiting screen says which one the server
//! answered. It declares both elicitation modes and the tasks extension: each form or URL,
//! whether it comes as `elicitation/create`, in an input-required round or inside a task, is
//! checked as the spec requires, then shown in the widget under the server's `serverInfo`
//! until the user sends, declines or cancels. A URL the user consents to is opened in the
//! browser (or by the program named in `ELICIT_BROWSER`). The screen is drawn on stderr, so
//! the tool's result, printed once the screen is closed, is all that reaches stdout (one text
//! block a line); the exit status is 1 when the tool reports an error. Esc or Ctrl-C cancels a
//! form; Ctrl-C while no form is shown gives up the call. Where stdin is not a terminal it
//! fails at once, before starting the server.

use std::collections::VecDeque;
use std::error::Error;
use std::io::{self, IsTerminal, Stderr};
use std::process::{ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use elicit_examples::check_loopback;
use elicit_examples::clients::{
    Answerer, Invocation, Revision, call_tool, capabilities, server_identity, spoken_revision,
};
use elicit_mcp::client::ServerIdentity;
use elicit_mcp::client::tui::{ElicitWidget, Status};
use elicit_mcp::wire::{ElicitRequestParams, ElicitResult, ElicitationCapability};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::widgets::{Paragraph, Wrap};
use rmcp::model::{self as sdk, CallToolRequestParams, ClientConfig, Implementation};
use rmcp::service::{ClientServiceExt, RequestContext, RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData};
use tokio::sync::oneshot;

const USAGE: &str = "usage: tui_client [--protocol 2025-11-25|2026-07-28] [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]";

/// The environment variable naming the program that opens a consented URL, as for the
/// terminal renderer; the desktop's browser when it is not set.
const BROWSER_VARIABLE: &str = "ELICIT_BROWSER";

/// How often the screen looks for a new form while no key comes.
const TICK: Duration = Duration::from_millis(50);

/// What the screen is told by the MCP side.
enum ToScreen {
    /// A form to answer, and where its answer goes.
    Ask {
        widget: Box<ElicitWidget>,
        reply: oneshot::Sender<ElicitResult>,
    },
    /// What the call is waiting for, in words for the person.
    Say(String),
    /// The call is over: the screen closes.
    Finished,
}

/// Hands each elicitation to the screen and waits for the user's answer.
struct TuiClient {
    screen: mpsc::Sender<ToScreen>,
    /// What the user called the server: its name should it give no `serverInfo`.
    server_as_called: ServerIdentity,
    /// The revision to speak.
    revision: Revision,
}

/// What this client declares: both modes, since it shows forms and opens a browser.
fn declared_elicitation() -> ElicitationCapability {
    ElicitationCapability::form_and_url()
}

impl ClientHandler for TuiClient {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            capabilities(&declared_elicitation()),
            Implementation::new("elicit-tui-client", env!("CARGO_PKG_VERSION")),
        )
        // What `initialize` names, for a server that does not discover.
        .with_protocol_version(self.revision.handshake_version())
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let server = server_identity(&context.peer, &self.server_as_called);
        self.answer(server, request).await
    }
}

impl Answerer for TuiClient {
    async fn answer(
        &self,
        server: ServerIdentity,
        request: sdk::ElicitRequestParams,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let request = ElicitRequestParams::try_from(&request)?;
        if let Err(not_declared) =
            ElicitationCapability::require(Some(&declared_elicitation()), request.mode())
        {
            return Err(ErrorData::invalid_params(not_declared.to_string(), None));
        }
        let widget = ElicitWidget::new(server, &request)
            .map_err(|invalid| ErrorData::invalid_params(format!("`url`: {invalid}"), None))?;
        let (reply, answer) = oneshot::channel();
        let widget = Box::new(widget);
        self.screen
            .send(ToScreen::Ask { widget, reply })
            .map_err(|_| ErrorData::internal_error("the screen is closed", None))?;
        let result = answer
            .await
            .map_err(|_| ErrorData::internal_error("the screen closed unanswered", None))?;
        Ok(sdk::ElicitResult::from(result))
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("tui_client: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<ExitCode, Box<dyn Error>> {
    let invocation = Invocation::parse(std::env::args().skip(1), USAGE)?;
    // Checked before the server starts: its forms would wait for keys that cannot come.
    if !io::stdin().is_terminal() {
        return Err("stdin is not a terminal: the forms need a person at a terminal".into());
    }
    let (to_screen, screen_inbox) = mpsc::channel();
    let (gave_up, give_up) = oneshot::channel();
    let waiting = format!("Calling `{}`…", invocation.tool);
    let screen = tokio::task::spawn_blocking(move || run_screen(&waiting, screen_inbox, gave_up));
    let outcome = tokio::select! {
        outcome = call(&invocation, to_screen.clone()) => outcome,
        _ = give_up => Err("you gave up the call".into()),
    };
    // The screen closes before anything is printed, so the result lands on the normal screen.
    let _ = to_screen.send(ToScreen::Finished);
    // What the call said stays readable on the normal screen, the revision spoken first.
    for line in screen.await??.iter().skip(1) {
        eprintln!("{line}");
    }
    let result = outcome?;
    for block in &result.content {
        match block.as_text() {
            Some(text) => println!("{}", text.text),
            None => println!("{}", serde_json::to_string(block)?),
        }
    }
    Ok(if result.is_error == Some(true) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

async fn call(
    invocation: &Invocation,
    screen: mpsc::Sender<ToScreen>,
) -> Result<sdk::CallToolResult, Box<dyn Error>> {
    let handler = TuiClient {
        screen: screen.clone(),
        server_as_called: ServerIdentity::new(invocation.server.join(" ")),
        revision: invocation.revision.clone(),
    };
    let lifecycle = invocation.revision.lifecycle();
    let client = match invocation.server.as_slice() {
        [url] if url.starts_with("http://") || url.starts_with("https://") => {
            check_loopback(url)?;
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            handler.serve_with_lifecycle(transport, lifecycle).await
        }
        command_line => {
            let mut command = tokio::process::Command::new(&command_line[0]);
            command.args(&command_line[1..]);
            // The server's stderr would write over the full-screen form.
            let (transport, _stderr) = TokioChildProcess::builder(command)
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("cannot start `{}`: {e}", command_line[0]))?;
            handler.serve_with_lifecycle(transport, lifecycle).await
        }
    }
    .map_err(|e| format!("the server did not start an MCP session: {e}"))?;
    let outcome = call_with(&client, invocation, &screen).await;
    client.cancel().await?;
    outcome
}

/// The call on an open connection, what it waits for said on the screen.
async fn call_with(
    client: &RunningService<RoleClient, TuiClient>,
    invocation: &Invocation,
    screen: &mpsc::Sender<ToScreen>,
) -> Result<sdk::CallToolResult, Box<dyn Error>> {
    let server = server_identity(client.peer(), &client.service().server_as_called);
    let say = |line: String| {
        let _ = screen.send(ToScreen::Say(line));
    };
    say(format!(
        "Connected to {server}, speaking MCP {}.",
        spoken_revision(client.peer())
    ));
    let mut request = CallToolRequestParams::new(invocation.tool.clone());
    if let Some(arguments) = &invocation.arguments {
        request = request.with_arguments(arguments.clone());
    }
    let result = call_tool(client, &server, request, |line| say(line.to_owned()))
        .await
        .map_err(|e| format!("calling `{}` failed: {e}", invocation.tool))?;
    Ok(result)
}

/// Opens a URL the user consented to, with the program named in `ELICIT_BROWSER` or else the
/// desktop's browser.
fn open_in_browser(url: &str) -> io::Result<()> {
    match std::env::var_os(BROWSER_VARIABLE) {
        Some(program) if !program.is_empty() => {
            open::with_detached(url, program.to_string_lossy().into_owned())
        }
        _ => open::that_detached(url),
    }
}

/// The host's own loop: draws the form in front (or what the call waits for), hands it the
/// keys, and sends its answer back once it is done. Gives what the call said, to be shown
/// once the screen is closed.
fn run_screen(
    waiting: &str,
    inbox: Receiver<ToScreen>,
    gave_up: oneshot::Sender<()>,
) -> io::Result<Vec<String>> {
    let mut terminal = open_screen()?;
    let outcome = screen_loop(&mut terminal, waiting, &inbox, gave_up);
    close_screen(&mut terminal)?;
    outcome
}

fn screen_loop(
    terminal: &mut Terminal<CrosstermBackend<Stderr>>,
    waiting: &str,
    inbox: &Receiver<ToScreen>,
    gave_up: oneshot::Sender<()>,
) -> io::Result<Vec<String>> {
    let mut queue: VecDeque<(Box<ElicitWidget>, oneshot::Sender<ElicitResult>)> = VecDeque::new();
    let mut gave_up = Some(gave_up);
    // What the call said it waits for, oldest first, under the line it started with.
    let mut said = vec![waiting.to_owned()];
    loop {
        loop {
            match inbox.try_recv() {
                Ok(ToScreen::Ask { widget, reply }) => queue.push_back((widget, reply)),
                Ok(ToScreen::Say(line)) => said.push(line),
                Ok(ToScreen::Finished) | Err(TryRecvError::Disconnected) => return Ok(said),
                Err(TryRecvError::Empty) => break,
            }
        }
        terminal.draw(|frame| match queue.front_mut() {
            Some((widget, _)) => frame.render_widget(&mut **widget, frame.area()),
            None => frame.render_widget(
                Paragraph::new(format!("{}\n\nCtrl-C gives up.", said.join("\n")))
                    .wrap(Wrap { trim: true }),
                frame.area(),
            ),
        })?;
        if !event::poll(TICK)? {
            continue;
        }
        let Event::Key(key) = event::read()? else {
            continue;
        };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        match queue.front_mut() {
            Some((widget, _)) => {
                if let Status::Done(result) = widget.handle_key(key)
                    && let Some((widget, reply)) = queue.pop_front()
                {
                    if let Some(url) = widget.consented_url() {
                        said.push(match open_in_browser(url) {
                            Ok(()) => format!("Opened {url} in the browser."),
                            Err(error) => {
                                format!("The browser did not open ({error}): open {url} yourself.")
                            }
                        });
                    }
                    // The server may have given up on this form meanwhile: nothing to do.
                    let _ = reply.send(result);
                }
            }
            None if key.code == KeyCode::Char('c')
                && key.modifiers.contains(KeyModifiers::CONTROL) =>
            {
                if let Some(gave_up) = gave_up.take() {
                    let _ = gave_up.send(());
                }
            }
            None => {}
        }
    }
}

fn open_screen() -> io::Result<Terminal<CrosstermBackend<Stderr>>> {
    enable_raw_mode()?;
    let mut stderr = io::stderr();
    execute!(stderr, EnterAlternateScreen)?;
    Terminal::new(CrosstermBackend::new(stderr))
}

fn close_screen(terminal: &mut Terminal<CrosstermBackend<Stderr>>) -> io::Result<()> {
    disable_raw_mode()?;
    execute!(terminal.backend_mut(), LeaveAlternateScreen)?;
    terminal.show_cursor()
}
