//! The server side of URL mode, one test per MUST of the spec: the URL checks before sending,
//! the tracker's binding of each elicitation to its user, the phishing defence, single use,
//! expiry, addressing of the completion notification, and the capability gate.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use elicit_mcp::server::{
    Clock, CompletionError, ConnectionId, ElicitationStore, ElicitationTracker, Environment,
    Initiator, Inserted, MemoryStore, PendingEntry, StartError, StoreError, UnsafeUrlError,
    UrlNotice, UrlPolicy, UserId, links_in_form,
};
use elicit_mcp::wire::{
    ElicitMode, ElicitRequestFormParams, ElicitationCapability, ElicitationId, JsonRpcError,
    RequestId, UrlElicitationRequiredError,
};
use elicit_test_support::clock::TestClock;
use elicit_test_support::connect_page::connect_url;
use elicit_test_support::spec::assert_valid;
use elicit_test_support::tracker::{start, user};
use serde_json::json;

fn initiator(subject: &str, connection: &str) -> Initiator {
    Initiator::new(user(subject), ConnectionId::new(connection))
}

fn url_client() -> ElicitationCapability {
    ElicitationCapability::form_and_url()
}

fn tracker() -> ElicitationTracker {
    ElicitationTracker::with_store(MemoryStore::new(), UrlPolicy::production())
        .with_clock(TestClock::default())
}

// ---------------------------------------------------------------------------------------------
// Ids

#[test]
fn ids_carry_128_bits_of_os_randomness_and_do_not_repeat() {
    let ids: Vec<ElicitationId> = (0..2000)
        .map(|_| ElicitationId::random().unwrap())
        .collect();
    let distinct: std::collections::HashSet<&str> = ids.iter().map(ElicitationId::as_str).collect();
    assert_eq!(distinct.len(), ids.len());
    assert_eq!(ElicitationId::RANDOM_BITS, 128);
    let mut ones = [0u32; 128];
    for id in &ids {
        assert_eq!(id.as_str().len(), 32, "{id}");
        for (nibble, c) in id.as_str().chars().enumerate() {
            let value = c.to_digit(16).expect("lowercase hex") as u8;
            assert!(!c.is_ascii_uppercase());
            for bit in 0..4 {
                if value & (8 >> bit) != 0 {
                    ones[nibble * 4 + bit] += 1;
                }
            }
        }
    }
    // Every one of the 128 bits varies, about half the time: none is fixed or derived. With
    // 2000 fair draws a count outside 800..1200 has odds below 1e-18.
    for (bit, count) in ones.iter().enumerate() {
        assert!(
            (800..1200).contains(count),
            "bit {bit} set {count} times of 2000"
        );
    }
}

#[tokio::test]
async fn the_tracker_issues_fresh_random_ids() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    let a = start(&tracker, &alice).await.unwrap();
    let b = start(&tracker, &alice).await.unwrap();
    assert_ne!(a, b);
    assert_eq!(a.as_str().len(), 32);
}

// ---------------------------------------------------------------------------------------------
// The phishing defence

/// The server of the spec's "Phishing" section: its connect page completes an elicitation
/// and binds the third-party tokens it obtained to the elicitation's user.
struct BenignServer {
    tracker: ElicitationTracker,
    third_party_tokens: HashMap<UserId, String>,
}

impl BenignServer {
    /// The callback after the third-party authorization: `browser_user` is who the session
    /// cookie says opened the page, `token` what the third party granted that browser.
    async fn connect_callback(
        &mut self,
        id: &str,
        browser_user: &UserId,
        token: &str,
    ) -> Result<(), CompletionError> {
        let completed = self.tracker.complete(id, browser_user).await?;
        self.third_party_tokens
            .insert(completed.user().clone(), token.to_owned());
        Ok(())
    }
}

#[tokio::test]
async fn the_phishing_attack_of_the_spec_fails() {
    let mut server = BenignServer {
        tracker: tracker(),
        third_party_tokens: HashMap::new(),
    };
    // 1-3. Alice, a malicious user of the benign server, triggers an elicitation; her client
    //      shows her the URL.
    let alice = initiator("alice", "alice-connection");
    let id = start(&server.tracker, &alice).await.unwrap();
    // 4-5. Instead of opening it, she sends it to Bob, who opens it signed in as himself and
    //      completes the authorization with his third-party account.
    let bob = user("bob");
    let outcome = server
        .connect_callback(id.as_str(), &bob, "token-of-bobs-account")
        .await;
    // 6-7. Without the check the server would bind Bob's tokens to Alice: account takeover.
    assert!(
        matches!(outcome, Err(CompletionError::WrongUser)),
        "{outcome:?}"
    );
    assert_eq!(server.third_party_tokens.get(&alice.user), None);
    assert!(server.third_party_tokens.is_empty());

    // The elicitation is still Alice's to complete, with her own account.
    server
        .connect_callback(id.as_str(), &alice.user, "token-of-alices-account")
        .await
        .unwrap();
    assert_eq!(
        server
            .third_party_tokens
            .get(&alice.user)
            .map(String::as_str),
        Some("token-of-alices-account")
    );
}

