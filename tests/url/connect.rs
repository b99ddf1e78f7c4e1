//! Runs `examples/url_connect.rs` in-process: a connect page on 127.0.0.1 that checks the
//! user, completes the elicitation and notifies the starting connection, and a client that
//! retries once notified. Nothing leaves loopback.

use crate::url_connect;

#[test]
fn the_url_connect_example_runs_the_whole_flow() {
    let outcome = url_connect::run().unwrap_or_else(|e| panic!("the example failed: {e}"));
    assert_eq!(outcome.first_call_code, -32042);
    // The spec's phishing attack: another user's browser is refused.
    assert_eq!(outcome.other_user_status, 403);
    assert!(!outcome.other_connection_notified);
    // The user who started it completes it, and the retried call succeeds.
    assert_eq!(outcome.user_status, 200);
    assert_eq!(
        outcome.retried_result,
        "3 files, listed with example-co-token"
    );
    // The link works once.
    assert_eq!(outcome.replay_status, 404);
    let transcript = outcome.transcript.join("\n");
    assert!(transcript.contains("site: 127.0.0.1"), "{transcript}");
    assert!(
        transcript.contains("notifications/elicitation/complete"),
        "{transcript}"
    );
}
