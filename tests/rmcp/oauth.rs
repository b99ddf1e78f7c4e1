//! `elicit_mcp::oauth` against an authorization server the test starts on loopback (an axum
//! router serving RFC 8414 metadata, a JWKS and an introspection endpoint; its tokens signed
//! here with real Ed25519 keys through jsonwebtoken, and with a fixed RSA key as RS256, the
//! algorithm of the real provider's tokens), through the guard in front of rmcp's streamable
//! HTTP service: each refusal with its status and `WWW-Authenticate`, a key rotation followed,
//! a flood of unknown keys not, introspection and its cache, and the protected-resource
//! metadata at both its paths.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{Form, State};
use axum::http::HeaderMap;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ed25519_dalek::pkcs8::EncodePrivateKey;
use elicit_mcp::http::{Authenticate, Guard};
use elicit_mcp::oauth::ProtectedResource;
use elicit_mcp::rmcp::Tasks;
use elicit_mcp::server::UserId;
use elicit_test_support::rmcp::seal;
use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::{Value, json};

use crate::conformance_server::ConformanceServer;

const SCOPE: &str = "mcp:tools";
const CLIENT_ID: &str = "mcp-server";
const CLIENT_SECRET: &str = "the server's secret";
/// The RSA key of the RS256 test, fixed (its file says how it was made).
const RSA_TEST_KEY: &str = include_str!("../data/oauth/rsa_test_key.pem");

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A signing key of the test's authorization server, the algorithm it signs with, and its
/// public JWK.
struct SigningKey {
    kid: String,
    algorithm: Algorithm,
    encoding: EncodingKey,
    public: Value,
}

impl SigningKey {
    fn new(kid: &str, seed: u8) -> Self {
        let key = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
        let der = key
            .to_pkcs8_der()
            .expect("an Ed25519 key writes as PKCS #8");
        let encoding = EncodingKey::from_ed_der(der.as_bytes());
        // The public key as an issuer publishes it (RFC 8037), read back by jsonwebtoken's
        // own JWK type so that a typo here cannot pass.
        let public = json!({
            "kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(key.verifying_key().as_bytes()),
        });
        serde_json::from_value::<Jwk>(public.clone()).expect("a JWK");
        SigningKey {
            kid: kid.to_owned(),
            algorithm: Algorithm::EdDSA,
            encoding,
            public,
        }
    }

    /// The fixed RSA test key, signing RS256; its JWK's `n` and `e` computed from the key by
    /// jsonwebtoken.
    fn rsa(kid: &str) -> Self {
        let (label, der) = pem_rfc7468::decode_vec(RSA_TEST_KEY.as_bytes()).expect("a PEM key");
        assert_eq!(label, "RSA PRIVATE KEY", "PKCS #1, as from_rsa_der reads");
        let encoding = EncodingKey::from_rsa_der(&der);
        let mut jwk = Jwk::from_encoding_key(&encoding, Algorithm::RS256).expect("an RSA key");
        jwk.common.key_id = Some(kid.to_owned());
        jwk.common.public_key_use = Some(PublicKeyUse::Signature);
        SigningKey {
            kid: kid.to_owned(),
            algorithm: Algorithm::RS256,
            encoding,
            public: serde_json::to_value(jwk).unwrap(),
        }
    }

    /// `claims` signed with this key as a JWT naming `kid`.
    fn sign_as(&self, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(self.algorithm);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }

    fn sign(&self, claims: &Value) -> String {
        self.sign_as(&self.kid, claims)
    }
}

/// The test's authorization server: what it publishes, and how often it was asked.
#[derive(Default)]
struct Authority {
    issuer: Mutex<String>,
    /// The issuer its metadata names, when it lies.
    claimed_issuer: Mutex<Option<String>>,
    jwks: Mutex<Vec<Value>>,
    /// Introspection answers by token; any other token is inactive.
    introspected: Mutex<HashMap<String, Value>>,
    jwks_fetches: AtomicUsize,
    introspections: AtomicUsize,
}

impl Authority {
    fn issuer(&self) -> String {
        self.issuer.lock().unwrap().clone()
    }
}

/// A JSON answer (axum's own `Json` is behind a feature the workspace does not turn on).
struct Json(Value);

