//! The rmcp integration: conversions to and from rmcp's model, `ElicitPeer` end to end, one
//! handler on both protocol revisions (`Elicitation`, `Ask`), URL mode through rmcp, the bytes a
//! client receives, the HTTP guard on loopback, the rmcp examples in-process, and two example server processes sharing
//! one Redis.
//!
//! One test binary, so that the crates it links are built once.

// The examples' sources, run in-process by `examples`; their `main`s are not. Declared in this
// file because from `tests/` the examples are one folder up, and `.ci/run` refuses a path that
// climbs two.
#[allow(dead_code)]
#[path = "../examples/conformance_server.rs"]
mod conformance_server;

#[allow(dead_code)]
#[path = "../examples/conformance_client.rs"]
mod conformance_client;

#[allow(dead_code)]
#[path = "../examples/stdio_server.rs"]
mod stdio_server;

#[allow(dead_code)]
#[path = "../examples/url_mode_server.rs"]
mod url_mode_server;

#[path = "rmcp/convert.rs"]
mod convert;
#[path = "rmcp/e2e.rs"]
mod e2e;
#[path = "rmcp/examples.rs"]
mod examples;
#[path = "rmcp/http_guard.rs"]
mod http_guard;
#[path = "rmcp/one_server.rs"]
mod one_server;
#[path = "rmcp/replicas.rs"]
mod replicas;
#[path = "rmcp/rounds.rs"]
mod rounds;
#[path = "rmcp/secure_page.rs"]
mod secure_page;
#[path = "rmcp/task_asks.rs"]
mod task_asks;
#[path = "rmcp/task_replicas.rs"]
mod task_replicas;
#[path = "rmcp/task_runtime.rs"]
mod task_runtime;
#[path = "rmcp/task_url.rs"]
mod task_url;
#[path = "rmcp/tasks.rs"]
mod tasks;
#[path = "rmcp/url_rounds.rs"]
mod url_rounds;
#[path = "rmcp/wire_order.rs"]
mod wire_order;
