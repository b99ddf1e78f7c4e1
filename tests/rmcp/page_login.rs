//! The page's login through a real authorization server: `oidc-provider`, started by
//! `.ci/oidc`, and `OidcLogin` on a server on loopback beside its secure page. A browser made
//! of an HTTP client and a cookie jar goes through the provider's own pages as a browser would
//! (its login form posted, its redirects followed), back to the page it asked for. The page of
//! alice's elicitation is shown to alice and refused to bob; a used, foreign or refused
//! login is answered with its status; the sign-out ends the session.
//!
//! Run under the provider: `bash .ci/oidc cargo test --test rmcp page_login -- --ignored`.

use std::collections::HashMap;
use std::sync::Arc;

use elicit_mcp::oauth::ProtectedResource;
use elicit_mcp::page::{OidcLogin, SecurePage};
use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal};
use elicit_mcp::server::{ElicitationTracker, SecureForms, UrlPolicy, UserId};
use elicit_mcp::{Elicit, ElicitOutcome, Secret};
use elicit_test_support::rmcp::first_url;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model as sdk;
use rmcp::service::{RoleClient, RunningService, serve_directly};
use rmcp::{ClientHandler, ServerHandler, tool, tool_handler, tool_router};
use serde_json::Value;

const NEEDS_PROVIDER: &str = "ELICIT_OIDC_ISSUER is not set: run under `bash .ci/oidc`";

/// The most redirects a login takes through the provider.
const MAX_STEPS: usize = 12;

#[derive(Elicit)]
#[elicit(message = "Connect your calendar")]
struct CalendarKey {
    /// The API key from your calendar's settings
    #[elicit(min_length = 8)]
    api_key: Secret<String>,
}

#[derive(Clone)]
struct Calendars {
    tool_router: ToolRouter<Calendars>,
}

