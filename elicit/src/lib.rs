// The crate page is the package's README, so crates.io and docs.rs show the same text and its
// examples run as doc tests. The derive's reference is on its own page (`derive.md`).
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// No unsafe code of our own: the fuzzing in CI relies on it (see .ci/fuzz).
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod client;
mod form;
pub mod schema;
pub mod server;
pub mod wire;

#[doc(hidden)]
pub mod __private;

// The fuzz targets' way in (`fuzz/` at the repository's root); `cargo fuzz` sets `fuzzing`.
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod __fuzz;

#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub mod rmcp;

#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;

#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub mod oauth;

#[cfg(feature = "page")]
#[cfg_attr(docsrs, doc(cfg(feature = "page")))]
pub mod page;

// The derive's reference, on the page users open; its examples run as this crate's doc tests.
// (One fragment: with several, rustdoc names the tests after lines of this file.)
#[doc = include_str!("derive.md")]
pub use elicit_mcp_derive::Elicit;
pub use form::defaults::{DefaultFrom, FormDefault, FormDefaults};
pub use form::elicit::{ClientForm, Elicit, HasMessage, defaults_of};
pub use form::error::{ContentError, FieldError, Problem};
pub use form::field::{ElicitChoice, ElicitField, ElicitValue, Secret};
pub use form::outcome::{ElicitOutcome, UnexpectedContentError, UrlConsent};
pub use form::typed::{Email, InvalidEmail};
