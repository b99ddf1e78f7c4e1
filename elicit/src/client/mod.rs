//! The client side of elicitation: validating an incoming `elicitation/create` against what the
//! client declared, preparing a form's answer (defaults filled in, content validated), reviewing
//! a URL before asking the user's consent, and following completion notifications.
//!
#![doc = include_str!("../docs/client.md")]

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