#[tool_router]
impl Calendars {
    #[tool(description = "Connects a calendar")]
    async fn connect(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let text = match ask.secure::<CalendarKey>().await {
            Ok(ElicitOutcome::Accepted(key)) => {
                drop(key.api_key);
                "connected".to_owned()
            }
            Ok(_) => "not connected".to_owned(),
            Err(error) => return error.into_call_result(),
        };
        Ok(sdk::CallToolResult::success(vec![sdk::ContentBlock::text(
            text,
        )]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Calendars {}

/// A 2026-07-28 client that can be sent to a URL.
struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> sdk::ClientConfig {
        let capabilities = sdk::ClientCapabilities::try_from(
            &elicit_mcp::wire::ElicitationCapability::form_and_url(),
        )
        .unwrap();
        sdk::ClientConfig::new(
            capabilities,
            sdk::Implementation::new("page-login-test", "0"),
        )
        .with_protocol_version(sdk::ProtocolVersion::V_2026_07_28)
    }
}

/// The provider `.ci/oidc` started.
struct Provider {
    issuer: String,
    client_id: String,
    client_secret: String,
}

fn provider() -> Provider {
    let var = |name: &str| std::env::var(name).expect(NEEDS_PROVIDER);
    Provider {
        issuer: var("ELICIT_OIDC_ISSUER"),
        client_id: var("ELICIT_OIDC_PAGE_CLIENT_ID"),
        client_secret: var("ELICIT_OIDC_PAGE_CLIENT_SECRET"),
    }
}

/// The server: the page and its login on a loopback port, and an MCP client of the elicitation
/// (in memory), whose requests are `user`'s.
struct Server {
    origin: String,
    client: RunningService<RoleClient, Client>,
}

async fn start(provider: &Provider, user: &str) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let resource = ProtectedResource::new(&provider.issuer, &format!("{origin}/mcp")).unwrap();
    // The MCP request's user as the resource server makes it: from an access token the
    // provider issued to `user` for this resource, verified by the library.
    let user = user_of_access_token(provider, &resource, user).await;
    let tracker = Arc::new(ElicitationTracker::new(UrlPolicy::development()));
    let forms = SecureForms::new(format!("{origin}/secure")).unwrap();
    let seal = RequestStateSeal::from_keyring("test", [("test", [7u8; 32])]).unwrap();
    let elicitation = Elicitation::new(seal)
        .with_local_user(user)
        .with_url_mode(tracker.clone())
        .with_secure_page(forms.clone());
    let login = OidcLogin::discover(
        &resource,
        &origin,
        &provider.client_id,
        &provider.client_secret,
    )
    .await
    .unwrap();
    let page = SecurePage::new(forms, tracker, elicitation.clone(), login.clone())
        .with_login_url(OidcLogin::LOGIN_URL);
    let app = login.router().merge(page.router());
    tokio::spawn(async move { axum::serve(listener, app).await });
    Server {
        origin,
        client: connect(&elicitation),
    }
}

/// The user of an access token that `user` gets for `resource` as an MCP client gets one (a
/// public client registered, the code flow with PKCE and `resource`, the code exchanged), as
/// the library's verifier of JWT access tokens reads it.
async fn user_of_access_token(
    provider: &Provider,
    resource: &ProtectedResource,
    user: &str,
) -> UserId {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use elicit_mcp::http::Authenticate as _;
    use sha2::Digest as _;

    const REDIRECT: &str = "http://127.0.0.1:9/callback";
    let http = reqwest::Client::new();
    let metadata: Value = {
        let url = format!("{}/.well-known/openid-configuration", provider.issuer);
        serde_json::from_str(&http.get(url).send().await.unwrap().text().await.unwrap()).unwrap()
    };
    let endpoint = |name: &str| metadata[name].as_str().unwrap().to_owned();
    let registration = serde_json::json!({
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    let registered = http
        .post(endpoint("registration_endpoint"))
        .header("content-type", "application/json")
        .body(registration.to_string())
        .send()
        .await
        .unwrap();
    let registered: Value = serde_json::from_str(&registered.text().await.unwrap()).unwrap();
    let client_id = registered["client_id"].as_str().unwrap();
    let verifier = URL_SAFE_NO_PAD.encode([5u8; 32]);
    let challenge = URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()));
    let authorize = reqwest::Url::parse_with_params(
        &endpoint("authorization_endpoint"),
        [
            ("client_id", client_id),
            ("response_type", "code"),
            ("redirect_uri", REDIRECT),
            ("scope", "mcp:tools"),
            ("resource", resource.resource()),
            ("state", "s"),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ],
    )
    .unwrap();
    let back = Browser::new()
        .until_redirect_to(authorize.as_str(), user, REDIRECT)
        .await;
    let code = query_of(&back, "code").unwrap_or_else(|| panic!("a code: {back}"));
    let form = [
        ("grant_type", "authorization_code"),
        ("code", &code),
        ("redirect_uri", REDIRECT),
        ("client_id", client_id),
        ("code_verifier", &verifier),
        ("resource", resource.resource()),
    ];
    let tokens = http
        .post(endpoint("token_endpoint"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(form).unwrap())
        .send()
        .await
        .unwrap();
    let tokens: Value = serde_json::from_str(&tokens.text().await.unwrap()).unwrap();
    let token = tokens["access_token"].as_str().unwrap();
    let request = axum::http::Request::builder()
        .header("authorization", format!("Bearer {token}"))
        .body(())
        .unwrap()
        .into_parts()
        .0;
    let verifier = resource.jwt().await.unwrap();
    verifier.authenticate(&request).await.unwrap()
}

fn connect(elicitation: &Elicitation) -> RunningService<RoleClient, Client> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let mut client_info = Client.get_info();
    client_info.protocol_version = sdk::ProtocolVersion::V_2026_07_28;
    let server = Calendars {
        tool_router: Calendars::tool_router(),
    };
    let running = elicitation
        .serve_directly(server, server_io, Some(client_info))
        .unwrap();
    let mut server_info = running.service().get_info();
    server_info.protocol_version = sdk::ProtocolVersion::V_2026_07_28;
    tokio::spawn(async move {
        let _ = running.waiting().await;
    });
    serve_directly(Client, client_io, Some(server_info.into()))
}

impl Server {
    /// The page's link of a new elicitation of the server's user.
    async fn link(&self) -> String {
        let first = self
            .client
            .call_tool_once(sdk::CallToolRequestParams::new("connect"))
            .await
            .unwrap();
        let sdk::CallToolResponse::InputRequired(first) = first else {
            panic!("the first round asks for input: {first:?}");
        };
        let first = serde_json::to_value(&first).unwrap();
        first_url(&first).unwrap_or_else(|| panic!("a URL input request: {first}"))
    }
}

/// A browser: an HTTP client that follows no redirect by itself, and one cookie jar for
/// 127.0.0.1, whatever the port, as a browser keeps cookies by host.
struct Browser {
    http: reqwest::Client,
    cookies: HashMap<String, String>,
}

struct Page {
    status: StatusCode,
    location: Option<String>,
    body: String,
    url: String,
}

impl Browser {
    fn new() -> Browser {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Browser {
            http,
            cookies: HashMap::new(),
        }
    }

    async fn get(&mut self, url: &str) -> Page {
        let request = self.http.get(url);
        self.send(url, request).await
    }

    async fn post(&mut self, url: &str, form: &[(&str, &str)]) -> Page {
        let request = self
            .http
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(form).unwrap());
        self.send(url, request).await
    }

    async fn send(&mut self, url: &str, mut request: reqwest::RequestBuilder) -> Page {
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            request = request.header(COOKIE, jar.join("; "));
        }
        let response = request.send().await.unwrap();
        for set in response.headers().get_all(SET_COOKIE) {
            let set = set.to_str().unwrap();
            let (pair, attributes) = set.split_once(';').unwrap_or((set, ""));
            let (name, value) = pair.split_once('=').unwrap();
            let removed = value.is_empty() || attributes.to_ascii_lowercase().contains("max-age=0");
            if removed {
                self.cookies.remove(name.trim());
            } else {
                self.cookies
                    .insert(name.trim().to_owned(), value.to_owned());
            }
        }
        let status = response.status();
        let location = response.headers().get(LOCATION).map(|location| {
            let location = location.to_str().unwrap();
            reqwest::Url::parse(url)
                .unwrap()
                .join(location)
                .unwrap()
                .to_string()
        });
        let body = response.text().await.unwrap();
        Page {
            status,
            location,
            body,
            url: url.to_owned(),
        }
    }

