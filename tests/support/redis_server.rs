//! The Redis server the Redis tests use: the one named by `REDIS_URL`. Without it they skip,
//! saying so on the terminal (past the test harness's capture), unless
//! `ELICIT_REQUIRE_REDIS` is set (as `.ci/redis` sets it), when a missing server is a failure.

use std::io::Write;

/// The server's URL, or `None` after printing that `test` was skipped.
pub fn url(test: &str) -> Option<String> {
    match std::env::var("REDIS_URL") {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var_os("ELICIT_REQUIRE_REDIS").is_none(),
                "ELICIT_REQUIRE_REDIS is set but REDIS_URL is not: {test} cannot run"
            );
            // Straight to the terminal: libtest captures `eprintln!` of passing tests.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: no Redis server; set REDIS_URL or run `bash .ci/redis cargo test`"
            );
            None
        }
    }
}

/// A key prefix no other test run uses, so tests sharing one Redis do not see each other.
pub fn fresh_prefix(test: &str) -> String {
    let random = elicit_mcp::ElicitationId::random().unwrap();
    format!("elicit-test:{test}:{}", &random.as_str()[..12])
}
