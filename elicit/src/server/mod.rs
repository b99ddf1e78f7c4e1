//! The server side of URL mode: the URL checks before sending, the `ElicitationTracker` that
//! binds each URL elicitation to its user and completes it only for that user, and the lint for
//! links in form-mode requests. All of it but the lint and who a request stands for comes with
//! the feature `url-mode` (a default feature).
//!
//! The tracker keeps pending elicitations in an `ElicitationStore`: `MemoryStore` for one
//! process, or `RedisStore` (feature `redis`) for a server running as several replicas, which
//! also routes each completion to the replica holding the session that started it.
//!
#![doc = include_str!("../docs/server.md")]

#[cfg(any(feature = "rmcp", feature = "redis"))]
mod cipher;
#[cfg(feature = "url-mode")]
mod clock;
mod credentials;
mod debug_message;
#[cfg(any(feature = "rmcp", feature = "redis"))]
mod hex;
mod identity;
mod links;
#[cfg(feature = "url-mode")]
mod memory_store;
#[cfg(feature = "url-mode")]
mod policy;
#[cfg(any(feature = "page", feature = "oauth"))]
mod reachable;
#[cfg(feature = "redis")]
pub(crate) mod redis_store;
mod replay;
#[cfg(feature = "page")]
pub(crate) mod secure_forms;
#[cfg(feature = "url-mode")]
mod store;
mod store_error;
#[cfg(feature = "url-mode")]
mod tracker;
mod ttl;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use clock::{Clock, SystemClock};
pub use credentials::{CredentialStore, MemoryCredentials};
pub(crate) use debug_message::debug_as_message;
pub use identity::{ConnectionId, EmptyUserIdError, Initiator, UserId};
pub use links::{LinkInForm, links_in_form};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use memory_store::MemoryStore;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use policy::{CheckedUrl, Environment, UnsafeUrlError, UrlNotice, UrlPolicy};
#[cfg(any(feature = "page", feature = "oauth"))]
pub(crate) use reachable::unreachable;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis_store::{
    AtRestKeyError, AtRestKeys, Completions, RedisCredentials, RedisStore, Routed,
};
#[cfg(all(feature = "redis", feature = "rmcp"))]
pub(crate) use redis_store::{TaskMessages, TaskRecord};
pub use replay::{MemoryReplayGuard, ReplayGuard};
#[cfg(feature = "page")]
pub(crate) use secure_forms::{
    FormCheck, NotTaken, PageAnswer, PageForm, Showing, same_text, wipe_content,
};
#[cfg(feature = "page")]
#[cfg_attr(docsrs, doc(cfg(feature = "page")))]
pub use secure_forms::{PageUrlError, SecureForms};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use store::{AwaitedBy, ElicitationStore, EntryState, Inserted, PendingEntry};
pub use store_error::StoreError;
pub use ttl::TtlTooLarge;
#[cfg(any(feature = "rmcp", feature = "page"))]
pub(crate) use ttl::checked_ttl;
pub(crate) use ttl::ends_at;

#[cfg(any(feature = "rmcp", feature = "redis"))]
pub(crate) use cipher::Keyring;
#[cfg(feature = "rmcp")]
pub(crate) use cipher::MIN_KEY_BYTES;
#[cfg(feature = "redis")]
pub(crate) use cipher::bound_to;
#[cfg(any(feature = "rmcp", feature = "redis"))]
pub(crate) use hex::lower_hex;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use tracker::{
    Addressed, Collected, CompletedElicitation, CompletionError, ElicitationTracker,
    PendingUrlElicitation, PreparedUrlElicitation, StartError, StartUrl,
};