    /// Follows redirects from `url`, filling the provider's login form with `user`, until a
    /// page of `origin` that is no redirect.
    async fn through_login(&mut self, url: &str, user: &str, origin: &str) -> Page {
        let mut page = self.get(url).await;
        for _ in 0..MAX_STEPS {
            match (page.status, page.location.clone()) {
                (StatusCode::SEE_OTHER | StatusCode::FOUND, Some(next)) => {
                    page = self.get(&next).await;
                }
                (StatusCode::OK, None) if !page.url.starts_with(&format!("{origin}/")) => {
                    let action = form_action(&page.body)
                        .unwrap_or_else(|| panic!("the provider's login form: {}", page.body));
                    let action = reqwest::Url::parse(&page.url)
                        .unwrap()
                        .join(&action)
                        .unwrap();
                    page = self.post(action.as_str(), &[("username", user)]).await;
                }
                _ => return page,
            }
        }
        panic!(
            "no end to the login after {MAX_STEPS} steps, at {}",
            page.url
        )
    }

    /// Follows redirects from `url` until the authorization server's redirect to the callback,
    /// whose URL it returns unopened.
    async fn until_callback(&mut self, url: &str, user: &str, origin: &str) -> String {
        self.until_redirect_to(url, user, &format!("{origin}/login/callback"))
            .await
    }

