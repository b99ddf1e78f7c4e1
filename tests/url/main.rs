//! URL mode on the server: the URL policy and the tracker, one test per MUST of the spec; the
//! Redis store across replicas, on one server and on a cluster; the connect-page example end
//! to end; and no input to a URL-mode or protocol entry point panicking.
//!
//! One test binary, so that the crates it links are built once.

// The example's own source, run in-process by `connect`; its `main` is not called.
#[allow(dead_code)]
#[path = "../../examples/url_connect.rs"]
mod url_connect;

mod connect;
mod no_panic;
mod redis_cluster;
mod redis_store;
mod server;