impl axum::response::IntoResponse for Json {
    fn into_response(self) -> axum::response::Response {
        let content_type = [(axum::http::header::CONTENT_TYPE, "application/json")];
        (content_type, self.0.to_string()).into_response()
    }
}

async fn metadata(State(authority): State<Arc<Authority>>) -> Json {
    let issuer = authority.issuer();
    let named = authority.claimed_issuer.lock().unwrap().clone();
    Json(json!({
        "issuer": named.unwrap_or_else(|| issuer.clone()),
        "jwks_uri": format!("{issuer}/jwks"),
        "introspection_endpoint": format!("{issuer}/introspect"),
        "token_endpoint": format!("{issuer}/token"),
        "authorization_endpoint": format!("{issuer}/authorize"),
    }))
}

async fn jwks(State(authority): State<Arc<Authority>>) -> Json {
    authority.jwks_fetches.fetch_add(1, Ordering::SeqCst);
    Json(json!({ "keys": authority.jwks.lock().unwrap().clone() }))
}

async fn introspect(
    State(authority): State<Arc<Authority>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Json, axum::http::StatusCode> {
    authority.introspections.fetch_add(1, Ordering::SeqCst);
    let expected = format!(
        "Basic {}",
        STANDARD.encode(format!("{CLIENT_ID}:the+server%27s+secret"))
    );
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return Err(axum::http::StatusCode::UNAUTHORIZED);
    }
    let token = form.get("token").cloned().unwrap_or_default();
    let answer = authority.introspected.lock().unwrap().get(&token).cloned();
    // As an authorization server does: a token past its `exp` is no longer active.
    Ok(Json(match answer {
        Some(answer) if answer["exp"].as_u64().is_some_and(|exp| exp > now()) => answer,
        _ => json!({ "active": false }),
    }))
}

/// Serves `router` on a free loopback port until the test ends; its base URL.
async fn serve(router: axum::Router) -> (String, SocketAddr) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    (format!("http://{address}"), address)
}

async fn start_authority(keys: &[&SigningKey]) -> Arc<Authority> {
    let authority = Arc::new(Authority::default());
    *authority.jwks.lock().unwrap() = keys.iter().map(|key| key.public.clone()).collect();
    let router = axum::Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            axum::routing::get(metadata),
        )
        .route("/jwks", axum::routing::get(jwks))
        .route("/introspect", axum::routing::post(introspect))
        .with_state(authority.clone());
    let (url, _) = serve(router).await;
    *authority.issuer.lock().unwrap() = url;
    authority
}

/// The MCP server at `/mcp` on a port bound first, so that its public URL is known before it
/// is configured; `verifier` made from the configuration.
struct McpServer {
    mcp: String,
    origin: String,
}

async fn start_mcp(
    resource: ProtectedResource,
    listener: tokio::net::TcpListener,
    verifier: impl Authenticate,
) -> McpServer {
    let address = listener.local_addr().unwrap();
    let elicitation =
        ConformanceServer::elicitation(seal(), Tasks::new()).with_authentication(verifier);
    let mcp = Guard::new()
        .serve(
            &elicitation,
            ConformanceServer::new,
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        )
        .expect("the fixtures' task tools are the server's");
    let app = axum::Router::new()
        .nest_service("/mcp", mcp)
        .merge(resource.metadata_router());
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    McpServer {
        mcp: format!("http://{address}/mcp"),
        origin: format!("http://{address}"),
    }
}

/// A bound listener and the resource configured for it, at `/mcp`, needing `SCOPE`.
async fn bound(issuer: &str) -> (tokio::net::TcpListener, ProtectedResource) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let resource = ProtectedResource::new(issuer, &format!("http://{address}/mcp"))
        .unwrap()
        .with_scopes([SCOPE])
        .unwrap();
    (listener, resource)
}

/// What the guard answered an `initialize` carrying `authorization`.
struct Answered {
    status: u16,
    challenge: Option<String>,
}

async fn initialize(url: &str, authorization: Option<&str>) -> Answered {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "oauth-test", "version": "1"}}});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    if let Some(authorization) = authorization {
        request = request.header("authorization", authorization);
    }
    let response = request.send().await.expect("the server answers");
    Answered {
        status: response.status().as_u16(),
        challenge: response
            .headers()
            .get("www-authenticate")
            .map(|value| value.to_str().unwrap().to_owned()),
    }
}