    /// Follows redirects from `url`, filling the provider's login form with `user`, until a
    /// redirect to `callback`, whose URL it returns unopened.
    async fn until_redirect_to(&mut self, url: &str, user: &str, callback: &str) -> String {
        let mut page = self.get(url).await;
        for _ in 0..MAX_STEPS {
            match (page.status, page.location.clone()) {
                (_, Some(next)) if next.starts_with(callback) => return next,
                (StatusCode::SEE_OTHER | StatusCode::FOUND, Some(next)) => {
                    page = self.get(&next).await;
                }
                (StatusCode::OK, None) => {
                    let action = form_action(&page.body)
                        .unwrap_or_else(|| panic!("the provider's login form: {}", page.body));
                    let action = reqwest::Url::parse(&page.url)
                        .unwrap()
                        .join(&action)
                        .unwrap();
                    page = self.post(action.as_str(), &[("username", user)]).await;
                }
                _ => panic!("status {} at {}: {}", page.status, page.url, page.body),
            }
        }
        panic!("no redirect to the callback after {MAX_STEPS} steps")
    }

    fn has_cookie(&self, name: &str) -> bool {
        self.cookies.contains_key(name)
    }
}

fn form_action(body: &str) -> Option<String> {
    let at = body.find("<form method=\"post\" action=\"")? + 28;
    Some(body[at..].split('"').next()?.replace("&#47;", "/"))
}

fn hidden(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = body
        .find(&marker)
        .unwrap_or_else(|| panic!("{name} in {body}"))
        + marker.len();
    body[at..].split('"').next().unwrap().to_owned()
}

fn query_of(url: &str, name: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

#[tokio::test]
#[ignore = "needs the test OpenID provider: run under `bash .ci/oidc` with --ignored"]
async fn alices_page_is_shown_to_alice_after_her_login_and_refused_to_bob() {
    let provider = provider();
    let server = start(&provider, "alice").await;
    let link = server.link().await;
    let path = link.strip_prefix(&server.origin).unwrap().to_owned();

    let mut alice = Browser::new();
    let first = alice.get(&link).await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.body);
    let to_login = first.location.unwrap();
    assert_eq!(
        query_of(&to_login, "return_to").as_deref(),
        Some(path.as_str())
    );
    let shown = alice
        .through_login(&to_login, "alice", &server.origin)
        .await;
    assert_eq!(shown.url, link, "back at the page asked for");
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    assert!(
        shown.body.contains("Connect your calendar"),
        "{}",
        shown.body
    );
    assert!(
        alice.has_cookie("elicit-session"),
        "{:?}",
        alice.cookies.keys()
    );

    let mut bob = Browser::new();
    let to_login = bob.get(&link).await.location.unwrap();
    let refused = bob.through_login(&to_login, "bob", &server.origin).await;
    assert_eq!(refused.url, link);
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(
        refused.body.contains("This link is not for you"),
        "{}",
        refused.body
    );
}

#[tokio::test]
#[ignore = "needs the test OpenID provider: run under `bash .ci/oidc` with --ignored"]
async fn a_used_state_a_foreign_browser_a_refusal_and_a_bad_code_are_refused() {
    let provider = provider();
    let server = start(&provider, "alice").await;
    let login = format!("{}/login?return_to=%2Fsecure%2Fx", server.origin);

    // A callback opened twice: the second finds its login taken.
    let mut alice = Browser::new();
    let callback = alice.until_callback(&login, "alice", &server.origin).await;
    let once = alice.get(&callback).await;
    assert_eq!(once.status, StatusCode::SEE_OTHER, "{}", once.body);
    assert_eq!(
        once.location.as_deref(),
        Some(&*format!("{}/secure/x", server.origin))
    );
    let again = alice.get(&callback).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.body);
    assert!(
        again.body.contains("can no longer be used"),
        "{}",
        again.body
    );

    // A callback carried to another browser (the login-CSRF attack): refused, and spent.
    let mut started = Browser::new();
    let callback = started
        .until_callback(&login, "alice", &server.origin)
        .await;
    let mut other = Browser::new();
    let foreign = other.get(&callback).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.body);
    assert!(
        foreign.body.contains("started elsewhere"),
        "{}",
        foreign.body
    );
    assert!(!other.has_cookie("elicit-session"));

    // The authorization server's refusal, as it sends it back.
    let mut browser = Browser::new();
    let to_provider = browser.get(&login).await.location.unwrap();
    let state = query_of(&to_provider, "state").unwrap();
    assert_eq!(
        query_of(&to_provider, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert!(query_of(&to_provider, "nonce").is_some());
    let denied = format!(
        "{}/login/callback?state={state}&error=access_denied&error_description=the+user+said+no",
        server.origin
    );
    let denied = browser.get(&denied).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.body);
    assert!(
        denied.body.contains("access_denied: the user said no"),
        "{}",
        denied.body
    );

    // A code the authorization server never issued: its token endpoint refuses it.
    let to_provider = browser.get(&login).await.location.unwrap();
    let state = query_of(&to_provider, "state").unwrap();
    let forged = format!("{}/login/callback?state={state}&code=forged", server.origin);
    let forged = browser.get(&forged).await;
    assert_eq!(forged.status, StatusCode::BAD_GATEWAY, "{}", forged.body);
    assert!(!browser.has_cookie("elicit-session"));

    // No state at all.
    let bare = browser
        .get(&format!("{}/login/callback?code=x", server.origin))
        .await;
    assert_eq!(bare.status, StatusCode::BAD_REQUEST, "{}", bare.body);
}

