//! A terminal renderer for elicitation requests (feature `terminal`): any form-mode
//! `requestedSchema` becomes a sequence of interactive prompts, and a URL-mode request a
//! consent prompt that shows what the link is before anything opens.
//!
#![doc = include_str!("../../docs/terminal.md")]

mod form;
mod style;
mod url;

use std::fmt;
use std::io::{self, IsTerminal};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use inquire::InquireError;

use crate::client::{ServerIdentity, UrlReviewError};
use crate::schema::RequestedSchema;
use crate::wire::ElicitResult;
use crate::wire::{ElicitRequestParams, ElicitRequestUrlParams};

/// The environment variable naming a program to open consented URLs with, in place of the
/// desktop's default browser (see [`Renderer::new`]).
pub const BROWSER_VARIABLE: &str = "ELICIT_BROWSER";

/// Opens a URL the user consented to.
type Opener = dyn Fn(&str) -> io::Result<()> + Send + Sync;

/// Renders elicitation requests on the terminal. Cheap to clone; holds only how consented URLs
/// are opened. Renderings from several threads take turns: one elicitation is on the terminal
/// at a time.
///
/// ```no_run
/// use elicit_mcp::client::ServerIdentity;
/// use elicit_mcp::client::terminal::Renderer;
/// use elicit_mcp::schema::RequestedSchema;
///
/// let schema: RequestedSchema = serde_json::from_str(r#"{"type": "object", "properties": {
///     "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 30, "default": 1}
/// }}"#)?;
/// let server = ServerIdentity::new("elicit-hotel");
/// let result = Renderer::new().form(&server, "How long do you stay?", &schema)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Renderer {
    opener: Arc<Opener>,
}

impl fmt::Debug for Renderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl Renderer {
    /// A renderer that opens consented URLs in the desktop's default browser (through the
    /// [`open`](https://docs.rs/open) crate), or, when the environment variable
    /// [`ELICIT_BROWSER`](BROWSER_VARIABLE) names a program, by running that program with the
    /// URL as its one argument.
    pub fn new() -> Self {
        Renderer {
            opener: Arc::new(open_in_browser),
        }
    }

    /// The same renderer, opening consented URLs with `opener` instead: an embedding host's own
    /// browser, or a recorder in tests. `opener` is called only after the user chose to open
    /// the URL, with the normalized URL of its [`UrlReview`](crate::client::UrlReview).
    ///
    /// ```
    /// use elicit_mcp::client::terminal::Renderer;
    /// let renderer = Renderer::new().with_opener(|url| {
    ///     eprintln!("would open {url}");
    ///     Ok(())
    /// });
    /// # drop(renderer);
    /// ```
    pub fn with_opener(
        mut self,
        opener: impl Fn(&str) -> io::Result<()> + Send + Sync + 'static,
    ) -> Self {
        self.opener = Arc::new(opener);
        self
    }

    /// Renders a checked `elicitation/create` request (see
    /// [`validate_request`](crate::client::validate_request)) from `server` in its mode.
    pub fn elicit(
        &self,
        server: &ServerIdentity,
        request: &ElicitRequestParams,
    ) -> Result<ElicitResult, TerminalError> {
        match request {
            ElicitRequestParams::Form(form) => {
                self.form(server, &form.message, &form.requested_schema)
            }
            ElicitRequestParams::Url(url) => self.url(server, url),
        }
    }

    /// Renders a form from `server`: who asks and the message, then one prompt per property,
    /// then the answers for review, with the choice to send them, change any, decline or
    /// cancel. The result is an accept whose content the schema's validator passed, a decline
    /// or a cancel.
    pub fn form(
        &self,
        server: &ServerIdentity,
        message: &str,
        schema: &RequestedSchema,
    ) -> Result<ElicitResult, TerminalError> {
        require_terminal()?;
        let _turn = take_turn();
        form::render(server, message, schema)
    }

