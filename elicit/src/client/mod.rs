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

#[cfg(any(feature = "terminal", feature = "ratatui", feature = "page"))]
pub(crate) mod answer;
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