#[tokio::test]
#[ignore = "needs the test OpenID provider: run under `bash .ci/oidc` with --ignored"]
async fn a_return_path_off_this_server_is_not_followed() {
    let provider = provider();
    let server = start(&provider, "alice").await;
    let mut alice = Browser::new();
    let login = format!("{}/login?return_to=%2F%2Fevil.example%2F", server.origin);
    let callback = alice.until_callback(&login, "alice", &server.origin).await;
    let back = alice.get(&callback).await;
    assert_eq!(back.status, StatusCode::SEE_OTHER, "{}", back.body);
    assert_eq!(
        back.location.as_deref(),
        Some(&*format!("{}/login", server.origin))
    );
    let signed_in = alice.get(&back.location.unwrap()).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    assert!(
        signed_in
            .body
            .contains("signed in as <strong>alice</strong>"),
        "{}",
        signed_in.body
    );
}

#[tokio::test]
#[ignore = "needs the test OpenID provider: run under `bash .ci/oidc` with --ignored"]
async fn the_sign_out_ends_the_session_with_its_token_only() {
    let provider = provider();
    let server = start(&provider, "alice").await;
    let link = server.link().await;
    let mut alice = Browser::new();
    let to_login = alice.get(&link).await.location.unwrap();
    let shown = alice
        .through_login(&to_login, "alice", &server.origin)
        .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);

    let signed_in = alice.get(&format!("{}/login", server.origin)).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    let token = hidden(&signed_in.body, "_csrf");
    let logout = format!("{}/logout", server.origin);
    let forged = alice.post(&logout, &[("_csrf", "not-the-token")]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN, "{}", forged.body);
    assert_eq!(
        alice.get(&link).await.status,
        StatusCode::OK,
        "still signed in"
    );

    let session = alice.cookies["elicit-session"].clone();
    let out = alice.post(&logout, &[("_csrf", &token)]).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    assert!(!alice.has_cookie("elicit-session"), "the cookie is removed");
    let after = alice.get(&link).await;
    assert_eq!(after.status, StatusCode::SEE_OTHER, "sent to sign in again");
    // The session is ended on the server: its id, sent again, is no one's.
    alice.cookies.insert("elicit-session".to_owned(), session);
    let replayed = alice.get(&link).await;
    assert_eq!(replayed.status, StatusCode::SEE_OTHER, "{}", replayed.body);
}

/// The ID token's checks, against an authorization server of the test's own whose token
/// endpoint answers each code with the ID token the test chose: every bad one is refused
/// (502, no session), the good one opens a session.
mod id_token {
    use std::sync::{Arc, Mutex};

    use axum::extract::State;
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ed25519_dalek::pkcs8::EncodePrivateKey as _;
    use jsonwebtoken::{Algorithm, EncodingKey, Header};
    use serde_json::{Value, json};

