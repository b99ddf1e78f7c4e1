//! The wire model: every message of elicitation as the spec writes it (revision 2025-11-25),
//! one file per message. Each type serializes into exactly the spec's JSON and reads it back.
//!
//! Most servers never name these types: the derive builds the requests and reads the results,
//! and the rmcp integration sends and receives them. They are here for a server on another
//! SDK, a client, or a test that checks the JSON itself.
//!
//! ```
//! use elicit_mcp::wire::{ElicitAction, ElicitResult};
//!
//! let result: ElicitResult = serde_json::from_str(r#"{"action":"decline"}"#).unwrap();
//! assert_eq!(result.action, ElicitAction::Decline);
//! ```
//!
//! What a client declared decides what a server may send. The capability reads as the spec
//! defines it: `{}` names no mode and means form mode only.
//!
//! ```
//! use elicit_mcp::wire::{ElicitMode, ElicitationCapability};
//!
//! let declared: ElicitationCapability = serde_json::from_str("{}").unwrap();
//! assert!(declared.supports(ElicitMode::Form));
//! assert!(!declared.supports(ElicitMode::Url));
//! assert_eq!(ElicitationCapability::form_and_url().modes(), [ElicitMode::Form, ElicitMode::Url]);
//! ```
//!
//! A low layer of the crate, on [`schema`](crate::schema) alone: the form runtime, `server` and
//! `client` build on it, and it imports none of them (checked by `.ci/layers`).

mod capability;
mod form;
#[cfg(feature = "url-mode")]
pub(crate) mod host;
mod jsonrpc;
mod mode;
mod notification;
mod request;
mod result;
mod url;
mod url_required;

pub use capability::{ElicitationCapability, InvalidCapabilityError, ModeNotSupportedError};
pub use form::ElicitRequestFormParams;
pub use jsonrpc::{JsonRpcError, RequestId};
pub use mode::ElicitMode;
pub(crate) use mode::UnknownMode;
pub use notification::{ElicitationCompleteNotification, ElicitationCompleteParams};
pub use request::{ElicitRequest, ElicitRequestParams};
pub use result::{ElicitAction, ElicitResult};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use url::RandomnessUnavailableError;
pub use url::{ElicitRequestUrlParams, ElicitationId};
pub use url_required::{NotUrlElicitationRequiredError, UrlElicitationRequiredError};
