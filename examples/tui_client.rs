//! A full-screen MCP client on rmcp and ratatui that calls one tool of a stdio server and
//! answers the server's forms in `elicit_mcp::client::tui::ElicitWidget`, inside its own
//! ratatui event loop: the way a ratatui host embeds the widget.
//!
//! ```sh
//! cargo run -p elicit-examples --features tui --example tui_client -- [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]
//!
//! cargo run -p elicit-examples --features tui --example tui_client -- book_room cargo run --quiet -p elicit-examples --features rmcp --example stdio_server
//! ```
//!
//! The server is started as a child process speaking MCP on its stdin and stdout. The client
//! declares form mode on protocol 2025-11-25; each `elicitation/create` is checked as the spec
//! requires, then shown in the widget under the server's `serverInfo` until the user sends,
//! declines or cancels. The screen is drawn on stderr, so the tool's result, printed once the
//! screen is closed, is all that reaches stdout (one text block a line); the exit status is 1
//! when the tool reports an error. Esc or Ctrl-C cancels a form; Ctrl-C while no form is
//! shown gives up the call. Where stdin is not a terminal it fails at once, before starting
//! the server.

use std::collections::VecDeque;
use std::error::Error;
use std::io::{self, IsTerminal, Stderr};
use std::process::{ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Duration;

use elicit_examples::clients::{Invocation, server_identity};
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
use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleClient};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use tokio::sync::oneshot;

const USAGE: &str = "usage: tui_client [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]";

/// How often the screen looks for a new form while no key comes.
const TICK: Duration = Duration::from_millis(50);

/// What the screen is told by the MCP side.
enum ToScreen {
    /// A form to answer, and where its answer goes.
    Ask {
        widget: Box<ElicitWidget>,
        reply: oneshot::Sender<ElicitResult>,
    },
    /// The call is over: the screen closes.
    Finished,
}

/// Hands each elicitation to the screen and waits for the user's answer.
struct TuiClient {
    screen: mpsc::Sender<ToScreen>,
    /// What the user called the server: its name should it give no `serverInfo`.
    server_as_called: ServerIdentity,
}

impl ClientHandler for TuiClient {
    fn get_info(&self) -> ClientConfig {
        let capabilities =
            ClientCapabilities::try_from(&ElicitationCapability::form()).unwrap_or_default();
        ClientConfig::new(
            capabilities,
            Implementation::new("elicit-tui-client", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let request = ElicitRequestParams::try_from(&request)?;
        if let Err(not_declared) =
            ElicitationCapability::require(Some(&ElicitationCapability::form()), request.mode())
        {
            return Err(ErrorData::invalid_params(not_declared.to_string(), None));
        }
        let server = server_identity(&context.peer, &self.server_as_called);
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
    screen.await??;
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
    let mut command = tokio::process::Command::new(&invocation.server[0]);
    command.args(&invocation.server[1..]);
    // The server's stderr would write over the full-screen form.
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", invocation.server[0]))?;
    let client = TuiClient {
        screen,
        server_as_called: ServerIdentity::new(invocation.server.join(" ")),
    }
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
    client.cancel().await?;
    Ok(result)
}

/// The host's own loop: draws the form in front (or a waiting line), hands it the keys, and
/// sends its answer back once it is done.
fn run_screen(
    waiting: &str,
    inbox: Receiver<ToScreen>,
    gave_up: oneshot::Sender<()>,
) -> io::Result<()> {
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
) -> io::Result<()> {
    let mut queue: VecDeque<(Box<ElicitWidget>, oneshot::Sender<ElicitResult>)> = VecDeque::new();
    let mut gave_up = Some(gave_up);
    loop {
        loop {
            match inbox.try_recv() {
                Ok(ToScreen::Ask { widget, reply }) => queue.push_back((widget, reply)),
                Ok(ToScreen::Finished) | Err(TryRecvError::Disconnected) => return Ok(()),
                Err(TryRecvError::Empty) => break,
            }
        }
        terminal.draw(|frame| match queue.front_mut() {
            Some((widget, _)) => frame.render_widget(&mut **widget, frame.area()),
            None => frame.render_widget(
                Paragraph::new(format!("{waiting}\n\nCtrl-C gives up.")).wrap(Wrap { trim: true }),
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
                    && let Some((_, reply)) = queue.pop_front()
                {
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