    /// Renders a URL-mode request from `server`: who asks, the message, the URL reviewed, and
    /// the choice to open it, to take the link without opening it, to decline or to cancel.
    /// Opening or taking the link is an accept (the user consented to go there); nothing is
    /// opened otherwise.
    pub fn url(
        &self,
        server: &ServerIdentity,
        params: &ElicitRequestUrlParams,
    ) -> Result<ElicitResult, TerminalError> {
        require_terminal()?;
        let _turn = take_turn();
        url::render(server, params, &*self.opener)
    }
}

/// Renders a checked request from `server` with a default [`Renderer`].
pub fn elicit(
    server: &ServerIdentity,
    request: &ElicitRequestParams,
) -> Result<ElicitResult, TerminalError> {
    Renderer::new().elicit(server, request)
}

/// Why a request could not be rendered. The user's own endings (decline, cancel, Esc, Ctrl-C)
/// are results, not errors.
#[derive(Debug)]
#[non_exhaustive]
pub enum TerminalError {
    /// Stdin is not a terminal, so there is nobody to answer the prompts.
    NotATerminal,
    /// The URL of a URL-mode request cannot be offered for opening at all.
    InvalidUrl(UrlReviewError),
    /// Reading from or drawing on the terminal failed.
    Io(io::Error),
}

impl fmt::Display for TerminalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TerminalError::NotATerminal => f.write_str(
                "stdin is not a terminal: an elicitation needs a person at a terminal to answer it",
            ),
            TerminalError::InvalidUrl(e) => {
                write!(f, "the elicitation's URL cannot be opened: {e}")
            }
            TerminalError::Io(e) => write!(f, "the terminal failed: {e}"),
        }
    }
}

impl std::error::Error for TerminalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TerminalError::InvalidUrl(e) => Some(e),
            TerminalError::Io(e) => Some(e),
            TerminalError::NotATerminal => None,
        }
    }
}

impl From<io::Error> for TerminalError {
    fn from(error: io::Error) -> Self {
        TerminalError::Io(error)
    }
}

/// How a prompt ended other than with an answer.
enum Stop {
    /// Esc or Ctrl-C: the whole elicitation is cancelled.
    Cancel,
    /// The terminal failed.
    Failed(TerminalError),
}

impl From<InquireError> for Stop {
    fn from(error: InquireError) -> Self {
        match error {
            InquireError::OperationCanceled | InquireError::OperationInterrupted => Stop::Cancel,
            InquireError::NotTTY => Stop::Failed(TerminalError::NotATerminal),
            InquireError::IO(e) => Stop::Failed(TerminalError::Io(e)),
            other => Stop::Failed(TerminalError::Io(io::Error::other(other.to_string()))),
        }
    }
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Self {
        Stop::Failed(TerminalError::Io(error))
    }
}

/// The result of an elicitation that ended early: a cancel, or the error.
fn stopped(stop: Stop) -> Result<ElicitResult, TerminalError> {
    match stop {
        Stop::Cancel => Ok(ElicitResult::cancel()),
        Stop::Failed(error) => Err(error),
    }
}

/// Checked before the first prompt: without it, the terminal backend would read keys from the
/// controlling terminal instead, or wait on a pipe that never sends any.
fn require_terminal() -> Result<(), TerminalError> {
    if io::stdin().is_terminal() {
        Ok(())
    } else {
        Err(TerminalError::NotATerminal)
    }
}

/// One elicitation on the terminal at a time, process-wide: a server may send several at once,
/// and two prompts drawn together would garble each other and split the user's keys. The
/// others wait their turn.
fn take_turn() -> MutexGuard<'static, ()> {
    static TERMINAL: Mutex<()> = Mutex::new(());
    TERMINAL.lock().unwrap_or_else(PoisonError::into_inner)
}

fn open_in_browser(url: &str) -> io::Result<()> {
    match std::env::var_os(BROWSER_VARIABLE) {
        Some(program) if !program.is_empty() => {
            open::with_detached(url, program.to_string_lossy().into_owned())
        }
        _ => open::that_detached(url),
    }
}