    use super::*;

    const CLIENT_ID: &str = "page";

    struct Issuer {
        url: Mutex<String>,
        id_token: Mutex<Option<String>>,
        public: Value,
    }

    fn answer(value: Value) -> axum::response::Response {
        use axum::response::IntoResponse as _;
        let content_type = [(axum::http::header::CONTENT_TYPE, "application/json")];
        (content_type, value.to_string()).into_response()
    }

    async fn metadata(State(issuer): State<Arc<Issuer>>) -> axum::response::Response {
        let url = issuer.url.lock().unwrap().clone();
        answer(json!({
            "issuer": url,
            "jwks_uri": format!("{url}/jwks"),
            "authorization_endpoint": format!("{url}/authorize"),
            "token_endpoint": format!("{url}/token"),
            "end_session_endpoint": format!("{url}/session/end"),
        }))
    }

    async fn jwks(State(issuer): State<Arc<Issuer>>) -> axum::response::Response {
        answer(json!({ "keys": [issuer.public.clone()] }))
    }

    async fn token(State(issuer): State<Arc<Issuer>>) -> axum::response::Response {
        let mut tokens = json!({ "access_token": "opaque", "token_type": "Bearer" });
        if let Some(id_token) = issuer.id_token.lock().unwrap().clone() {
            tokens["id_token"] = json!(id_token);
        }
        answer(tokens)
    }

