//! What the workspace's integration tests (`tests/*/main.rs`, `tests/form-only`) and benches
//! share, one module per concern.
//!
//! The form helpers are always built. The helpers of the tests on servers (rmcp, URL mode,
//! Redis, the example processes) need the feature `rmcp`, which the root package turns on and
//! `tests/form-only` leaves off, so that its build keeps elicit-mcp's default features off.

// The forms and the spec.
pub mod differential;
pub mod forms;
pub mod spec;
pub mod spec_page;

// The servers: in-process, on loopback, and as processes of their own.
#[cfg(feature = "rmcp")]
pub mod browser;
#[cfg(feature = "rmcp")]
pub mod clock;
#[cfg(feature = "rmcp")]
pub mod connect_page;
#[cfg(feature = "rmcp")]
pub mod examples_built;
#[cfg(feature = "rmcp")]
pub mod load;
#[cfg(feature = "rmcp")]
pub mod redis_cluster;
#[cfg(feature = "rmcp")]
pub mod redis_restart;
#[cfg(feature = "rmcp")]
pub mod redis_server;
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(feature = "rmcp")]
pub mod tracker;
