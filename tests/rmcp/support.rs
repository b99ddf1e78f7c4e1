//! The shared test modules (`tests/support/`) this binary uses: only those, and each in full.

#[path = "../support/browser.rs"]
pub mod browser;
#[path = "../support/clock.rs"]
pub mod clock;
#[path = "../support/connect_page.rs"]
pub mod connect_page;
#[path = "../support/examples_built.rs"]
pub mod examples_built;
// The load run's full plan is the bench's (`benches/load.rs`); the short one runs here.
#[cfg(target_os = "linux")]
#[path = "../support/load/mod.rs"]
pub mod load;
#[cfg(target_os = "linux")]
#[path = "../support/redis_cluster.rs"]
pub mod redis_cluster;
#[path = "../support/redis_restart.rs"]
pub mod redis_restart;
#[path = "../support/redis_server.rs"]
pub mod redis_server;
#[path = "../support/rmcp.rs"]
pub mod rmcp;