    fn now() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    }

    /// The test's issuer on a loopback port, signing with an Ed25519 key of kid `k1`: its
    /// state, its URL and its key.
    async fn start_issuer() -> (Arc<Issuer>, String, EncodingKey) {
        let key = ed25519_dalek::SigningKey::from_bytes(&[3; 32]);
        let encoding = EncodingKey::from_ed_der(key.to_pkcs8_der().unwrap().as_bytes());
        let issuer = Arc::new(Issuer {
            url: Mutex::default(),
            id_token: Mutex::default(),
            public: json!({
                "kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": "k1",
                "x": URL_SAFE_NO_PAD.encode(key.verifying_key().as_bytes()),
            }),
        });
        let router = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(metadata),
            )
            .route("/jwks", axum::routing::get(jwks))
            .route("/token", axum::routing::post(token))
            .with_state(issuer.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer_url = format!("http://{}", listener.local_addr().unwrap());
        *issuer.url.lock().unwrap() = issuer_url.clone();
        tokio::spawn(async move { axum::serve(listener, router).await });
        (issuer, issuer_url, encoding)
    }

    fn signed(claims: &Value, key: &EncodingKey, kid: &str) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, key).unwrap()
    }

    fn claims_of(issuer: &str, user: &str, nonce: &str) -> Value {
        json!({
            "iss": issuer, "sub": user, "aud": CLIENT_ID, "nonce": nonce,
            "iat": now(), "exp": now() + 300,
        })
    }

    #[tokio::test]
    async fn an_id_token_that_does_not_hold_opens_no_session() {
        let (issuer, issuer_url, encoding) = start_issuer().await;
        let other = ed25519_dalek::SigningKey::from_bytes(&[4; 32]);
        let forger = EncodingKey::from_ed_der(other.to_pkcs8_der().unwrap().as_bytes());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let resource = ProtectedResource::new(&issuer_url, &format!("{origin}/mcp")).unwrap();
        let login = OidcLogin::discover(&resource, &origin, CLIENT_ID, "secret")
            .await
            .unwrap();
        let app = login.router();
        tokio::spawn(async move { axum::serve(listener, app).await });

        let good = |nonce: &str| claims_of(&issuer_url, "alice", nonce);
        type Change = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(&str, Change, bool)> = vec![
            (
                "another nonce",
                Box::new(|c| c["nonce"] = json!("not-it")),
                false,
            ),
            (
                "no nonce",
                Box::new(|c| drop(c.as_object_mut().unwrap().remove("nonce"))),
                false,
            ),
            (
                "another audience",
                Box::new(|c| c["aud"] = json!("other-client")),
                false,
            ),
            (
                "another issuer",
                Box::new(|c| c["iss"] = json!("http://127.0.0.1:1")),
                false,
            ),
            (
                "expired",
                Box::new(|c| c["exp"] = json!(now() - 3600)),
                false,
            ),
            (
                "no sub",
                Box::new(|c| drop(c.as_object_mut().unwrap().remove("sub"))),
                false,
            ),
            (
                "azp another client",
                Box::new(|c| c["azp"] = json!("other-client")),
                false,
            ),
            (
                "several audiences, no azp",
                Box::new(|c| c["aud"] = json!([CLIENT_ID, "other-client"])),
                false,
            ),
            ("a good one", Box::new(|_| {}), true),
        ];
        let mut browser = Browser::new();
        let callback_of = |to_provider: &str| {
            let state = query_of(to_provider, "state").unwrap();
            format!("{origin}/login/callback?state={state}&code=c")
        };
        for (what, change, holds) in &cases {
            let to_provider = browser
                .get(&format!("{origin}/login"))
                .await
                .location
                .unwrap();
            let mut claims = good(&query_of(&to_provider, "nonce").unwrap());
            change(&mut claims);
            *issuer.id_token.lock().unwrap() = Some(signed(&claims, &encoding, "k1"));
            let back = browser.get(&callback_of(&to_provider)).await;
            let status = if *holds {
                StatusCode::SEE_OTHER
            } else {
                StatusCode::BAD_GATEWAY
            };
            assert_eq!(back.status, status, "{what}: {}", back.body);
            assert_eq!(browser.has_cookie("elicit-session"), *holds, "{what}");
        }
        browser.cookies.remove("elicit-session");

        // Signed by a key the issuer does not publish, under its kid, or another; and none.
        let forged_tokens = |nonce: &str| {
            [
                (
                    "a forged signature",
                    Some(signed(&good(nonce), &forger, "k1")),
                ),
                (
                    "an unknown kid",
                    Some(signed(&good(nonce), &encoding, "k2")),
                ),
                ("no ID token", None),
            ]
        };
        for index in 0..3 {
            let to_provider = browser
                .get(&format!("{origin}/login"))
                .await
                .location
                .unwrap();
            let (what, id_token) = forged_tokens(&query_of(&to_provider, "nonce").unwrap())
                .into_iter()
                .nth(index)
                .unwrap();
            *issuer.id_token.lock().unwrap() = id_token;
            let back = browser.get(&callback_of(&to_provider)).await;
            assert_eq!(
                back.status,
                StatusCode::BAD_GATEWAY,
                "{what}: {}",
                back.body
            );
            assert!(!browser.has_cookie("elicit-session"), "{what}");
        }
    }

    #[tokio::test]
    async fn the_sign_out_goes_on_to_the_issuers_own_when_asked() {
        let (issuer, issuer_url, encoding) = start_issuer().await;
        let resource = ProtectedResource::new(&issuer_url, "http://127.0.0.1:9/mcp").unwrap();
        let mut origins = Vec::new();
        for issuer_logout in [false, true] {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let origin = format!("http://{}", listener.local_addr().unwrap());
            let mut login = OidcLogin::discover(&resource, &origin, CLIENT_ID, "secret")
                .await
                .unwrap();
            if issuer_logout {
                login = login.with_issuer_logout();
            }
            let app = login.router();
            tokio::spawn(async move { axum::serve(listener, app).await });
            origins.push(origin);
        }
        for (origin, goes_on) in origins.iter().zip([false, true]) {
            let mut browser = Browser::new();
            let to_provider = browser
                .get(&format!("{origin}/login"))
                .await
                .location
                .unwrap();
            let nonce = query_of(&to_provider, "nonce").unwrap();
            *issuer.id_token.lock().unwrap() = Some(signed(
                &claims_of(&issuer_url, "alice", &nonce),
                &encoding,
                "k1",
            ));
            let state = query_of(&to_provider, "state").unwrap();
            let callback = format!("{origin}/login/callback?state={state}&code=c");
            assert_eq!(browser.get(&callback).await.status, StatusCode::SEE_OTHER);
            let signed_in = browser.get(&format!("{origin}/login")).await;
            let token = hidden(&signed_in.body, "_csrf");
            let out = browser
                .post(&format!("{origin}/logout"), &[("_csrf", &token)])
                .await;
            assert!(!browser.has_cookie("elicit-session"));
            if goes_on {
                assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
                assert_eq!(
                    out.location.as_deref(),
                    Some(&*format!("{issuer_url}/session/end?client_id={CLIENT_ID}"))
                );
            } else {
                assert_eq!(out.status, StatusCode::OK, "{}", out.body);
                assert_eq!(out.location, None);
            }
        }
    }

    #[tokio::test]
    #[ignore = "needs Redis: redis-server on PATH (apt-get install redis-server) or REDIS_URL; run with --include-ignored"]
    async fn a_login_started_on_one_replica_finishes_on_another() {
        use elicit_mcp::server::{AtRestKeys, RedisStore};
        use elicit_test_support::redis_server::{self, Redis};

        let redis = Redis::for_test("a_login_started_on_one_replica_finishes_on_another");
        let prefix = redis_server::fresh_prefix("page-login");
        let (issuer, issuer_url, encoding) = start_issuer().await;
        // Two replicas behind one public origin (a load balancer's): A's address stands for it.
        let (a, b) = (
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        );
        let origin = format!("http://{}", a.local_addr().unwrap());
        let replica_b = format!("http://{}", b.local_addr().unwrap());
        let resource = ProtectedResource::new(&issuer_url, &format!("{origin}/mcp")).unwrap();
        for listener in [a, b] {
            let store = RedisStore::connect(&redis.url())
                .await
                .unwrap()
                .with_prefix(prefix.clone());
            let keys = AtRestKeys::from_keyring("k", [("k", [9u8; 32])]).unwrap();
            let login = OidcLogin::discover(&resource, &origin, CLIENT_ID, "secret")
                .await
                .unwrap()
                .in_redis(&store, keys);
            let app = login.router();
            tokio::spawn(async move { axum::serve(listener, app).await });
        }

        let mut browser = Browser::new();
        let to_provider = browser
            .get(&format!("{origin}/login?return_to=%2Fsecure%2Fx"))
            .await
            .location
            .unwrap();
        let nonce = query_of(&to_provider, "nonce").unwrap();
        *issuer.id_token.lock().unwrap() = Some(signed(
            &claims_of(&issuer_url, "alice", &nonce),
            &encoding,
            "k1",
        ));
        let state = query_of(&to_provider, "state").unwrap();
        let callback = format!("{replica_b}/login/callback?state={state}&code=c");
        let back = browser.get(&callback).await;
        assert_eq!(back.status, StatusCode::SEE_OTHER, "{}", back.body);
        assert_eq!(
            back.location.as_deref(),
            Some(&*format!("{replica_b}/secure/x"))
        );
        let again = browser.get(&callback).await;
        assert_eq!(
            again.status,
            StatusCode::BAD_REQUEST,
            "taken once, on any replica"
        );

        // The session opened on B is known on A; signed out on A, it is gone on B.
        let on_a = browser.get(&format!("{origin}/login")).await;
        assert_eq!(on_a.status, StatusCode::OK, "{}", on_a.body);
        assert!(
            on_a.body.contains("<strong>alice</strong>"),
            "{}",
            on_a.body
        );
        let token = hidden(&on_a.body, "_csrf");
        let session = browser.cookies["elicit-session"].clone();
        let out = browser
            .post(&format!("{origin}/logout"), &[("_csrf", &token)])
            .await;
        assert_eq!(out.status, StatusCode::OK, "{}", out.body);
        browser.cookies.insert("elicit-session".to_owned(), session);
        let on_b = browser.get(&format!("{replica_b}/login")).await;
        assert_eq!(
            on_b.status,
            StatusCode::SEE_OTHER,
            "no session: a new login starts"
        );
    }
}
