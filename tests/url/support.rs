//! The shared test modules (`tests/support/`) this binary uses: only those, and each in full.

#[path = "../support/clock.rs"]
pub mod clock;
#[path = "../support/connect_page.rs"]
pub mod connect_page;
#[path = "../support/redis_cluster.rs"]
pub mod redis_cluster;
#[path = "../support/redis_restart.rs"]
pub mod redis_restart;
#[path = "../support/redis_server.rs"]
pub mod redis_server;
#[path = "../support/spec.rs"]
pub mod spec;
#[path = "../support/tracker.rs"]
pub mod tracker;
