//! Secrets the spec's way, end to end: `examples/secure_page` as its own process, its tool
//! `connect_calendar` called by an rmcp client on each revision, and its page answered by a
//! browser made of sockets: the sign-in, the user check, the CSRF token, the headers, a wrong
//! answer shown again without the secret, the answer, the link used twice. The client sees a
//! consent message and a link, never the form nor the key.

#![cfg(target_os = "linux")]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_test_support::browser::{Answer, Browser, hidden_field, request};
use elicit_test_support::load::server::ServerProcess;
use elicit_test_support::redis_server::{self, Redis};
use rmcp::model::{
    self as sdk, CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData};
use tokio::sync::mpsc;

const KEY: &str = "sk-live-0123456789abcdef";

/// A client that consents to every URL, hands the link to the test, and keeps every request
/// it was sent, as JSON.
struct Consenting {
    links: mpsc::UnboundedSender<String>,
    seen: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Consenting {
    fn get_info(&self) -> ClientConfig {
        let capabilities =
            ClientCapabilities::try_from(&elicit_mcp::wire::ElicitationCapability::form_and_url())
                .unwrap();
        ClientConfig::new(capabilities, Implementation::new("consenting", "1"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, ErrorData> {
        let json = serde_json::to_value(&request).unwrap();
        self.seen.lock().unwrap().push(json.to_string());
        let url = json["url"].as_str().expect("a URL-mode request").to_owned();
        self.links.send(url).unwrap();
        Ok(sdk::ElicitResult::new(sdk::ElicitationAction::Accept))
    }
}

async fn connect(
    url: &str,
    user: &str,
    lifecycle: ClientLifecycleMode,
) -> (
    RunningService<RoleClient, Consenting>,
    mpsc::UnboundedReceiver<String>,
    Arc<Mutex<Vec<String>>>,
) {
    let (links, received) = mpsc::unbounded_channel();
    let seen = Arc::default();
    let handler = Consenting {
        links,
        seen: Arc::clone(&seen),
    };
    let config = StreamableHttpClientTransportConfig::with_uri(url).auth_header(user);
    let transport = StreamableHttpClientTransport::from_config(config);
    let client = handler
        .serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("the client connects");
    (client, received, seen)
}

/// The call of `connect_calendar`, which waits for the page: it runs beside the browser the
/// test drives.
struct Calling {
    /// Kept to be cancelled once the test is done with it.
    client: Arc<RunningService<RoleClient, Consenting>>,
    call: tokio::task::JoinHandle<Result<sdk::CallToolResult, rmcp::ServiceError>>,
    /// The page's link the client was sent.
    link: String,
}

/// Calls `connect_calendar` on `client` beside the test, and waits (30 s at most) for the link
/// the client is sent.
async fn call_connect_calendar(
    client: RunningService<RoleClient, Consenting>,
    links: &mut mpsc::UnboundedReceiver<String>,
) -> Calling {
    let client = Arc::new(client);
    let calling = Arc::clone(&client);
    let call = tokio::spawn(async move {
        calling
            .call_tool(CallToolRequestParams::new("connect_calendar"))
            .await
    });
    let link = tokio::time::timeout(Duration::from_secs(30), links.recv())
        .await
        .expect("the client is asked within 30 s")
        .expect("a link");
    Calling { client, call, link }
}

/// Each revision's way to connect, its name, and a user of its own (the server keeps a key it
/// got per user: a second connect would not ask).
fn lifecycles() -> [(ClientLifecycleMode, &'static str, &'static str); 2] {
    [
        (ClientLifecycleMode::Initialize, "2025-11-25", "ada"),
        (
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
            "2026-07-28",
            "grace",
        ),
    ]
}

/// The browser of user `name`, signed in with the development sign-in: its cookies.
fn signed_in(origin: &str, name: &str) -> Vec<String> {
    Browser::signed_in(origin, name).cookies().to_vec()
}

/// The CSRF token of a form page.
fn token(page: &Answer) -> String {
    let at = page
        .body
        .find("name=\"_csrf\" value=\"")
        .expect("a CSRF token")
        + 20;
    page.body[at..].split('"').next().unwrap().to_owned()
}

fn form(token: &str, fields: &[(&str, &str)]) -> String {
    let mut pairs = vec![("_csrf", token)];
    pairs.extend_from_slice(fields);
    serde_urlencoded::to_string(pairs).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_is_asked_on_the_page_and_never_reaches_the_client_on_both_revisions() {
    let server = ServerProcess::start("secure_page", &["127.0.0.1:0"]);
    let origin = server.url().trim_end_matches("/mcp").to_owned();
    for (lifecycle, revision, user) in lifecycles() {
        let (client, mut links, seen) = connect(server.url(), user, lifecycle).await;
        // The call waits for the page: it runs beside the browser.
        let Calling { client, call, link } = call_connect_calendar(client, &mut links).await;
        assert!(
            link.starts_with(&format!("{origin}/secure/")),
            "{link} on {revision}"
        );
        let id = link.rsplit('/').next().unwrap().to_owned();
        assert!(!id.is_empty() && !id.contains('?'), "only the id: {link}");

        // No user: sent to the sign-in, with the way back.
        let anonymous = request("GET", &link, &[], None);
        assert_eq!(anonymous.status, 303);
        assert_eq!(
            anonymous.header("location"),
            Some(format!("/login?return_to=%2Fsecure%2F{id}").as_str())
        );

        // Another user's browser learns nothing of the form.
        let mallory = signed_in(&origin, "mallory");
        let refused = request("GET", &link, &mallory, None);
        assert_eq!(refused.status, 403);
        for of_the_form in ["Connect your calendar", "api_key", "_csrf"] {
            assert!(!refused.body.contains(of_the_form), "{}", refused.body);
        }

        // Alice's browser: the form, with the page's headers.
        let mut alice = signed_in(&origin, user);
        let page = request("GET", &link, &alice, None);
        assert_eq!(page.status, 200, "{}", page.body);
        let policy = page.header("content-security-policy").unwrap();
        assert!(policy.starts_with("default-src 'none';"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
        assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
        assert_eq!(page.header("cache-control"), Some("no-store"));
        assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
        assert!(page.body.contains("<h1>Connect your calendar</h1>"));
        assert!(page.body.contains("type=\"password\""), "{}", page.body);
        assert!(
            page.body.contains("aria-describedby=\"f0-hint\""),
            "{}",
            page.body
        );
        alice.extend(page.cookies());
        let token = token(&page);

        // A forged token, or the right one from another browser: refused.
        let forged = request(
            "POST",
            &link,
            &alice,
            Some(&form("forged", &[("api_key", KEY), ("calendar", "Work")])),
        );
        assert_eq!(forged.status, 403, "{}", forged.body);
        let mut other_browser = signed_in(&origin, user);
        other_browser.push("elicit_page_browser=another".to_owned());
        let elsewhere = request(
            "POST",
            &link,
            &other_browser,
            Some(&form(&token, &[("api_key", KEY), ("calendar", "Work")])),
        );
        assert_eq!(elsewhere.status, 403);

        // Alice's browser posts the page's form with the page's token.
        let post =
            |fields: &[(&str, &str)]| request("POST", &link, &alice, Some(&form(&token, fields)));

        // A wrong answer comes back with its errors, the calendar kept, the key not.
        let wrong = post(&[("api_key", "short"), ("calendar", "Work")]);
        assert_eq!(wrong.status, 422, "{}", wrong.body);
        assert!(
            wrong
                .body
                .contains("Api key must be at least 8 characters long, got 5"),
            "{}",
            wrong.body
        );
        assert!(wrong.body.contains("aria-invalid=\"true\""));
        assert!(wrong.body.contains("value=\"Work\""));
        assert!(
            !wrong.body.contains("short"),
            "the secret is not shown again"
        );
        // An address the schema's `uri` takes and the form's `url::Url` does not: said beside
        // the field by the page, not found by the tool after the page said "sent".
        let no_address = post(&[
            ("api_key", KEY),
            ("calendar", "Work"),
            ("server", "https://1.2.3.256/"),
        ]);
        assert_eq!(no_address.status, 422, "{}", no_address.body);
        assert!(
            no_address.body.contains(
                "Server must be a full web address like https://example.com/ (invalid IPv4 \
                 address)"
            ),
            "{}",
            no_address.body
        );
        assert!(no_address.body.contains("value=\"https://1.2.3.256/\""));

        // The answer, then the link is spent.
        let sent = post(&[
            ("api_key", KEY),
            ("calendar", "Work"),
            ("server", "https://cal.example.com/dav/"),
            ("_action", "send"),
        ]);
        assert_eq!(sent.status, 200, "{}", sent.body);
        assert!(sent.body.contains("Sent"), "{}", sent.body);
        let again = post(&[("api_key", KEY), ("calendar", "Work")]);
        assert_eq!(again.status, 404);
        assert_eq!(request("GET", &link, &alice, None).status, 404);

        let result = tokio::time::timeout(Duration::from_secs(60), call)
            .await
            .expect("the call ends within 60 s")
            .unwrap()
            .expect("the call succeeds");
        let text = result.content[0].as_text().unwrap().text.clone();
        assert_eq!(
            text,
            format!(
                "Connected {user}'s calendar \"Work\" on https://cal.example.com/dav/ with a key \
                 of {} characters.",
                KEY.len()
            ),
            "on {revision}"
        );
        // What the client was sent: the consent message and the link, never the key.
        let seen = seen.lock().unwrap().join("\n");
        assert!(seen.contains("Connect your calendar"), "{seen}");
        assert!(!seen.contains(KEY) && !seen.contains("api_key"), "{seen}");
        assert!(!text.contains(KEY));
        if let Ok(client) = Arc::try_unwrap(client) {
            let _ = client.cancel().await;
        }
    }
}

/// The sign-in form of `url` for `browser`: its token, and the return path it carries.
fn login_form(browser: &mut Browser, url: &str) -> (String, Option<String>) {
    let form = browser.request("GET", url, None);
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("name=\"user\""), "{}", form.body);
    let token = hidden_field(&form, "_csrf").expect("the sign-in's token");
    (token, hidden_field(&form, "return_to"))
}

fn signing_in(user: &str, token: Option<&str>, return_to: Option<&str>) -> String {
    let mut fields = vec![("user", user)];
    fields.extend(token.map(|token| ("_csrf", token)));
    fields.extend(return_to.map(|path| ("return_to", path)));
    serde_urlencoded::to_string(fields).unwrap()
}

fn signed_in_as(browser: &Browser) -> Option<&str> {
    browser
        .cookies()
        .iter()
        .find_map(|cookie| cookie.strip_prefix("elicit_dev_user="))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_sent_to_the_sign_in_comes_back_to_the_link_it_opened() {
    let server = ServerProcess::start("secure_page", &["127.0.0.1:0"]);
    let origin = server.url().trim_end_matches("/mcp").to_owned();
    let (client, mut links, _) =
        connect(server.url(), "erin", ClientLifecycleMode::Initialize).await;
    let Calling {
        client: _client,
        call,
        link,
    } = call_connect_calendar(client, &mut links).await;
    let path = link
        .strip_prefix(&origin)
        .expect("a link on the server")
        .to_owned();
    let login = format!("{origin}/login");

    // The link with no user: to the sign-in, the link's path carried along.
    let mut browser = Browser::default();
    let sent = browser.request("GET", &link, None);
    assert_eq!(sent.status, 303, "{}", sent.body);
    let location = sent.header("location").expect("a Location").to_owned();
    assert_eq!(
        location,
        format!(
            "/login?{}",
            serde_urlencoded::to_string([("return_to", &path)]).unwrap()
        )
    );
    let (token, carried) = login_form(&mut browser, &format!("{origin}{location}"));
    assert_eq!(
        carried.as_deref(),
        Some(path.as_str()),
        "the form carries the way back"
    );

    // A GET does not sign in, whatever it names.
    let by_get = browser.request("GET", &format!("{login}?user=erin"), None);
    assert_eq!(by_get.status, 200, "{}", by_get.body);
    assert_eq!(signed_in_as(&browser), None, "a GET signed in");
    assert_eq!(browser.request("GET", &link, None).status, 303);

    // A POST without the token, or with another's, is refused and signs nothing in.
    let untokened = signing_in("erin", None, Some(&path));
    let refused = browser.request("POST", &login, Some(&untokened));
    assert_eq!(refused.status, 403, "{}", refused.body);
    let mut stranger = Browser::default();
    let (strangers_token, _) = login_form(&mut stranger, &login);
    let elsewhere = signing_in("erin", Some(&strangers_token), Some(&path));
    assert_eq!(
        browser.request("POST", &login, Some(&elsewhere)).status,
        403
    );
    assert_eq!(signed_in_as(&browser), None);

    // With its own token: signed in, and back at the very link it opened, which shows the form.
    let posted = signing_in("erin", Some(&token), carried.as_deref());
    let back = browser.request("POST", &login, Some(&posted));
    assert_eq!(back.status, 303, "{}", back.body);
    assert_eq!(back.header("location"), Some(path.as_str()));
    assert_eq!(signed_in_as(&browser), Some("erin"));
    let shown = browser.request("GET", &format!("{origin}{path}"), None);
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert!(shown.body.contains("<h1>Connect your calendar</h1>"));
    // The token was spent: it signs in no more.
    assert_eq!(browser.request("POST", &login, Some(&posted)).status, 403);

    // A return path that leaves the server ends at the sign-in's own page, which says who is
    // signed in; the form does not even carry it.
    for hostile in [
        "//evil.example/x",
        "https://evil.example/",
        "/\\evil.example",
    ] {
        let asked = format!(
            "{login}?{}",
            serde_urlencoded::to_string([("return_to", hostile)]).unwrap()
        );
        let (token, carried) = login_form(&mut browser, &asked);
        assert_eq!(carried, None, "{hostile} carried");
        let posted = signing_in("erin", Some(&token), Some(hostile));
        let landed = browser.request("POST", &login, Some(&posted));
        assert_eq!(landed.status, 303, "{}", landed.body);
        assert_eq!(landed.header("location"), Some("/login"), "{hostile}");
    }
    let default = browser.request("GET", &login, None);
    assert!(
        default.body.contains("signed in as <strong>erin</strong>"),
        "{}",
        default.body
    );

    // Signing out takes the token too, and the link sends the browser to the sign-in again.
    let (token, _) = login_form(&mut browser, &login);
    let untokened = browser.request("POST", &format!("{origin}/logout"), Some(""));
    assert_eq!(untokened.status, 403, "{}", untokened.body);
    let out = serde_urlencoded::to_string([("_csrf", &token)]).unwrap();
    let signed_out = browser.request("POST", &format!("{origin}/logout"), Some(&out));
    assert_eq!(signed_out.status, 303, "{}", signed_out.body);
    assert_eq!(signed_out.header("location"), Some("/login"));
    assert_eq!(signed_in_as(&browser), None);
    assert_eq!(browser.request("GET", &link, None).status, 303);

    call.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declining_on_the_page_answers_the_ask_as_declined() {
    let server = ServerProcess::start("secure_page", &["127.0.0.1:0"]);
    let origin = server.url().trim_end_matches("/mcp").to_owned();
    let (client, mut links, _) = connect(
        server.url(),
        "bob",
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await;
    let Calling {
        client: _client,
        call,
        link,
    } = call_connect_calendar(client, &mut links).await;
    let declined = answer_on_the_page(&origin, "bob", &link, &[("_action", "decline")]);
    assert_eq!(declined.status, 200, "{}", declined.body);
    let result = tokio::time::timeout(Duration::from_secs(60), call)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(
        result.content[0].as_text().unwrap().text,
        "bob declined to connect a calendar."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inside_a_task_the_page_answers_and_the_task_completes_on_both_revisions() {
    use crate::tasks::{result_text, settled, task_id, tasks_extension};

    let server = ServerProcess::start("secure_page", &["127.0.0.1:0"]);
    let origin = server.url().trim_end_matches("/mcp").to_owned();
    for (lifecycle, revision, user) in lifecycles() {
        let declared = elicit_mcp::wire::ElicitationCapability::form_and_url();
        let mut info = ClientConfig::new(
            ClientCapabilities::try_from(&declared).unwrap(),
            Implementation::new("polling", "1"),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25);
        info.capabilities.extensions = tasks_extension().extensions;
        let config = StreamableHttpClientTransportConfig::with_uri(server.url())
            .auth_header(format!("{user}-task"));
        let client = info
            .serve_with_lifecycle(
                StreamableHttpClientTransport::from_config(config),
                lifecycle,
            )
            .await
            .expect("the client connects");
        let created = client
            .call_tool_once(CallToolRequestParams::new("connect_calendar"))
            .await
            .unwrap();
        let task = task_id(created);
        let asked = crate::task_asks::pending(&client, &task, 1).await;
        let consent = serde_json::to_value(&asked["url"]).unwrap();
        assert_eq!(consent["params"]["mode"], "url", "{consent}");
        let link = consent["params"]["url"].as_str().unwrap().to_owned();
        let mut answers = sdk::InputResponses::new();
        answers.insert("url".to_owned(), serde_json::json!({"action": "accept"}));
        client
            .update_task(sdk::UpdateTaskParams::new(task.clone(), answers))
            .await
            .unwrap();
        let owner = format!("{user}-task");
        let sent = answer_on_the_page(
            &origin,
            &owner,
            &link,
            &[("api_key", KEY), ("calendar", "Home")],
        );
        assert_eq!(sent.status, 200, "{}", sent.body);
        let done = settled(&client, &task).await;
        assert_eq!(
            result_text(&done),
            format!(
                "Connected {owner}'s calendar \"Home\" with a key of {} characters.",
                KEY.len()
            ),
            "on {revision}"
        );
        assert!(!serde_json::to_string(&asked).unwrap().contains(KEY));
        let _ = client.cancel().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_given_once_is_found_by_the_next_call_until_forgotten() {
    let server = ServerProcess::start("secure_page", &["127.0.0.1:0"]);
    let origin = server.url().trim_end_matches("/mcp").to_owned();
    let (client, mut links, _) =
        connect(server.url(), "dora", ClientLifecycleMode::Initialize).await;
    let Calling { client, call, link } = call_connect_calendar(client, &mut links).await;
    let sent = answer_on_the_page(
        &origin,
        "dora",
        &link,
        &[("api_key", KEY), ("calendar", "Work")],
    );
    assert_eq!(sent.status, 200, "{}", sent.body);
    call.await.unwrap().unwrap();
    let text = |result: sdk::CallToolResult| result.content[0].as_text().unwrap().text.clone();
    // The next call finds the key: nothing is asked.
    let again = client
        .call_tool(CallToolRequestParams::new("connect_calendar"))
        .await
        .unwrap();
    assert_eq!(
        text(again),
        format!(
            "dora's calendar is connected already, with a key of {} characters.",
            KEY.len()
        )
    );
    assert!(links.try_recv().is_err(), "the second call asked");
    let forgotten = client
        .call_tool(CallToolRequestParams::new("forget_calendar"))
        .await
        .unwrap();
    assert_eq!(text(forgotten), "dora's calendar key is forgotten.");
    // Forgotten: the next connect asks again.
    let calling = Arc::clone(&client);
    let call = tokio::spawn(async move {
        calling
            .call_tool(CallToolRequestParams::new("connect_calendar"))
            .await
    });
    let asked = tokio::time::timeout(Duration::from_secs(30), links.recv()).await;
    assert!(asked.is_ok_and(|link| link.is_some()), "asked again");
    call.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
async fn on_two_replicas_the_page_answers_the_other_and_redis_reads_nothing_of_the_key() {
    let test = "secure_page_on_two_replicas";
    let redis = Redis::for_test(test);
    let prefix = redis_server::fresh_prefix(test);
    let monitor = Monitor::start(&redis.url());
    let args = ["--redis", &redis.url(), "--prefix", &prefix, "127.0.0.1:0"];
    let keys = [
        ("ELICIT_STATE_KEYS", STATE_KEYS),
        ("ELICIT_AT_REST_KEYS", AT_REST_KEYS),
    ];
    let asking = ServerProcess::start_with_env("secure_page", &args, &keys);
    let answering = ServerProcess::start_with_env("secure_page", &args, &keys);
    let (asking_origin, answering_origin) = (origin_of(&asking), origin_of(&answering));
    for (lifecycle, revision, user) in lifecycles() {
        let (client, mut links, seen) = connect(asking.url(), user, lifecycle).await;
        let Calling { client, call, link } = call_connect_calendar(client, &mut links).await;
        // The browser reaches the other replica, as a load balancer may send it.
        let elsewhere = link.replace(&asking_origin, &answering_origin);
        assert_ne!(elsewhere, link);
        // The other replica knows the form (`with_form`): it checks the address as the
        // asking one's tool would read it.
        let bad_address = [
            ("api_key", KEY),
            ("calendar", "Work"),
            ("server", "https://1.2.3.256/"),
        ];
        let refused = answer_on_the_page(&answering_origin, user, &elsewhere, &bad_address);
        assert_eq!(refused.status, 422, "{}", refused.body);
        assert!(refused.body.contains("Server must be a full web address"));
        let fields = [("api_key", KEY), ("calendar", "Work")];
        let sent = answer_on_the_page(&answering_origin, user, &elsewhere, &fields);
        assert_eq!(sent.status, 200, "{}", sent.body);
        let result = tokio::time::timeout(Duration::from_secs(60), call)
            .await
            .expect("the call ends within 60 s")
            .unwrap()
            .expect("the call succeeds");
        let text = result.content[0].as_text().unwrap().text.clone();
        assert_eq!(
            text,
            format!(
                "Connected {user}'s calendar \"Work\" with a key of {} characters.",
                KEY.len()
            ),
            "on {revision}"
        );
        let seen = seen.lock().unwrap().join("\n");
        assert!(!seen.contains(KEY), "{seen}");
        if let Ok(client) = Arc::try_unwrap(client) {
            let _ = client.cancel().await;
        }

        // The key kept in Redis: the other replica finds it without asking.
        let (client, _links, _seen) =
            connect(answering.url(), user, ClientLifecycleMode::Initialize).await;
        let again = client
            .call_tool(CallToolRequestParams::new("connect_calendar"))
            .await
            .expect("the call succeeds");
        assert_eq!(
            again.content[0].as_text().unwrap().text,
            format!(
                "{user}'s calendar is connected already, with a key of {} characters.",
                KEY.len()
            )
        );
        let _ = client.cancel().await;
    }

    // Everything both replicas sent Redis: the page's forms and held answers were there, and
    // the key in none of its encodings.
    let commands = monitor.stop();
    let written = |what: &str| commands.iter().any(|line| line.contains(what));
    assert!(
        written(&format!("\"{prefix}:p:")),
        "the page's forms are in Redis"
    );
    assert!(
        commands
            .iter()
            .any(|line| line.contains("\"HSETNX\"") && line.contains("\"answer\"")),
        "an answer was held in Redis"
    );
    assert!(
        written(&format!("\"{prefix}:c:")),
        "the key is kept in Redis"
    );
    for encoded in encodings_of(KEY) {
        let found: Vec<&String> = commands
            .iter()
            .filter(|line| line.contains(&encoded))
            .collect();
        assert!(found.is_empty(), "`{encoded}` reached Redis: {found:?}");
    }
}

/// The keys both replicas seal with, as an operator sets them on every replica.
const STATE_KEYS: &str = "state-1:0101010101010101010101010101010101010101010101010101010101010101";
const AT_REST_KEYS: &str =
    "rest-1:0202020202020202020202020202020202020202020202020202020202020202";

fn origin_of(server: &ServerProcess) -> String {
    server.url().trim_end_matches("/mcp").to_owned()
}

/// Every command Redis runs, as its `MONITOR` prints them, from a connection of its own.
struct Monitor {
    stream: std::net::TcpStream,
    lines: std::thread::JoinHandle<Vec<String>>,
}

impl Monitor {
    fn start(url: &str) -> Monitor {
        use std::io::{BufRead, BufReader, Write};
        let address = url
            .trim_start_matches("redis://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let mut stream = std::net::TcpStream::connect(&address).expect("Redis accepts");
        stream.write_all(b"MONITOR\r\n").unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut ok = String::new();
        reader.read_line(&mut ok).unwrap();
        assert_eq!(ok.trim_end(), "+OK", "MONITOR starts");
        let lines = std::thread::spawn(move || reader.lines().map_while(Result::ok).collect());
        Monitor { stream, lines }
    }

    fn stop(self) -> Vec<String> {
        // Everything sent before this has been printed: Redis answers in order.
        std::thread::sleep(Duration::from_millis(200));
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        self.lines.join().unwrap()
    }
}

/// `user`'s browser answers the page of `link` with `fields`: it signs in, opens the page once
/// the ask has put the form there, and posts the fields with the page's token.
fn answer_on_the_page(origin: &str, user: &str, link: &str, fields: &[(&str, &str)]) -> Answer {
    let mut browser = signed_in(origin, user);
    let page = request_page(link, &browser);
    browser.extend(page.cookies());
    request("POST", link, &browser, Some(&form(&token(&page), fields)))
}

/// The form page of `link` for a signed-in browser, once the ask has put it there.
fn request_page(link: &str, cookies: &[String]) -> Answer {
    for _ in 0..100 {
        let page = request("GET", link, cookies, None);
        if page.status == 200 {
            return page;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{link} never showed its form")
}

/// The official Python client's venv with Python Playwright added (1.65.3; no browser is
/// downloaded: the script is given Debian's `chromium`): its interpreter.
pub(crate) fn python_with_playwright() -> std::path::PathBuf {
    use std::sync::OnceLock;

    static PYTHON: OnceLock<std::path::PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let python = crate::examples::python_with_mcp();
            let status = std::process::Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "playwright==1.65.3"])
                .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
                .status()
                .expect("pip runs");
            assert!(status.success(), "pip install playwright==1.65.3 failed");
            python
        })
        .clone()
}

/// The key in the encodings it could travel in: as it is, in base64 (each of the three
/// alignments, standard and URL-safe), and percent-encoded.
fn encodings_of(key: &str) -> Vec<String> {
    use base64::Engine as _;
    let mut forms = vec![
        key.to_owned(),
        serde_urlencoded::to_string([("k", key)]).unwrap()[2..].to_owned(),
    ];
    for skip in 0..3 {
        let padded = format!("{}{key}", "x".repeat(skip));
        for engine in [
            base64::engine::general_purpose::STANDARD,
            base64::engine::general_purpose::URL_SAFE,
        ] {
            let encoded = engine.encode(&padded);
            // Only the characters that the key alone decides.
            let start = (skip * 4).div_ceil(3) + 1;
            let end = encoded.trim_end_matches('=').len().saturating_sub(2);
            if start < end {
                forms.push(encoded[start..end].to_owned());
            }
        }
    }
    forms
}

#[test]
#[ignore = "needs Debian's chromium (bash .ci/chromium), python3 with venv and network access to PyPI (it installs mcp==2.3.0 and playwright==1.65.3 into a venv under the temp dir); run with --ignored"]
fn the_official_python_client_and_chromium_connect_a_calendar_through_the_page_on_both_revisions() {
    use std::io::Read;
    use std::process::{Command, Stdio};

    const SECRET: &str = "sk-chromium-9f8e7d6c5b4a";
    let python = python_with_playwright();
    let chromium = which_chromium();
    for (mode, revision) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let mut server =
            Command::new(elicit_test_support::examples_built::examples_dir().join("secure_page"))
                .arg("127.0.0.1:0")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("secure_page starts");
        let mut stdout = server.stdout.take().unwrap();
        let mut first = Vec::new();
        let mut byte = [0u8; 1];
        while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
            first.push(byte[0]);
        }
        let first = String::from_utf8(first).unwrap();
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {first:?}"))
            .to_owned();
        let client = Command::new(&python)
            .arg(crate::examples::python_script("secure_page.py"))
            .args([&url, mode, "alice", chromium.as_str(), SECRET])
            .output()
            .expect("the Python client runs");
        let _ = server.kill();
        let _ = server.wait();
        let mut server_output = String::new();
        let _ = stdout.read_to_string(&mut server_output);
        let _ = server
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut server_output);
        let printed = String::from_utf8_lossy(&client.stdout);
        let stderr = String::from_utf8_lossy(&client.stderr);
        assert!(client.status.success(), "{printed}\n{stderr}");
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(
            lines[..lines.len() - 1],
            [
                format!("revision {revision}").as_str(),
                "page: another user refused",
                "page: form shown with its headers",
                "page: forged token refused",
                "page: wrong answer shown again",
                "page: sent, link spent",
                format!(
                    "result: Connected alice's calendar \"Work\" with a key of {} characters.",
                    SECRET.len()
                )
                .as_str(),
            ],
            "{stderr}"
        );
        let traffic = lines[lines.len() - 1]
            .strip_prefix("traffic ")
            .expect("the traffic line");
        let traffic: Vec<u8> = (0..traffic.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&traffic[i..i + 2], 16).unwrap())
            .collect();
        let traffic = String::from_utf8_lossy(&traffic);
        assert!(
            traffic.contains("Connect your calendar"),
            "the traffic was recorded"
        );
        for form in encodings_of(SECRET) {
            assert!(
                !traffic.contains(&form),
                "`{form}` is in the MCP traffic on {revision}"
            );
            assert!(
                !server_output.contains(&form),
                "`{form}` is in the server's output on {revision}"
            );
        }
    }
}

/// Debian's chromium, which `.ci/chromium` installs.
pub(crate) fn which_chromium() -> String {
    let path = "/usr/bin/chromium";
    assert!(
        std::path::Path::new(path).exists(),
        "chromium is not installed: run `bash .ci/chromium` (or apt-get install chromium)"
    );
    path.to_owned()
}
