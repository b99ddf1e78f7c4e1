//! The wire model: every message of elicitation as the spec writes it (revision 2025-11-25),
//! one file per message. Each type serializes into exactly the spec's JSON and reads it back.
//!
//! This is the bottom layer of the crate: it imports nothing from `server` or `client`, which
//! build on it. Its types are re-exported at the crate root.

mod capability;
mod form;
mod jsonrpc;
mod mode;
mod notification;
mod request;
mod result;
mod url;
mod url_required;

pub use capability::{ElicitationCapability, InvalidCapability, ModeNotSupported};
pub use form::ElicitRequestFormParams;
pub use jsonrpc::{JsonRpcError, RequestId};
pub use mode::ElicitMode;
pub(crate) use mode::UnknownMode;
pub use notification::{ElicitationCompleteNotification, ElicitationCompleteParams};
pub use request::{ElicitRequest, ElicitRequestParams};
pub use result::{ElicitAction, ElicitOutcome, ElicitResult, UnexpectedContent, UrlElicitOutcome};
#[cfg(feature = "url-mode")]
pub use url::RandomnessUnavailable;
pub use url::{ElicitRequestUrlParams, ElicitationId};
pub use url_required::{NotUrlElicitationRequired, UrlElicitationRequiredError};