async fn with_token(url: &str, token: &str) -> Answered {
    initialize(url, Some(&format!("Bearer {token}"))).await
}

fn claims(issuer: &str, audience: &str) -> Value {
    json!({
        "iss": issuer, "sub": "alice", "aud": audience, "scope": format!("openid {SCOPE}"),
        "iat": now(), "exp": now() + 300,
    })
}

/// `token` with one bit of its signature's last byte changed: for RSA, the signature as a
/// number stays below the modulus, so it is the check of the signature that refuses it.
fn with_changed_signature(token: &str) -> String {
    let (message, signature) = token.rsplit_once('.').unwrap();
    let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    format!("{message}.{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// The request parts of a bearer token, for the verifier called directly.
fn parts_with(token: &str) -> axum::http::request::Parts {
    axum::http::Request::builder()
        .header("authorization", format!("Bearer {token}"))
        .body(())
        .unwrap()
        .into_parts()
        .0
}

fn assert_refused(answered: &Answered, status: u16, error: &str, metadata: &str, what: &str) {
    assert_eq!(answered.status, status, "{what}");
    let challenge = answered.challenge.as_deref().unwrap_or_default();
    assert!(
        challenge.starts_with(&format!("Bearer error=\"{error}\"")),
        "{what}: {challenge}"
    );
    assert!(
        challenge.contains(&format!("resource_metadata=\"{metadata}\"")),
        "{what}: {challenge}"
    );
    assert!(
        challenge.contains(&format!("scope=\"{SCOPE}\"")),
        "{what}: {challenge}"
    );
}

#[tokio::test]
async fn jwt_access_tokens_are_verified_and_each_refusal_answered_as_rfc_6750_says() {
    let key = SigningKey::new("k1", 1);
    let authority = start_authority(&[&key]).await;
    let issuer = authority.issuer();
    let (listener, resource) = bound(&issuer).await;
    let verifier = resource
        .jwt()
        .await
        .expect("the authorization server is up");
    let server = start_mcp(resource.clone(), listener, verifier.clone()).await;
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp", server.origin);
    assert_eq!(resource.metadata_url(), metadata);
    let audience = resource.resource().to_owned();
    assert_eq!(audience, server.mcp);

    let good = key.sign(&claims(&issuer, &audience));
    assert_eq!(with_token(&server.mcp, &good).await.status, 200);
    let user = verifier.authenticate(&parts_with(&good)).await.unwrap();
    assert_eq!(user.issuer(), Some(issuer.as_str()));
    assert_eq!(user.subject(), "alice");
    let elsewhere = UserId::from_issuer_and_subject("https://other.example", "alice").unwrap();
    assert_ne!(
        user, elsewhere,
        "the same sub at another issuer is another user"
    );

    let none = initialize(&server.mcp, None).await;
    assert_eq!(none.status, 401);
    assert_eq!(
        none.challenge.as_deref(),
        Some(format!("Bearer resource_metadata=\"{metadata}\", scope=\"{SCOPE}\"").as_str())
    );
    let basic = initialize(&server.mcp, Some("Basic YWxpY2U6c2VjcmV0")).await;
    assert_refused(&basic, 400, "invalid_request", &metadata, "a Basic header");

    let mut expired = claims(&issuer, &audience);
    expired["exp"] = json!(now() - 120);
    let mut early = claims(&issuer, &audience);
    early["nbf"] = json!(now() + 300);
    let other_audience = claims(&issuer, "https://another.example/mcp");
    let other_issuer = claims("https://another-issuer.example", &audience);
    let mut no_sub = claims(&issuer, &audience);
    no_sub.as_object_mut().unwrap().remove("sub");
    let forged = {
        // Another key, named as the issuer's: the signature does not verify.
        let impostor = SigningKey::new("k1", 9);
        impostor.sign(&claims(&issuer, &audience))
    };
    let changed_signature = {
        let (message, signature) = good.rsplit_once('.').unwrap();
        let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap();
        bytes[0] ^= 1;
        format!("{message}.{}", URL_SAFE_NO_PAD.encode(bytes))
    };
    let changed_claims = {
        let mut parts: Vec<&str> = good.split('.').collect();
        let mut more = claims(&issuer, &audience);
        more["sub"] = json!("mallory");
        let payload = URL_SAFE_NO_PAD.encode(more.to_string());
        parts[1] = &payload;
        parts.join(".")
    };
    let alg_none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT","kid":"k1"}"#),
        URL_SAFE_NO_PAD.encode(claims(&issuer, &audience).to_string())
    );
    // HS256 "signed" with the issuer's public key as the HMAC secret: the JWK as published,
    // and its raw key bytes.
    let hmac_with = |secret: &[u8]| {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("k1".to_owned());
        jsonwebtoken::encode(
            &header,
            &claims(&issuer, &audience),
            &EncodingKey::from_secret(secret).unwrap(),
        )
        .unwrap()
    };
    let public_jwk = key.public.to_string();
    let public_raw = URL_SAFE_NO_PAD
        .decode(key.public["x"].as_str().unwrap())
        .unwrap();
    let unknown_kid = key.sign_as("k-unknown", &claims(&issuer, &audience));
    let algorithm = "the token is signed with an algorithm this server does not accept";
    let signature = "the token's signature does not verify";
    for (token, what, why) in [
        (key.sign(&expired), "expired", "the token has expired"),
        (
            key.sign(&early),
            "not valid yet",
            "the token is not valid yet",
        ),
        (
            key.sign(&other_audience),
            "another audience",
            "the token is not for this server",
        ),
        (
            key.sign(&other_issuer),
            "another issuer",
            "the token is not from this server's issuer",
        ),
        (
            key.sign(&no_sub),
            "no subject",
            "the token lacks a claim this server needs",
        ),
        (forged, "signed by another key", signature),
        (changed_signature, "a changed signature", signature),
        (changed_claims, "changed claims", signature),
        (alg_none, "alg none", "the token is not a signed JWT"),
        (
            hmac_with(public_jwk.as_bytes()),
            "HS256 with the public JWK",
            algorithm,
        ),
        (
            hmac_with(&public_raw),
            "HS256 with the public key's bytes",
            algorithm,
        ),
        (
            unknown_kid,
            "an unknown kid",
            "the token is signed with a key the issuer does not publish",
        ),
        (
            "not-a-jwt".to_owned(),
            "not a JWT",
            "the token is not a signed JWT",
        ),
    ] {
        let answered = with_token(&server.mcp, &token).await;
        assert_refused(&answered, 401, "invalid_token", &metadata, what);
        let challenge = answered.challenge.unwrap();
        assert!(
            challenge.contains(&format!("error_description=\"{why}\"")),
            "{what}: {challenge}"
        );
    }

    let mut narrow = claims(&issuer, &audience);
    narrow["scope"] = json!("openid");
    let answered = with_token(&server.mcp, &key.sign(&narrow)).await;
    assert_eq!(answered.status, 403);
    let challenge = answered.challenge.unwrap();
    assert!(
        challenge.starts_with("Bearer error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(
        challenge.contains(&format!("scope=\"{SCOPE}\"")),
        "{challenge}"
    );
    assert!(
        challenge.contains(&format!("resource_metadata=\"{metadata}\"")),
        "{challenge}"
    );
    // `scp`, as a list, is read too.
    let mut listed = claims(&issuer, &audience);
    listed.as_object_mut().unwrap().remove("scope");
    listed["scp"] = json!([SCOPE]);
    assert_eq!(
        with_token(&server.mcp, &key.sign(&listed)).await.status,
        200
    );
}

/// The real provider (`.ci/oidc`) signs RS256, which its tests check only where they run; this
/// one always runs.
#[tokio::test]
async fn rs256_access_tokens_are_verified_and_a_changed_signature_refused() {
    let key = SigningKey::rsa("rsa-1");
    assert_eq!(key.public["kty"], "RSA");
    let authority = start_authority(&[&key]).await;
    let issuer = authority.issuer();
    let (listener, resource) = bound(&issuer).await;
    let verifier = resource.jwt().await.expect("the RSA key is published");
    let server = start_mcp(resource.clone(), listener, verifier.clone()).await;
    let audience = resource.resource().to_owned();

    let good = key.sign(&claims(&issuer, &audience));
    assert_eq!(
        jsonwebtoken::decode_header(&good).unwrap().alg,
        Algorithm::RS256
    );
    assert_eq!(with_token(&server.mcp, &good).await.status, 200);
    let user = verifier.authenticate(&parts_with(&good)).await.unwrap();
    assert_eq!(
        user,
        UserId::from_issuer_and_subject(&issuer, "alice").unwrap()
    );

    let answered = with_token(&server.mcp, &with_changed_signature(&good)).await;
    let what = "a changed RS256 signature";
    assert_refused(
        &answered,
        401,
        "invalid_token",
        resource.metadata_url(),
        what,
    );
    let challenge = answered.challenge.unwrap();
    assert!(
        challenge.contains("error_description=\"the token's signature does not verify\""),
        "{challenge}"
    );
}

#[tokio::test]
async fn a_rotated_key_is_fetched_again_and_a_flood_of_unknown_keys_is_not() {
    let old = SigningKey::new("old", 1);
    let new = SigningKey::new("new", 2);
    let authority = start_authority(&[&old]).await;
    let issuer = authority.issuer();
    let (listener, resource) = bound(&issuer).await;
    // Long enough for the flood below to fit in it on a loaded machine.
    let interval = Duration::from_secs(4);
    let resource = resource.with_key_refetch_interval(interval);
    let verifier = resource.jwt().await.unwrap();
    let server = start_mcp(resource.clone(), listener, verifier).await;
    let audience = resource.resource().to_owned();
    assert_eq!(authority.jwks_fetches.load(Ordering::SeqCst), 1);

    // The issuer rotates its key; the held set is older than the interval.
    *authority.jwks.lock().unwrap() = vec![new.public.clone()];
    tokio::time::sleep(interval).await;
    let rotated = new.sign(&claims(&issuer, &audience));
    assert_eq!(with_token(&server.mcp, &rotated).await.status, 200);
    assert_eq!(authority.jwks_fetches.load(Ordering::SeqCst), 2);
    // Held now: no fetch more.
    assert_eq!(with_token(&server.mcp, &rotated).await.status, 200);
    assert_eq!(authority.jwks_fetches.load(Ordering::SeqCst), 2);

    let mut flood = tokio::task::JoinSet::new();
    for n in 0..25 {
        let made_up = new.sign_as(&format!("made-up-{n}"), &claims(&issuer, &audience));
        let url = server.mcp.clone();
        flood.spawn(async move { with_token(&url, &made_up).await.status });
    }
    while let Some(status) = flood.join_next().await {
        assert_eq!(status.unwrap(), 401);
    }
    assert_eq!(
        authority.jwks_fetches.load(Ordering::SeqCst),
        2,
        "a flood of unknown kids within the interval fetches nothing"
    );
    tokio::time::sleep(interval).await;
    let made_up = new.sign_as("made-up-later", &claims(&issuer, &audience));
    assert_eq!(with_token(&server.mcp, &made_up).await.status, 401);
    assert_eq!(
        authority.jwks_fetches.load(Ordering::SeqCst),
        3,
        "past the interval an unknown kid fetches once"
    );
}

#[tokio::test]
async fn introspected_tokens_are_verified_and_their_answers_cached_within_their_life() {
    let authority = start_authority(&[&SigningKey::new("k1", 1)]).await;
    let issuer = authority.issuer();
    let (listener, resource) = bound(&issuer).await;
    let audience = resource.resource().to_owned();
    let verifier = resource
        .introspection(CLIENT_ID, CLIENT_SECRET)
        .await
        .unwrap()
        .with_cache_time(Duration::from_secs(60));
    let server = start_mcp(resource.clone(), listener, verifier).await;
    let metadata = resource.metadata_url().to_owned();
    let answer = |sub: &str, scope: &str, life: u64| {
        json!({"active": true, "iss": issuer, "sub": sub, "aud": [audience], "scope": scope,
               "exp": now() + life, "token_type": "Bearer"})
    };
    {
        let mut table = authority.introspected.lock().unwrap();
        table.insert("opaque-alice".into(), answer("alice", SCOPE, 300));
        table.insert("opaque-narrow".into(), answer("bob", "openid", 300));
        table.insert("opaque-brief".into(), answer("carol", SCOPE, 2));
        let mut elsewhere = answer("dave", SCOPE, 300);
        elsewhere["aud"] = json!("https://another.example/mcp");
        table.insert("opaque-elsewhere".into(), elsewhere);
    }
    let hits = || authority.introspections.load(Ordering::SeqCst);

    assert_eq!(with_token(&server.mcp, "opaque-alice").await.status, 200);
    assert_eq!(hits(), 1);
    assert_eq!(with_token(&server.mcp, "opaque-alice").await.status, 200);
    assert_eq!(hits(), 1, "the second request is answered from the cache");

    let inactive = with_token(&server.mcp, "opaque-unknown").await;
    assert_refused(&inactive, 401, "invalid_token", &metadata, "inactive");
    assert_eq!(hits(), 2);
    let elsewhere = with_token(&server.mcp, "opaque-elsewhere").await;
    assert_refused(
        &elsewhere,
        401,
        "invalid_token",
        &metadata,
        "another audience",
    );
    let narrow = with_token(&server.mcp, "opaque-narrow").await;
    assert_eq!(narrow.status, 403);
    assert!(
        narrow
            .challenge
            .unwrap()
            .starts_with("Bearer error=\"insufficient_scope\"")
    );

    let before = hits();
    assert_eq!(with_token(&server.mcp, "opaque-brief").await.status, 200);
    assert_eq!(with_token(&server.mcp, "opaque-brief").await.status, 200);
    assert_eq!(hits(), before + 1);
    // Past the token's `exp` (well within the cache time), the cache asks again.
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let expired = with_token(&server.mcp, "opaque-brief").await;
    assert_refused(
        &expired,
        401,
        "invalid_token",
        &metadata,
        "expired since cached",
    );
    assert_eq!(
        hits(),
        before + 2,
        "the cached answer ended with the token's life"
    );
}

#[tokio::test]
async fn introspection_with_credentials_the_server_refuses_refuses_the_token() {
    let authority = start_authority(&[&SigningKey::new("k1", 1)]).await;
    let (listener, resource) = bound(&authority.issuer()).await;
    let verifier = resource
        .introspection(CLIENT_ID, "a wrong secret")
        .await
        .unwrap();
    let server = start_mcp(resource.clone(), listener, verifier).await;
    authority
        .introspected
        .lock()
        .unwrap()
        .insert("opaque".into(), json!({"active": true, "exp": now() + 300}));
    let answered = with_token(&server.mcp, "opaque").await;
    assert_refused(
        &answered,
        401,
        "invalid_token",
        resource.metadata_url(),
        "unverifiable",
    );
}

#[tokio::test]
async fn the_protected_resource_metadata_is_served_at_both_paths() {
    let authority = start_authority(&[&SigningKey::new("k1", 1)]).await;
    let issuer = authority.issuer();
    let (listener, resource) = bound(&issuer).await;
    let verifier = resource.jwt().await.unwrap();
    let server = start_mcp(resource.clone(), listener, verifier).await;
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let response = reqwest::get(format!("{}{path}", server.origin))
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{path}"
        );
        let document: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert_eq!(
            document,
            json!({
                "resource": server.mcp,
                "authorization_servers": [issuer],
                "scopes_supported": [SCOPE],
                "bearer_methods_supported": ["header"],
            }),
            "{path}"
        );
    }
}

#[tokio::test]
async fn metadata_that_names_another_issuer_is_not_used() {
    let authority = start_authority(&[&SigningKey::new("k1", 1)]).await;
    *authority.claimed_issuer.lock().unwrap() = Some("https://honest.example".to_owned());
    let (_listener, resource) = bound(&authority.issuer()).await;
    let error = resource.jwt().await.unwrap_err().to_string();
    assert!(
        error.contains("names the issuer \"https://honest.example\""),
        "{error}"
    );
    let error = resource
        .introspection(CLIENT_ID, CLIENT_SECRET)
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("RFC 8414 section 3.3"), "{error}");
}
