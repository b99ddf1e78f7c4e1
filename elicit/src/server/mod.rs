//! The server side of URL mode: the URL checks before sending, the `ElicitationTracker` that
//! binds each URL elicitation to its user and completes it only for that user, and the lint for
//! links in form-mode requests. All of it but the lint and who a request stands for comes with
//! the feature `url-mode` (a default feature).
//!
//! The tracker keeps pending elicitations in an `ElicitationStore`: `MemoryStore` for one
//! process, or `RedisStore` (feature `redis`) for a server running as several replicas, which
//! also routes each completion to the replica holding the session that started it.
//!
//! The pattern "this tool call needs third-party authorization first":
//!
//! ```
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::wire::{ElicitationCapability, JsonRpcError, UrlElicitationRequiredError};
//! use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let tracker = ElicitationTracker::new(UrlPolicy::production());
//! let client = ElicitationCapability::form_and_url();
//! let initiator = Initiator::new(
//!     UserId::from_verified_subject("alice-sub").unwrap(),
//!     ConnectionId::new("session-1"),
//! );
//!
//! // tools/call arrives; the server holds no Example Co token for this user yet.
//! let pending = tracker
//!     .start(&initiator, Some(&client), "Authorization is required to access your Example Co files.", |id| {
//!         format!("https://mcp.example.com/connect?elicitationId={id}")
//!     })
//!     .await
//!     .unwrap();
//! let error: JsonRpcError = pending.required_error("This request requires more information.").into();
//! assert_eq!(error.code, -32042);
//!
//! // The client reads it back, shows the URL, and retries once the completion notification
//! // for every listed id has come (see `elicit_mcp::client::UrlElicitationWatch`).
//! let required = UrlElicitationRequiredError::try_from(&error).unwrap();
//! assert_eq!(required.elicitations()[0].elicitation_id(), pending.id());
//! # });
//! # }
//! ```

#[cfg(any(feature = "rmcp", feature = "redis"))]
mod cipher;
#[cfg(feature = "url-mode")]
mod clock;
mod credentials;
mod identity;
mod links;
#[cfg(feature = "url-mode")]
mod memory_store;
#[cfg(feature = "url-mode")]
mod policy;
#[cfg(feature = "redis")]
mod redis_store;
mod replay;
#[cfg(feature = "page")]
mod secure_forms;
#[cfg(feature = "url-mode")]
mod store;
mod store_error;
#[cfg(feature = "url-mode")]
mod tracker;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use clock::{Clock, SystemClock};
pub use credentials::{CredentialStore, MemoryCredentials};
pub use identity::{ConnectionId, EmptyUserIdError, Initiator, UserId};
pub use links::{LinkInForm, links_in_form};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use memory_store::MemoryStore;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use policy::{CheckedUrl, Environment, UnsafeUrlError, UrlNotice, UrlPolicy};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis_store::{
    AtRestKeyError, AtRestKeys, Completions, RedisCredentials, RedisStore, Routed,
};
#[cfg(all(feature = "redis", feature = "rmcp"))]
pub(crate) use redis_store::{TaskMessages, TaskRecord};
pub use replay::{MemoryReplayGuard, ReplayGuard};
#[cfg(feature = "page")]
pub(crate) use secure_forms::{NotTaken, PageAnswer, PageForm, Showing};
#[cfg(feature = "page")]
#[cfg_attr(docsrs, doc(cfg(feature = "page")))]
pub use secure_forms::{PageUrlError, SecureForms};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use store::{AwaitedBy, ElicitationStore, EntryState, Inserted, PendingEntry};
pub use store_error::StoreError;

#[cfg(any(feature = "rmcp", feature = "redis"))]
pub(crate) use cipher::Keyring;
#[cfg(feature = "rmcp")]
pub(crate) use cipher::MIN_KEY_BYTES;
#[cfg(feature = "redis")]
pub(crate) use cipher::bound_to;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use tracker::{
    Addressed, Collected, CompletedElicitation, CompletionError, ElicitationTracker,
    PendingUrlElicitation, PreparedUrlElicitation, StartError, StartUrl,
};
