//! `examples/authorized_server` end to end, against the test OpenID provider (`.ci/oidc`): the
//! official Python client signs its users in with its own OAuth client provider (from the 401's
//! `resource_metadata` to the provider, dynamic registration, the code flow with PKCE), each
//! user's sign-in in their own headless Chromium context, and the same browsers answer the
//! secure page through its login at the same provider. What the users are is what the server
//! verified: alice's `whoami` is the provider's issuer and her `sub`; bob is refused alice's
//! page, and his token is refused alice's 2025-11-25 session.
//!
//! Run under the provider: `bash .ci/oidc cargo test --test rmcp authorized -- --ignored`.

#![cfg(target_os = "linux")]

use elicit_mcp::server::UserId;
use elicit_test_support::load::server::ServerProcess;

use crate::examples::python_script;
use crate::secure_page::{python_with_playwright, which_chromium};

const NEEDS_PROVIDER: &str = "ELICIT_OIDC_ISSUER is not set: run under `bash .ci/oidc`";

/// The calendar key alice types on the page.
const KEY: &str = "sk-authorized-5e4d3c2b1a";

/// The provider's variable `name`, which `.ci/oidc` exports.
fn provider(name: &str) -> String {
    std::env::var(name).expect(NEEDS_PROVIDER)
}

/// What the script must print on `revision` (`legacy` adds the session's checks), the users'
/// ids as the library writes them.
fn expected_lines(issuer: &str, revision: &str, legacy: bool) -> Vec<String> {
    let alice = UserId::from_issuer_and_subject(issuer, "alice").unwrap();
    let bob = UserId::from_issuer_and_subject(issuer, "bob").unwrap();
    let mut lines = vec![
        format!("bob: revision {revision}"),
        format!("bob: whoami {bob}"),
        format!("alice: revision {revision}"),
        format!("alice: whoami {alice}"),
        format!(
            "alice: book Booked the suite with a terrace for {alice}: 3 nights from 2026-09-14."
        ),
        "page: bob refused after his sign-in".to_owned(),
        "page: alice's form sent".to_owned(),
        format!(
            "alice: connect_calendar Connected {alice}'s calendar \"Work\" with a key of {} characters.",
            KEY.len()
        ),
    ];
    if legacy {
        lines.push(
            "session: bob's token on alice's session: POST 404, GET 404, DELETE 404".to_owned(),
        );
        lines.push(format!("alice: whoami on her session still {alice}"));
    }
    lines
}

#[test]
#[ignore = "needs the test OpenID provider (run under `bash .ci/oidc`, which installs it from npm), Debian's chromium (bash .ci/chromium), python3 with venv and network access to PyPI (it installs mcp==2.3.0 and playwright==1.65.3 into a venv under the temp dir); run with --ignored"]
fn the_official_python_client_signs_in_through_oauth_and_chromium_answers_the_page_on_both_revisions()
 {
    let issuer = provider("ELICIT_OIDC_ISSUER");
    let client_id = provider("ELICIT_OIDC_PAGE_CLIENT_ID");
    let client_secret = provider("ELICIT_OIDC_PAGE_CLIENT_SECRET");
    let python = python_with_playwright();
    let chromium = which_chromium();
    for (mode, revision) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        // A server of its own for each revision: it keeps alice's key once she gave it, and
        // the second revision's call would find it instead of asking on the page.
        let server = ServerProcess::start(
            "authorized_server",
            &[
                "--issuer",
                &issuer,
                "--page-client-id",
                &client_id,
                "--page-client-secret",
                &client_secret,
                "127.0.0.1:0",
            ],
        );
        let client = std::process::Command::new(&python)
            .arg(python_script("authorized_server.py"))
            .args([server.url(), mode, &issuer, &chromium, KEY])
            .output()
            .expect("the Python client runs");
        drop(server);
        let printed = String::from_utf8_lossy(&client.stdout);
        let stderr = String::from_utf8_lossy(&client.stderr);
        assert!(
            client.status.success(),
            "the client failed on {revision}:\n{printed}\n{stderr}"
        );
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(
            lines,
            expected_lines(&issuer, revision, mode == "legacy"),
            "on {revision}; the client's stderr:\n{stderr}"
        );
    }
}