#[tokio::test]
async fn the_connect_page_check_refuses_another_user_without_consuming() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    let id = start(&tracker, &alice).await.unwrap();
    assert!(matches!(
        tracker.verify(id.as_str(), &user("bob")).await,
        Err(CompletionError::WrongUser)
    ));
    let entry = tracker.verify(id.as_str(), &alice.user).await.unwrap();
    assert_eq!(entry.user, alice.user);
    assert_eq!(entry.connection, alice.connection);
    // Verifying twice is fine: only completion consumes.
    assert!(tracker.verify(id.as_str(), &alice.user).await.is_ok());
    assert!(tracker.complete(id.as_str(), &alice.user).await.is_ok());
}

#[tokio::test]
async fn an_id_guessed_by_another_user_completes_nothing() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    let id = start(&tracker, &alice).await.unwrap();
    let mallory = user("mallory");
    let real = id.as_str();
    let guesses = [
        "0".repeat(32),
        "550e8400-e29b-41d4-a716-446655440000".to_owned(),
        real[..31].to_owned(),
        format!("{real}0"),
        real.to_ascii_uppercase(),
        String::new(),
    ];
    for guess in &guesses {
        assert!(
            matches!(
                tracker.complete(guess, &mallory).await,
                Err(CompletionError::NotPending)
            ),
            "{guess}"
        );
        // Even the right user cannot complete by a near miss.
        assert!(
            tracker.complete(guess, &alice.user).await.is_err(),
            "{guess}"
        );
    }
    // With the real id in hand, Mallory is still not Alice.
    assert!(matches!(
        tracker.complete(real, &mallory).await,
        Err(CompletionError::WrongUser)
    ));
    assert!(tracker.complete(real, &alice.user).await.is_ok());
}

#[tokio::test]
async fn state_is_bound_to_the_user_not_to_the_session_id() {
    let tracker = tracker();
    // Two users behind the same session id (a reused or attacker-chosen one).
    let alice = initiator("alice", "shared-session");
    let bob = initiator("bob", "shared-session");
    let id = start(&tracker, &alice).await.unwrap();
    assert!(matches!(
        tracker.complete(id.as_str(), &bob.user).await,
        Err(CompletionError::WrongUser)
    ));
    assert!(tracker.complete(id.as_str(), &alice.user).await.is_ok());
    // And a user id must name someone.
    assert!(UserId::from_verified_subject("").is_err());
    assert!(UserId::from_verified_subject("  ").is_err());
}

// ---------------------------------------------------------------------------------------------
// Single use and expiry

