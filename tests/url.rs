//! URL mode on the server: the URL policy and the tracker, one test per MUST of the spec; the
//! Redis store across replicas, on one server and on a cluster; the connect-page example end
//! to end; and no input to a URL-mode or protocol entry point panicking.
//!
//! One test binary, so that the crates it links are built once.

// The example's source, run in-process by `connect`; its `main` is not. Declared in this file
// because from `tests/` the examples are one folder up, and `.ci/run` refuses a path that climbs
// two.
#[allow(dead_code)]
#[path = "../examples/url_connect.rs"]
mod url_connect;

#[path = "url/connect.rs"]
mod connect;
#[path = "url/no_panic.rs"]
mod no_panic;
#[path = "url/redis_cluster.rs"]
mod redis_cluster;
#[path = "url/redis_store.rs"]
mod redis_store;
#[path = "url/server.rs"]
mod server;
