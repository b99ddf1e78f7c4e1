//! The client side of elicitation: validating an incoming `elicitation/create` against what the
//! client declared, preparing a form's answer (defaults filled in, content validated), reviewing
//! a URL before asking the user's consent, and following completion notifications.
//!
//! ```
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::wire::{ElicitRequestParams, ElicitationCapability};
//! use elicit_mcp::client::{UrlReview, validate_request};
//!
//! let declared = ElicitationCapability::form_and_url();
//! let params = serde_json::json!({
//!     "mode": "url",
//!     "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
//!     "url": "https://mcp.example.com/ui/set_api_key",
//!     "message": "Please provide your API key to continue."
//! });
//! let ElicitRequestParams::Url(url) = validate_request(&params, Some(&declared)).unwrap() else {
//!     unreachable!()
//! };
//! let review = UrlReview::of(&url).unwrap();
//! assert_eq!(review.registrable_domain(), Some("example.com"));
//! assert!(review.warnings().is_empty());
//! // Show `review` and `url.message()`, and open `review.url()` only after the user consents.
//! # }
//! ```
//!
//! A link built to deceive, as a client should show it (the host as the user reads it, and what is
//! wrong with it):
//!
//! ```
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::client::{UrlReview, UrlWarning, validate_request};
//! use elicit_mcp::wire::{ElicitRequestParams, ElicitationCapability};
//!
//! let params = serde_json::json!({
//!     "mode": "url",
//!     "elicitationId": "e-1",
//!     "url": "http://github.com@login.xn--pple-43d.com/connect?step=1",
//!     "message": "Sign in to connect your account."
//! });
//! let declared = ElicitationCapability::form_and_url();
//! let ElicitRequestParams::Url(url) = validate_request(&params, Some(&declared)).unwrap() else {
//!     unreachable!()
//! };
//! let review = UrlReview::of(&url).unwrap();
//! assert_eq!(review.host_unicode(), "login.\u{430}pple.com"); // a Cyrillic "а"
//! let warnings = review.warnings();
//! assert!(warnings.iter().any(|w| matches!(w, UrlWarning::NotHttps)));
//! assert!(warnings.iter().any(|w| matches!(w, UrlWarning::Userinfo { .. })));
//! assert!(warnings.iter().any(|w| matches!(w, UrlWarning::Punycode { .. })));
//! # }
//! ```
//!
//! # Renderers
//!
//! Two renderers answer any request a client receives, derived or not, with the spec's client
//! rules built in: the server's identity (its `serverInfo`, as a `ServerIdentity`) on every form,
//! review and URL consent; every field checked by the same validator as the derive; a review of
//! every answer, any of which can be changed, before *Send*; a URL shown with its registrable
//! domain and every `UrlReview` warning, opened only on consent.
//!
//! **At the terminal** (feature `terminal`, the `terminal` module): line prompts on
//! [inquire](https://docs.rs/inquire), and [open](https://docs.rs/open) to hand a consented URL to
//! the desktop's browser (`ELICIT_BROWSER=program`, or `Renderer::with_opener`, replaces it). When
//! stdin is not a terminal, the call fails at once with `TerminalError::NotATerminal`.
//!
//! ```no_run
//! # #[cfg(feature = "terminal")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use elicit_mcp::client::{ServerIdentity, terminal::Renderer, validate_request};
//! use elicit_mcp::wire::ElicitationCapability;
//!
//! # let params = serde_json::json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}});
//! let request = validate_request(&params, Some(&ElicitationCapability::form_and_url()))?;
//! // Who asks: the `serverInfo` of the server's `initialize` result (with the feature `rmcp`,
//! // `ServerIdentity::from(&implementation)`), or the host's own name for the server.
//! let server = ServerIdentity::new("elicit-hotel").with_version("0.1.0");
//! let result = Renderer::new().elicit(&server, &request)?; // an ElicitResult: accept, decline or cancel
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "terminal"))]
//! # fn main() {}
//! ```
//!
//! **Inside a ratatui host** (feature `ratatui`, the `tui` module): `ElicitWidget`, the same rules
//! as a widget for hosts whose own event loop draws with [ratatui](https://ratatui.rs) 0.30, where
//! line prompts cannot be embedded. The host owns the loop: it passes key events (crossterm's
//! `KeyEvent`, through ratatui's re-export `ratatui::crossterm`, so there is one crossterm) to
//! `handle_key`, draws the widget into any `Rect`, and sends the `ElicitResult` of
//! `Status::Done`. The widget never reads the terminal, never blocks and never opens a URL.
//!
//! ```no_run
//! # #[cfg(feature = "ratatui")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use elicit_mcp::client::ServerIdentity;
//! use elicit_mcp::client::tui::{ElicitWidget, Status};
//! use elicit_mcp::client::validate_request;
//! use elicit_mcp::wire::{ElicitResult, ElicitationCapability};
//! use ratatui::crossterm::event::{self, Event};
//!
//! /// One elicitation answered in the host's own screen and loop.
//! fn answer(
//!     terminal: &mut ratatui::DefaultTerminal,
//!     mut widget: ElicitWidget,
//! ) -> std::io::Result<ElicitResult> {
//!     loop {
//!         // Anywhere in the host's layout: here, the whole frame.
//!         terminal.draw(|frame| frame.render_widget(&mut widget, frame.area()))?;
//!         if let Event::Key(key) = event::read()? {
//!             if let Status::Done(result) = widget.handle_key(key) {
//!                 // For a URL, `widget.consented_url()` is what the user agreed to open.
//!                 return Ok(result);
//!             }
//!         }
//!     }
//! }
//!
//! # let params = serde_json::json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}});
//! let request = validate_request(&params, Some(&ElicitationCapability::form_and_url()))?;
//! let server = ServerIdentity::new("elicit-hotel").with_version("0.1.0");
//! let widget = ElicitWidget::new(server, &request)?;
//! let mut terminal = ratatui::init();
//! let result = answer(&mut terminal, widget);
//! ratatui::restore();
//! println!("{}", serde_json::to_string(&result?)?);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "ratatui"))]
//! # fn main() {}
//! ```
//!
//! Each module's page says what each field kind looks like and shows the screens. Two example
//! clients of the repository use them: `terminal_client` and `tui_client` (its `CONTRIBUTING.md`
//! lists the commands), each an rmcp client that negotiates the revision as the official clients
//! do, calls a tool and answers its forms and URLs wherever they come: `elicitation/create`, an
//! input-required round, or a task's input request.

#[cfg(any(feature = "terminal", feature = "ratatui", feature = "page"))]
pub(crate) mod answer;
// The renderers' and the page's differential tests: forms of every field kind, typed texts.
#[cfg(all(test, any(feature = "terminal", feature = "ratatui", feature = "page")))]
pub(crate) mod differential;
mod identity;
#[cfg(feature = "url-mode")]
mod review;
mod validate;
#[cfg(feature = "url-mode")]
mod watch;

#[cfg(feature = "terminal")]
#[cfg_attr(docsrs, doc(cfg(feature = "terminal")))]
pub mod terminal;

#[cfg(feature = "ratatui")]
#[cfg_attr(docsrs, doc(cfg(feature = "ratatui")))]
pub mod tui;

pub use identity::ServerIdentity;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use review::{UrlReview, UrlReviewError, UrlWarning};
pub use validate::{InvalidElicitRequestError, accept_form, validate_request};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use watch::{Completion, UrlElicitationWatch, WatchFullError};
