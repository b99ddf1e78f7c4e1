//! What `elicit_mcp::http::Guard` costs: one small `tools/call` served by rmcp's
//! `StreamableHttpService` through the guard, against the same service alone. Both are called
//! as tower services (no sockets, so nothing but the two services' own work is timed), with the
//! same request built the same way each iteration, and both answers read to their end and
//! checked. Two groups:
//!
//! - `http_guard`: on 2026-07-28, without a session (headers, the peer's `ConnectInfo`, a
//!   230-byte body).
//! - `relayed_session`: on 2025-11-25, on a session each side initialized before the clock,
//!   each call with an id of its own (the same ids on both sides) and answered on an event
//!   stream: through the guard, that stream is relayed through a log kept for a client that
//!   resumes it (`http/relay.rs`), and this is what the log costs.
//! - `oauth`: the same 2026-07-28 call through the guard with a JWT access token verified by
//!   `elicit_mcp::oauth::JwtAccessTokens` (an EdDSA signature, the issuer's key set fetched once
//!   from an authorization server on loopback before the clock and held: no fetch is timed,
//!   which the bench checks), against the same call with a fixed development identity (a
//!   closure that reads the bearer token as the user). Both through `Guard::serve`.
//!
//! Measured on the paired harness of `benches/common/mod.rs`, so that the machine's other load
//! falls on both sides alike: five runs, each of 200 rounds, a round timing 20 calls through the
//! guard and 20 alone, the order rotating from one round to the next; it prints the median of
//! the runs and their spread, from this run's samples only. Run with
//! `cargo bench --bench http_guard`.

#[path = "common/mod.rs"]
mod common;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{Body, HttpBody};
use axum::extract::ConnectInfo;
use axum::http;
use elicit_mcp::http::Guard;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use tower_service::Service;

use common::{Comparison, Plan, compare, timed};

/// A tool that asks nothing: what is timed is the transport's work, not a handler's.
#[derive(Clone)]
struct Adder {
    tool_router: ToolRouter<Adder>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Sum {
    a: i64,
    b: i64,
}

#[tool_router]
impl Adder {
    #[tool(description = "Adds two numbers")]
    async fn add(&self, Parameters(sum): Parameters<Sum>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::success(vec![ContentBlock::text(
            (sum.a + sum.b).to_string(),
        )]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Adder {}

fn adder() -> Result<Adder, std::io::Error> {
    Ok(Adder {
        tool_router: Adder::tool_router(),
    })
}

const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

fn request() -> http::Request<Body> {
    post(
        BODY.to_owned(),
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "add"),
        ],
    )
}

/// A POST of `body` to the service with `headers` besides the ones every request has (host,
/// content type and length, accept), from the peer's address.
fn post(body: String, headers: &[(&str, &str)]) -> http::Request<Body> {
    let mut request = http::Request::post("http://127.0.0.1/mcp")
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("content-length", body.len())
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut request = request.body(Body::from(body)).expect("a valid request");
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    request
}

/// One call through `service`, its answer read to the end; the text of the answer.
async fn call<S, B>(service: S) -> String
where
    S: Service<http::Request<Body>, Response = http::Response<B>, Error = Infallible>,
    B: HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<elicit_mcp::http::BoxError>,
{
    send(service, request()).await.1
}

/// `request` through `service`, its answer read to the end: the session id the answer gives,
/// if any, and its text.
async fn send<S, B>(mut service: S, request: http::Request<Body>) -> (Option<String>, String)
where
    S: Service<http::Request<Body>, Response = http::Response<B>, Error = Infallible>,
    B: HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<elicit_mcp::http::BoxError>,
{
    let Ok(()) = std::future::poll_fn(|context| service.poll_ready(context)).await;
    let Ok(response) = service.call(request).await;
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|id| id.to_str().ok())
        .map(str::to_owned);
    let body = Body::new(response.into_body());
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("the answer reads");
    (session, String::from_utf8_lossy(&bytes).into_owned())
}

/// A 2025-11-25 POST of `body`, on `session` when there is one.
fn session_request(session: Option<&str>, body: String) -> http::Request<Body> {
    let version = ("mcp-protocol-version", "2025-11-25");
    match session {
        Some(session) => post(body, &[version, ("mcp-session-id", session)]),
        None => post(body, &[version]),
    }
}

/// A 2025-11-25 session opened on `service` (`initialize`, then `notifications/initialized`):
/// its id.
async fn open_session<S, B>(service: S) -> String
where
    S: Service<http::Request<Body>, Response = http::Response<B>, Error = Infallible> + Clone,
    B: HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<elicit_mcp::http::BoxError>,
{
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;
    let (session, answer) = send(
        service.clone(),
        session_request(None, initialize.to_owned()),
    )
    .await;
    let session = session.unwrap_or_else(|| panic!("no session from initialize: {answer}"));
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    send(
        service,
        session_request(Some(&session), initialized.to_owned()),
    )
    .await;
    session
}

/// A `tools/call` with request id `id` on `session`: the text of its event stream.
async fn session_call<S, B>(service: S, session: &str, id: u64) -> String
where
    S: Service<http::Request<Body>, Response = http::Response<B>, Error = Infallible>,
    B: HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<elicit_mcp::http::BoxError>,
{
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":2,"b":3}}}}}}"#
    );
    send(service, session_request(Some(session), body)).await.1
}