#[tokio::test]
async fn a_replayed_completion_is_refused() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    let id = start(&tracker, &alice).await.unwrap();
    assert!(tracker.complete(id.as_str(), &alice.user).await.is_ok());
    assert!(matches!(
        tracker.complete(id.as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
    assert!(matches!(
        tracker.verify(id.as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
    assert!(tracker.store().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_completions_complete_once() {
    let tracker = Arc::new(tracker());
    let alice = initiator("alice", "conn-a");
    let id = start(&tracker, &alice).await.unwrap();
    let tasks = 8;
    let barrier = Arc::new(tokio::sync::Barrier::new(tasks));
    let handles: Vec<_> = (0..tasks)
        .map(|_| {
            let (tracker, barrier, id, user) = (
                tracker.clone(),
                barrier.clone(),
                id.clone(),
                alice.user.clone(),
            );
            tokio::spawn(async move {
                barrier.wait().await;
                tracker.complete(id.as_str(), &user).await.is_ok()
            })
        })
        .collect();
    let mut successes = 0;
    for handle in handles {
        successes += usize::from(handle.await.unwrap());
    }
    assert_eq!(successes, 1);
}

#[tokio::test]
async fn an_expired_elicitation_cannot_complete() {
    let clock = TestClock::default();
    let tracker = ElicitationTracker::with_store(MemoryStore::new(), UrlPolicy::production())
        .with_clock(clock.clone())
        .with_ttl(Duration::from_secs(60));
    let alice = initiator("alice", "conn-a");
    let pending = tracker
        .start(&alice, Some(&url_client()), "Connect", connect_url)
        .await
        .unwrap();
    assert_eq!(pending.expires_at(), clock.now() + Duration::from_secs(60));

    clock.advance(Duration::from_secs(59));
    assert!(
        tracker
            .verify(pending.id().as_str(), &alice.user)
            .await
            .is_ok()
    );
    clock.advance(Duration::from_secs(1));
    assert!(matches!(
        tracker.complete(pending.id().as_str(), &alice.user).await,
        Err(CompletionError::Expired)
    ));
    // Expiry removed it.
    assert!(matches!(
        tracker.complete(pending.id().as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
}

#[tokio::test]
async fn expired_entries_are_purged() {
    let clock = TestClock::default();
    let tracker = ElicitationTracker::with_store(MemoryStore::new(), UrlPolicy::production())
        .with_clock(clock.clone())
        .with_ttl(Duration::from_secs(100));
    let alice = initiator("alice", "conn-a");
    for _ in 0..3 {
        tracker
            .start(&alice, Some(&url_client()), "m", connect_url)
            .await
            .unwrap();
    }
    clock.advance(Duration::from_secs(50));
    let fresh = tracker
        .start(&alice, Some(&url_client()), "m", connect_url)
        .await
        .unwrap();
    assert_eq!(tracker.store().len(), 4);
    clock.advance(Duration::from_secs(60));
    assert_eq!(tracker.purge_expired().await.unwrap(), 3);
    assert_eq!(tracker.store().len(), 1);
    // Starting purges on its own once a quarter of the time to live has passed.
    clock.advance(Duration::from_secs(100));
    tracker
        .start(&alice, Some(&url_client()), "m", connect_url)
        .await
        .unwrap();
    assert_eq!(tracker.store().len(), 1);
    assert!(
        tracker
            .store()
            .get(fresh.id().as_str())
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn discard_drops_only_the_users_own_elicitation() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    let id = start(&tracker, &alice).await.unwrap();
    assert!(matches!(
        tracker.discard(id.as_str(), &user("bob")).await,
        Err(CompletionError::WrongUser)
    ));
    tracker.discard(id.as_str(), &alice.user).await.unwrap();
    assert!(matches!(
        tracker.complete(id.as_str(), &alice.user).await,
        Err(CompletionError::NotPending)
    ));
}

// ---------------------------------------------------------------------------------------------
// The completion notification

#[tokio::test]
async fn the_notification_goes_to_the_connection_that_started_it_only() {
    let tracker = tracker();
    // Alice starts from her desktop client; she completes later while her phone is connected.
    let desktop = initiator("alice", "desktop-connection");
    let id = start(&tracker, &desktop).await.unwrap();
    let _phone = initiator("alice", "phone-connection");
    let done = tracker.complete(id.as_str(), &desktop.user).await.unwrap();
    let notification = done.notification();
    assert_eq!(notification.to(), &ConnectionId::new("desktop-connection"));
    assert_eq!(notification.message().elicitation_id(), &id);
    let (to, message) = notification.into_parts();
    assert_eq!(to.as_str(), "desktop-connection");
    let json = serde_json::to_value(&message).unwrap();
    assert_valid("ElicitationCompleteNotification", &json);
    assert_eq!(json["params"]["elicitationId"], id.as_str());
}

// ---------------------------------------------------------------------------------------------
// The capability gate

#[tokio::test]
async fn a_url_elicitation_for_a_client_that_did_not_declare_url_mode_is_not_started() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    for declared in [
        None,
        Some(ElicitationCapability::default()),
        Some(ElicitationCapability::form()),
    ] {
        let err = tracker
            .start(&alice, declared.as_ref(), "Connect", connect_url)
            .await
            .unwrap_err();
        match err {
            StartError::ModeNotSupported(e) => assert_eq!(e.mode, ElicitMode::Url),
            other => panic!("{other:?}"),
        }
    }
    assert!(
        tracker.store().is_empty(),
        "nothing was stored for a request that cannot be sent"
    );
    let url_only = ElicitationCapability::url();
    assert!(
        tracker
            .start(&alice, Some(&url_only), "Connect", connect_url)
            .await
            .is_ok()
    );
}

// ---------------------------------------------------------------------------------------------
// URL checks

#[test]
fn a_url_with_credentials_is_refused() {
    for url in [
        "https://user:password@mcp.example.com/connect",
        "https://user@mcp.example.com/connect",
        "https://:password@mcp.example.com/connect",
        "https://mcp.example.com@evil.example/connect",
    ] {
        assert_eq!(
            UrlPolicy::production().check(url),
            Err(UnsafeUrlError::Userinfo),
            "{url}"
        );
        assert_eq!(
            UrlPolicy::development().check(url),
            Err(UnsafeUrlError::Userinfo),
            "{url}"
        );
    }
}

#[test]
fn http_is_refused_in_production() {
    for url in [
        "http://mcp.example.com/connect",
        "http://127.0.0.1:8080/connect",
        "http://localhost/connect",
    ] {
        assert!(
            matches!(UrlPolicy::production().check(url), Err(UnsafeUrlError::NotHttps { scheme }) if scheme == "http"),
            "{url}"
        );
    }
    assert_eq!(
        UrlPolicy::production().environment(),
        Environment::Production
    );
}

#[test]
fn development_allows_http_on_loopback_only() {
    let development = UrlPolicy::development();
    for url in [
        "http://127.0.0.1:8080/connect",
        "http://127.1.2.3/connect",
        "http://[::1]:3000/connect",
        "http://localhost:3000/connect",
        "https://mcp.example.com/connect",
    ] {
        assert!(development.check(url).is_ok(), "{url}");
    }
    for url in [
        "http://mcp.example.com/connect",
        "http://10.0.0.1/connect",
        "http://localhost.evil.example/connect",
        "http://[::2]/connect",
    ] {
        assert!(
            matches!(
                development.check(url),
                Err(UnsafeUrlError::HttpOffLoopback { .. })
            ),
            "{url}"
        );
    }
}

#[test]
fn only_absolute_web_urls_are_sent() {
    for url in [
        "/connect",
        "mcp.example.com/connect",
        "",
        "https://",
        "https://exa mple.com/",
    ] {
        assert!(
            matches!(
                UrlPolicy::production().check(url),
                Err(UnsafeUrlError::NotAbsolute { .. })
            ),
            "{url:?}"
        );
    }
    for url in [
        "javascript:alert(1)",
        "data:text/html,<b>hi</b>",
        "file:///etc/passwd",
        "ftp://example.com/",
    ] {
        let err = UrlPolicy::development().check(url).unwrap_err();
        assert!(
            matches!(err, UnsafeUrlError::NotHttps { .. }),
            "{url}: {err:?}"
        );
    }
}

#[test]
fn pre_authenticated_urls_are_refused() {
    let policy = UrlPolicy::production();
    let refused = [
        (
            "https://mcp.example.com/connect?access_token=abc",
            "access_token",
        ),
        (
            "https://mcp.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA",
            "code",
        ),
        (
            "https://mcp.example.com/connect#access_token=abc&token_type=bearer",
            "access_token",
        ),
        (
            "https://files.example.com/doc?X-Amz-Signature=deadbeef",
            "X-Amz-Signature",
        ),
        ("https://mcp.example.com/connect?apiKey=sk-123", "apiKey"),
        (
            "https://mcp.example.com/connect?session_id=123",
            "session_id",
        ),
    ];
    for (url, name) in refused {
        match policy.check(url) {
            Err(UnsafeUrlError::CredentialParameter { name: found, .. }) => assert_eq!(found, name),
            other => panic!("{url}: {other:?}"),
        }
    }
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz";
    for url in [
        format!("https://mcp.example.com/magic/{jwt}"),
        format!("https://mcp.example.com/connect?t={jwt}"),
    ] {
        assert!(
            matches!(policy.check(&url), Err(UnsafeUrlError::BearerToken { .. })),
            "{url}"
        );
    }
    // A name known to be harmless can be let through.
    let allowed = UrlPolicy::production().allow_parameter("key");
    assert!(
        allowed
            .check("https://mcp.example.com/settings?key=theme")
            .is_ok()
    );
    assert!(
        policy
            .check("https://mcp.example.com/settings?key=theme")
            .is_err()
    );
}

#[tokio::test]
async fn urls_carrying_end_user_data_are_refused() {
    let policy = UrlPolicy::production();
    for url in [
        "https://mcp.example.com/connect?email=alice%40example.com",
        "https://mcp.example.com/users/alice@example.com/connect",
    ] {
        assert!(
            matches!(
                policy.check(url),
                Err(UnsafeUrlError::UserData {
                    what: "an email address",
                    ..
                })
            ),
            "{url}"
        );
    }
    let url = "https://mcp.example.com/connect?user=auth0%7C5f7c8ec7c33c6c004bbafe82";
    assert!(policy.check(url).is_ok());
    assert!(matches!(
        policy.check_for_user(url, &["auth0|5f7c8ec7c33c6c004bbafe82"]),
        Err(UnsafeUrlError::UserData {
            what: "a user identifier",
            ..
        })
    ));

    // The tracker checks for the starting user's subject by itself.
    let tracker = tracker();
    let alice = initiator("auth0|5f7c8ec7c33c6c004bbafe82", "conn-a");
    let err = tracker
        .start(&alice, Some(&url_client()), "Connect", |id| {
            format!("https://mcp.example.com/connect?elicitationId={id}&for=auth0%7C5f7c8ec7c33c6c004bbafe82")
        }).await
        .unwrap_err();
    assert!(
        matches!(err, StartError::UnsafeUrl(UnsafeUrlError::UserData { .. })),
        "{err:?}"
    );
    assert!(tracker.store().is_empty());
}

#[test]
fn the_connect_url_of_the_spec_passes() {
    let checked = UrlPolicy::production()
        .check("https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000")
        .unwrap();
    assert!(checked.notices().is_empty());
    // What is sent is the normalized form the browser will open.
    let checked = UrlPolicy::production()
        .check("HTTPS://MCP.Example.COM/connect")
        .unwrap();
    assert_eq!(checked.as_str(), "https://mcp.example.com/connect");
}

#[test]
fn notices_say_what_a_client_will_warn_about() {
    let ip = UrlPolicy::production()
        .check("https://203.0.113.7/connect")
        .unwrap();
    assert!(matches!(ip.notices(), [UrlNotice::IpAddressHost { .. }]));
    let idn = UrlPolicy::production()
        .check("https://bücher.example/connect")
        .unwrap();
    assert_eq!(idn.as_str(), "https://xn--bcher-kva.example/connect");
    assert_eq!(
        idn.notices(),
        [UrlNotice::InternationalizedHost {
            ascii: "xn--bcher-kva.example".into(),
            unicode: "bücher.example".into()
        }]
    );
}

// ---------------------------------------------------------------------------------------------
// What the tracker sends

#[tokio::test]
async fn what_the_tracker_sends_validates_against_the_spec() {
    let tracker = tracker();
    let alice = initiator("alice", "conn-a");
    let pending = tracker
        .start(
            &alice,
            Some(&url_client()),
            "Authorization is required to access your Example Co files.",
            connect_url,
        )
        .await
        .unwrap();
    let request = serde_json::to_value(pending.request(RequestId::from(3))).unwrap();
    assert_valid("ElicitRequest", &request);
    assert_valid("ElicitRequestURLParams", &request["params"]);
    assert_eq!(request["params"]["url"], connect_url(pending.id()));

    let error = pending.required_error("This request requires more information.");
    let response = json!({"jsonrpc": "2.0", "id": 2, "error": error});
    assert_valid("URLElicitationRequiredError", &response);
    assert_eq!(JsonRpcError::from(&error).code, -32042);
}

// ---------------------------------------------------------------------------------------------
// "This tool call needs third-party authorization first"

/// A tool that needs an Example Co token for the calling user.
struct FilesTool {
    tracker: ElicitationTracker,
    tokens: HashMap<UserId, String>,
}

impl FilesTool {
    async fn call(
        &self,
        caller: &Initiator,
        client: &ElicitationCapability,
    ) -> Result<String, JsonRpcError> {
        if let Some(token) = self.tokens.get(&caller.user) {
            return Ok(format!("files listed with {token}"));
        }
        let pending = self
            .tracker
            .start(
                caller,
                Some(client),
                "Authorization is required to access your Example Co files.",
                connect_url,
            )
            .await
            .map_err(|e| JsonRpcError {
                code: -32603,
                message: e.to_string(),
                data: None,
            })?;
        Err(pending
            .required_error("This request requires more information.")
            .into())
    }
}

#[tokio::test]
async fn a_tool_call_needing_authorization_returns_32042_and_succeeds_on_retry() {
    use elicit_mcp::client::{Completion, UrlElicitationWatch};

    let mut tool = FilesTool {
        tracker: tracker(),
        tokens: HashMap::new(),
    };
    let alice = initiator("alice", "conn-a");
    let client = url_client();
    let mut watch = UrlElicitationWatch::new();

    // First call: -32042 with one pending URL elicitation.
    let error = tool.call(&alice, &client).await.unwrap_err();
    assert_eq!(error.code, JsonRpcError::URL_ELICITATION_REQUIRED);
    let required = UrlElicitationRequiredError::try_from(&error).unwrap();
    assert_eq!(watch.retry_after("tools/call", &required), Ok(None));
    let id = required.elicitations()[0].elicitation_id().clone();

    // The user finishes on the connect page; the server stores the token and notifies.
    let done = tool
        .tracker
        .complete(id.as_str(), &alice.user)
        .await
        .unwrap();
    tool.tokens
        .insert(done.user().clone(), "alice-token".into());
    let (to, notification) = done.notification().into_parts();
    assert_eq!(to, alice.connection);

    // The client sees the notification and retries; now the call succeeds.
    let Completion::Completed { ready_to_retry } = watch.on_complete(&notification) else {
        panic!("the notification was for a tracked elicitation")
    };
    assert_eq!(ready_to_retry, ["tools/call"]);
    assert_eq!(
        tool.call(&alice, &client).await.unwrap(),
        "files listed with alice-token"
    );

    // A client that did not declare URL mode gets no -32042 it could not act on.
    let error = tool
        .call(&initiator("bob", "conn-b"), &ElicitationCapability::form())
        .await
        .unwrap_err();
    assert_ne!(error.code, JsonRpcError::URL_ELICITATION_REQUIRED);
}

// ---------------------------------------------------------------------------------------------
// Stores

/// A store whose backend is down.
struct BrokenStore;

impl ElicitationStore for BrokenStore {
    async fn insert(&self, _: PendingEntry, _: usize) -> Result<Inserted, StoreError> {
        Err(StoreError::new("connection refused"))
    }
    async fn get(&self, _: &str) -> Result<Option<PendingEntry>, StoreError> {
        Err(StoreError::new("connection refused"))
    }
    async fn remove(&self, _: &str) -> Result<Option<PendingEntry>, StoreError> {
        Err(StoreError::new("connection refused"))
    }
    async fn mark_completed(&self, _: &str) -> Result<Option<PendingEntry>, StoreError> {
        Err(StoreError::new("connection refused"))
    }
    async fn renew(&self, _: &PendingEntry, _: SystemTime) -> Result<bool, StoreError> {
        Err(StoreError::new("connection refused"))
    }
    async fn remove_expired(&self, _: SystemTime) -> Result<usize, StoreError> {
        Err(StoreError::new("connection refused"))
    }
}

#[tokio::test]
async fn store_failures_are_errors_not_successes() {
    let tracker = ElicitationTracker::with_store(BrokenStore, UrlPolicy::production())
        .with_clock(TestClock::default());
    let alice = initiator("alice", "conn-a");
    let err = tracker
        .start(&alice, Some(&url_client()), "m", connect_url)
        .await
        .unwrap_err();
    assert!(matches!(err, StartError::Store(_)), "{err:?}");
    assert!(err.to_string().contains("connection refused"));
    let err = tracker.complete("any", &alice.user).await.unwrap_err();
    assert!(matches!(err, CompletionError::Store(_)), "{err:?}");
}

#[tokio::test]
async fn a_shared_store_serves_several_trackers() {
    let store = Arc::new(MemoryStore::new());
    let clock = TestClock::default();
    let issuing = ElicitationTracker::with_store(store.clone(), UrlPolicy::production())
        .with_clock(clock.clone());
    let completing =
        ElicitationTracker::with_store(store.clone(), UrlPolicy::production()).with_clock(clock);
    let alice = initiator("alice", "conn-a");
    let pending = issuing
        .start(&alice, Some(&url_client()), "m", connect_url)
        .await
        .unwrap();
    assert!(
        completing
            .complete(pending.id().as_str(), &alice.user)
            .await
            .is_ok()
    );
    assert!(store.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Links in forms

#[test]
fn links_in_form_requests_are_found() {
    // In property order: the test build has serde_json's `preserve_order` (feature `rmcp`).
    let params: ElicitRequestFormParams = serde_json::from_value(json!({
        "message": "Please fill in (see www.example.com/help)",
        "requestedSchema": {"type": "object", "properties": {
            "site": {"type": "string", "description": "Your site, e.g. https://example.org", "default": "http://localhost"},
            "plan": {"type": "string", "oneOf": [{"const": "a", "title": "Plan A (https://evil.example/a)"}]},
            "name": {"type": "string", "title": "Name"}
        }}
    }))
    .unwrap();
    let found: Vec<(String, String)> = links_in_form(&params)
        .into_iter()
        .map(|l| (l.location, l.link))
        .collect();
    assert_eq!(
        found,
        [
            ("message".to_owned(), "www.example.com/help".to_owned()),
            (
                "property `site` description".to_owned(),
                "https://example.org".to_owned()
            ),
            (
                "property `site` default".to_owned(),
                "http://localhost".to_owned()
            ),
            (
                "property `plan` option title".to_owned(),
                "https://evil.example/a".to_owned()
            ),
        ]
    );
    let clean: ElicitRequestFormParams = serde_json::from_value(json!({
        "message": "Your name, please.",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
    }))
    .unwrap();
    assert!(links_in_form(&clean).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Defects found by testing as an outside user would (issue 7, section 6)

const JWT: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz";

#[tokio::test]
async fn an_issuer_qualified_user_id_still_keeps_its_subject_out_of_the_url() {
    let qualified =
        UserId::from_issuer_and_subject("https://auth.example.com", "alice-sub-123").unwrap();
    assert_eq!(qualified.subject(), "alice-sub-123");
    assert_eq!(qualified.issuer(), Some("https://auth.example.com"));
    assert_eq!(qualified.as_str(), "https://auth.example.com alice-sub-123");
    assert_ne!(
        qualified,
        UserId::from_issuer_and_subject("https://other.example.com", "alice-sub-123").unwrap()
    );
    assert!(UserId::from_issuer_and_subject("https://auth.example.com", " ").is_err());
    assert!(UserId::from_issuer_and_subject("", "alice-sub-123").is_err());

    let tracker = tracker();
    let alice = Initiator::new(qualified, ConnectionId::new("conn-a"));
    for url in [
        "https://mcp.example.com/connect?elicitationId={id}&user=alice-sub-123",
        "https://mcp.example.com/connect?elicitationId={id}&user=https%3A%2F%2Fauth.example.com%20alice-sub-123",
        "https://mcp.example.com/u/ALICE-SUB-123/connect?elicitationId={id}",
    ] {
        let err = tracker
            .start(&alice, Some(&url_client()), "Connect", |id| {
                url.replace("{id}", id.as_str())
            })
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                StartError::UnsafeUrl(UnsafeUrlError::UserData {
                    what: "a user identifier",
                    ..
                })
            ),
            "{url}: {err:?}"
        );
    }
    // The issuer alone is not the user: a connect page on the issuer's host is fine.
    assert!(
        tracker
            .start(&alice, Some(&url_client()), "Connect", |id| format!(
                "https://auth.example.com/connect?elicitationId={id}"
            ))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn the_users_subject_in_the_host_is_refused() {
    let tracker = tracker();
    let alice = initiator("alice-sub-123", "conn-a");
    let err = tracker
        .start(&alice, Some(&url_client()), "Connect", |id| {
            format!("https://alice-sub-123.users.example.com/connect?elicitationId={id}")
        })
        .await
        .unwrap_err();
    match err {
        StartError::UnsafeUrl(UnsafeUrlError::UserData { part, what }) => {
            assert_eq!(part, "host");
            assert_eq!(what, "a user identifier");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        UrlPolicy::production()
            .check_for_user(
                "https://alice-sub-123.users.example.com/connect",
                &["alice-sub-123"]
            )
            .is_err()
    );
}

#[test]
fn json_web_tokens_are_refused_anywhere_in_the_url() {
    let policy = UrlPolicy::production();
    let encoded_in_next = format!("https://mcp.example.com/connect?next=%2Fcb%3Fstate%3D{JWT}");
    let twice_encoded = format!("https://mcp.example.com/connect?next=%252Fcb%253Fstate%253D{JWT}");
    let cases = [
        (encoded_in_next.as_str(), "query parameter `next`"),
        (twice_encoded.as_str(), "query parameter `next`"),
        (
            &*format!("https://mcp.example.com/go/t-{JWT}"),
            "path segment",
        ),
        (
            &*format!("https://mcp.example.com/connect?h=Bearer%20{JWT}"),
            "query parameter `h`",
        ),
        (
            &*format!("https://mcp.example.com/connect#/cb/t-{JWT}"),
            "fragment",
        ),
        (
            &*format!("https://mcp.example.com/go;x={JWT}/connect"),
            "path parameter `x`",
        ),
    ];
    for (url, where_) in cases {
        match policy.check(url) {
            Err(err @ UnsafeUrlError::BearerToken { .. }) => {
                let UnsafeUrlError::BearerToken { part } = &err else {
                    unreachable!()
                };
                assert!(part.contains(where_), "{url}: {part}");
                assert!(err.to_string().contains("JSON Web Token"), "{err}");
            }
            other => panic!("{url}: {other:?}"),
        }
    }
    // A JWT-looking prefix that is not one is left alone.
    assert!(
        policy
            .check("https://mcp.example.com/eyJx/connect.v1.json")
            .is_ok()
    );
}

#[test]
fn credential_parameters_hidden_in_the_url_are_refused() {
    let policy = UrlPolicy::production();
    let cases = [
        (
            "https://mcp.example.com/connect?next=%2Fcb%3Faccess_token%3Dabc",
            "access_token",
            "query parameter `next`",
        ),
        (
            "https://mcp.example.com/connect?next=https%3A%2F%2Fx.example%2Fcb%23code%3Dabc",
            "code",
            "query parameter `next`",
        ),
        (
            "https://mcp.example.com/connect?x=1;access_token=abc",
            "access_token",
            "query",
        ),
        (
            "https://mcp.example.com/go;jsessionid=ABC",
            "jsessionid",
            "path",
        ),
        (
            "https://mcp.example.com/go?next=%2Fa%3Bjsessionid%3DABC",
            "jsessionid",
            "query parameter `next`",
        ),
    ];
    for (url, name, where_) in cases {
        match policy.check(url) {
            Err(err @ UnsafeUrlError::CredentialParameter { .. }) => {
                let UnsafeUrlError::CredentialParameter { part, name: found } = &err else {
                    unreachable!()
                };
                assert_eq!(found, name, "{url}");
                assert!(part.contains(where_), "{url}: {part}");
                assert!(err.to_string().contains(name), "{err}");
            }
            other => panic!("{url}: {other:?}"),
        }
    }
    // Ordinary nested values still pass.
    for url in [
        "https://mcp.example.com/connect?elicitationId=42&next=%2Fdone%3Flang%3Den",
        "https://mcp.example.com/docs/tokens/list;v=2",
        "https://mcp.example.com/connect?redirect_uri=https%3A%2F%2Fmcp.example.com%2Fcb",
    ] {
        assert!(policy.check(url).is_ok(), "{url}: {:?}", policy.check(url));
    }
}

#[test]
fn markdown_emphasised_links_in_forms_are_found() {
    for (message, link) in [
        (
            "Go to *https://evil.example/login* now",
            "https://evil.example/login",
        ),
        (
            "Go to **https://evil.example/login**.",
            "https://evil.example/login",
        ),
        (
            "Go to _https://evil.example/login_ now",
            "https://evil.example/login",
        ),
        (
            "Go to ~https://evil.example/login~ now",
            "https://evil.example/login",
        ),
        ("Go to _www.evil.example_ now", "www.evil.example"),
    ] {
        let params: ElicitRequestFormParams = serde_json::from_value(json!({
            "message": message,
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
        }))
        .unwrap();
        let found: Vec<String> = links_in_form(&params).into_iter().map(|l| l.link).collect();
        assert_eq!(found, [link], "{message}");
    }
}

#[tokio::test]
async fn each_user_has_a_cap_on_pending_elicitations() {
    let clock = TestClock::default();
    let tracker = ElicitationTracker::with_store(MemoryStore::new(), UrlPolicy::production())
        .with_clock(clock.clone())
        .with_ttl(Duration::from_secs(60));
    assert_eq!(tracker.max_pending_per_user(), 32);
    let tracker = tracker.with_max_pending_per_user(3);
    let alice = initiator("alice", "conn-a");
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(start(&tracker, &alice).await.unwrap());
    }
    let err = tracker
        .start(&alice, Some(&url_client()), "Connect", connect_url)
        .await
        .unwrap_err();
    assert!(
        matches!(err, StartError::TooManyPending { limit: 3 }),
        "{err:?}"
    );
    assert!(err.to_string().contains('3'), "{err}");
    assert_eq!(tracker.store().len(), 3);
    // Another user is not held back by Alice's.
    start(&tracker, &initiator("bob", "conn-b")).await.unwrap();
    // Completing one frees a place.
    tracker
        .complete(ids[0].as_str(), &alice.user)
        .await
        .unwrap();
    start(&tracker, &alice).await.unwrap();
    // Expired ones do not count.
    clock.advance(Duration::from_secs(60));
    for _ in 0..3 {
        start(&tracker, &alice).await.unwrap();
    }
}
