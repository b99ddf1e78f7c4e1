//! The rmcp integration: conversions to and from rmcp's model, `ElicitPeer` end to end, one
//! handler on both protocol revisions (`Elicitation`, `Ask`), URL mode through rmcp, the bytes a
//! client receives, the HTTP guard on loopback, the rmcp examples in-process, and two example
//! server processes sharing one Redis.
//!
//! One test binary, so that the crates it links are built once.

// The examples' own sources, run in-process by `examples`, `tasks` and `http_guard`, so that
// what the tests check is what a reader of the examples runs; their `main`s are not called.
#[allow(dead_code)]
#[path = "../../examples/conformance_server.rs"]
mod conformance_server;

#[allow(dead_code)]
#[path = "../../examples/conformance_client.rs"]
mod conformance_client;

#[allow(dead_code)]
#[path = "../../examples/stdio_server.rs"]
mod stdio_server;

#[allow(dead_code)]
#[path = "../../examples/url_mode_server.rs"]
mod url_mode_server;

// The other examples that derive forms, for their forms alone (`example_forms`).
#[allow(dead_code)]
#[path = "../../examples/contact.rs"]
mod contact;

#[allow(dead_code)]
#[path = "../../examples/http_server.rs"]
mod http_server;

#[allow(dead_code)]
#[path = "../../examples/authorized_server.rs"]
mod authorized_server;

mod authorized;
mod convert;
mod e2e;
mod example_forms;
mod examples;
mod forwarding;
mod http_guard;
mod http_sessions;
mod oauth;
mod one_server;
mod page_login;
mod redis_commands;
mod replicas;
mod rounds;
mod secure_page;
mod task_asks;
mod task_replicas;
mod task_runtime;
mod task_url;
mod tasks;
mod url_rounds;
mod wire_order;