/// rmcp's service alone.
type Alone = StreamableHttpService<Adder, LocalSessionManager>;

/// The same service through the guard.
type GuardedService = elicit_mcp::http::Guarded<Alone, LocalSessionManager>;

/// The two services, checked to answer the call alike: the bench compares answers, not
/// failures.
fn services(runtime: &tokio::runtime::Runtime) -> (Alone, GuardedService) {
    let _entered = runtime.enter();
    let alone: StreamableHttpService<Adder, LocalSessionManager> = StreamableHttpService::new(
        adder,
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let guarded = Guard::new().service(
        adder,
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let answer = runtime.block_on(call(alone.clone()));
    assert!(answer.contains(r#""text":"5""#), "{answer}");
    assert_eq!(runtime.block_on(call(guarded.clone())), answer);
    (alone, guarded)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn main() {
    let runtime = runtime();
    let (alone, guarded) = services(&runtime);
    compare(
        "http_guard",
        Plan {
            runs: 5,
            rounds: 200,
            batch: 20,
        },
        &["guarded", "rmcp_alone"],
        vec![
            timed(|| runtime.block_on(call(guarded.clone()))),
            timed(|| runtime.block_on(call(alone.clone()))),
        ],
        &[Comparison {
            label: "one small tools/call through the guard / rmcp's service alone",
            ours: 0,
            theirs: 1,
        }],
    );
    in_a_session(&runtime, alone, guarded);
    verified(&runtime);
}

/// The `oauth` group: a request whose JWT access token is verified with a held key set,
/// against the same request with a development identity.
fn verified(runtime: &tokio::runtime::Runtime) {
    use elicit_mcp::http::Unauthenticated;
    use elicit_mcp::oauth::ProtectedResource;
    use elicit_mcp::rmcp::Elicitation;
    use elicit_mcp::server::UserId;

    if !common::selected("oauth") {
        return;
    }
    let (issuer, fetches) = runtime.block_on(authority::start());
    let resource = ProtectedResource::new(&issuer, "http://127.0.0.1/mcp")
        .expect("loopback URLs")
        .with_scopes(["mcp"])
        .expect("a scope");
    let verifier = runtime
        .block_on(resource.jwt())
        .expect("the bench's authorization server answers");
    let token = authority::token(&issuer, resource.resource());
    let serve = |elicitation: Elicitation| {
        let _entered = runtime.enter();
        Guard::new()
            .serve(
                &elicitation,
                || adder().expect("the adder"),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            )
            .expect("the adder has no task tools")
    };
    let seal = elicit_test_support::rmcp::seal;
    let with_jwt = serve(Elicitation::new(seal()).with_authentication(verifier));
    let with_development_user = serve(Elicitation::new(seal()).with_authentication(
        |request: &http::request::Parts| {
            let token = Unauthenticated::bearer_token(request)?;
            UserId::from_verified_subject(token).map_err(|_| Unauthenticated::bearer(""))
        },
    ));
    let authorized = |service: elicit_mcp::http::Guarded<_, LocalSessionManager>| {
        let mut request = request();
        let value = http::HeaderValue::from_str(&format!("Bearer {token}")).expect("a header");
        request.headers_mut().insert("authorization", value);
        runtime.block_on(send(service, request)).1
    };
    let answer = authorized(with_jwt.clone());
    assert!(answer.contains(r#""text":"5""#), "{answer}");
    assert_eq!(authorized(with_development_user.clone()), answer);
    compare(
        "oauth",
        Plan {
            runs: 5,
            rounds: 200,
            batch: 20,
        },
        &["jwt_verified", "development_identity"],
        vec![
            timed(|| authorized(with_jwt.clone())),
            timed(|| authorized(with_development_user.clone())),
        ],
        &[Comparison {
            label: "one small tools/call whose JWT is verified (key set held) / with a development identity",
            ours: 0,
            theirs: 1,
        }],
    );
    assert_eq!(
        fetches.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the key set was fetched once, before the clock"
    );
}

/// An authorization server on loopback for the `oauth` group: its RFC 8414 metadata and its
/// key set, one Ed25519 key, with which the bench signs its token.
mod authority {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ed25519_dalek::pkcs8::EncodePrivateKey;
    use jsonwebtoken::{Algorithm, EncodingKey, Header};
    use serde_json::json;

    fn key() -> ed25519_dalek::SigningKey {
        ed25519_dalek::SigningKey::from_bytes(&[7; 32])
    }

    /// The issuer's URL, and how often its key set was fetched.
    pub async fn start() -> (String, Arc<AtomicUsize>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let issuer = format!("http://{}", listener.local_addr().expect("its address"));
        let metadata =
            json!({ "issuer": issuer, "jwks_uri": format!("{issuer}/jwks") }).to_string();
        let keys = json!({ "keys": [{
            "kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": "bench",
            "x": URL_SAFE_NO_PAD.encode(key().verifying_key().as_bytes()),
        }]})
        .to_string();
        let fetches = Arc::new(AtomicUsize::new(0));
        let counted = fetches.clone();
        let json = |text: &String| {
            let text = text.clone();
            async move {
                (
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    text,
                )
            }
        };
        let router = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(move || json(&metadata)),
            )
            .route(
                "/jwks",
                axum::routing::get(move || {
                    counted.fetch_add(1, Ordering::SeqCst);
                    json(&keys)
                }),
            );
        tokio::spawn(async move { axum::serve(listener, router).await });
        (issuer, fetches)
    }

    /// A token for `audience` from `issuer`, valid for an hour.
    pub fn token(issuer: &str, audience: &str) -> String {
        let der = key().to_pkcs8_der().expect("PKCS #8");
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some("bench".to_owned());
        let now = jsonwebtoken::get_current_timestamp();
        let claims = json!({
            "iss": issuer, "sub": "alice", "aud": audience, "scope": "mcp",
            "iat": now, "exp": now + 3600,
        });
        jsonwebtoken::encode(&header, &claims, &EncodingKey::from_ed_der(der.as_bytes()))
            .expect("a signed token")
    }
}

/// The `relayed_session` group: 2025-11-25 calls on a session of each side.
fn in_a_session(runtime: &tokio::runtime::Runtime, alone: Alone, guarded: GuardedService) {
    if !common::selected("relayed_session") {
        return;
    }
    let alone_session = runtime.block_on(open_session(alone.clone()));
    let guarded_session = runtime.block_on(open_session(guarded.clone()));
    let (mut alone_id, mut guarded_id) = (0u64, 0u64);
    let first = runtime.block_on(session_call(alone.clone(), &alone_session, 0));
    assert!(first.contains(r#""text":"5""#), "{first}");
    let first = runtime.block_on(session_call(guarded.clone(), &guarded_session, 0));
    assert!(first.contains(r#""text":"5""#), "{first}");
    compare(
        "relayed_session",
        Plan {
            runs: 5,
            rounds: 200,
            batch: 20,
        },
        &["guarded_session", "rmcp_alone_session"],
        vec![
            timed(|| {
                guarded_id += 1;
                runtime.block_on(session_call(guarded.clone(), &guarded_session, guarded_id))
            }),
            timed(|| {
                alone_id += 1;
                runtime.block_on(session_call(alone.clone(), &alone_session, alone_id))
            }),
        ],
        &[Comparison {
            label: "a 2025-11-25 tools/call on a session, through the guard (its stream relayed) / rmcp's service alone",
            ours: 0,
            theirs: 1,
        }],
    );
}
