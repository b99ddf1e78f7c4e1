//! The runnable examples of `elicit` (see the table of examples in CONTRIBUTING.md). Each
//! example is a target of this package, and the integration tests of the workspace's root
//! package compile the same sources to check what they send and answer. This library holds
//! what the examples share: the loopback checks of clients and servers, and (feature `rmcp`)
//! the setup of the servers on streamable HTTP in [`http`] and the clients' command line in
//! [`clients`].

#[cfg(feature = "rmcp")]
pub mod calendar;
#[cfg(feature = "rmcp")]
pub mod clients;
#[cfg(feature = "rmcp")]
pub mod http;
#[cfg(feature = "rmcp")]
pub mod keys;
mod loopback;

pub use loopback::{check_loopback, listen_address};
