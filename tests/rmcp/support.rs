//! The shared test modules (`tests/support/`) this binary uses: only those, and each in full.

#[path = "../support/clock.rs"]
pub mod clock;
#[path = "../support/connect_page.rs"]
pub mod connect_page;
#[path = "../support/examples_built.rs"]
pub mod examples_built;
#[path = "../support/redis_server.rs"]
pub mod redis_server;
#[path = "../support/rmcp.rs"]
pub mod rmcp;
