//! Elicitation on [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK (feature `rmcp`).
//!
#![doc = include_str!("../docs/rmcp.md")]
#![doc = include_str!("../docs/revisions.md")]

pub(crate) mod ask;
// Who the user of an HTTP request is: rmcp's `Elicitation` holds the check, and the HTTP guard
// (`crate::http`, which re-exports it) runs it.
#[cfg(feature = "http")]
pub(crate) mod authenticate;
mod call;
mod convert;
mod elicitation;
mod error;
pub(crate) mod kind;
mod peer;
pub(crate) mod revision;
mod running;
mod served;
mod task_inputs;
mod tasks;
#[cfg(feature = "url-mode")]
mod tracking;
mod waiting;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use ask::UrlOutcome;
pub use ask::{Ask, AskableForm, FormAsk};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use peer::ConnectionPeers;
pub use convert::{InvalidResultError, NotElicitationCompleteError, UnrepresentableError};
pub use elicitation::{Elicitation, SetupError};
pub use error::ElicitError;
pub use peer::ElicitPeer;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use peer::{ElicitUrlPeer, UrlElicitation};
pub use revision::v2026_07_28::{ParsedKeyring, RequestStateSeal, SealKeyError};
#[cfg(feature = "http")]
pub(crate) use served::Serving;
pub use served::{Elicited, ServeError};
pub use tasks::{TaskSetupError, TaskSupport, Tasks};
