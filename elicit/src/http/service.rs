//! [`Guarded`]: the tower service that stands in front of rmcp's, and [`GuardLayer`], which
//! puts it there.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderMap, Method, Request, Response, StatusCode, header};
use http_body::Body;
use http_body_util::combinators::{BoxBody, UnsyncBoxBody};
use http_body_util::{BodyExt, Full, LengthLimitError};
use rmcp::ServerHandler;
use rmcp::model::JsonRpcError;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::SessionStore;
use rmcp::transport::streamable_http_server::{SessionId, SessionManager};
use tower_http::body::Limited;
use tower_http::limit::RequestBodyLimit;
use tower_layer::Layer;
use tower_service::Service;

use super::check::check;
use super::clients::{ClientAddress, ClientKey, InFlight};
use super::origin::AllowedOrigins;
use super::owner_store::{OwnedStore, opened_by};
use super::owners::{Owners, Ownership, sweep_later};
use super::relay::Relays;
use super::resume::{after, resumed_after};
use super::{Guard, GuardCounts, GuardedResponse};
use crate::rmcp::authenticate::{Authenticated, SharedAuthenticate, Unauthenticated};
use crate::server::UserId;

/// The body the guarded service hands to rmcp's: a JSON POST's body as the guard read it, any
/// other request's as it came (capped at the limit).
pub type GuardedBody = UnsyncBoxBody<Bytes, BoxError>;

/// The error of a request body that could not be read.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A tower [`Layer`] that puts the [`Guard`] in front of a [`StreamableHttpService`], from
/// [`Guard::layer`]. Layering sets the service's own body limit to the guard's.
pub struct GuardLayer<M> {
    guard: Guard,
    sessions: Arc<M>,
}

impl<M> Clone for GuardLayer<M> {
    fn clone(&self) -> Self {
        GuardLayer {
            guard: self.guard.clone(),
            sessions: self.sessions.clone(),
        }
    }
}

impl<M> GuardLayer<M> {
    pub(super) fn new(guard: Guard, sessions: Arc<M>) -> Self {
        GuardLayer { guard, sessions }
    }
}

impl<H, M> Layer<StreamableHttpService<H, M>> for GuardLayer<M> {
    type Service = Guarded<StreamableHttpService<H, M>, M>;

    fn layer(&self, mut mcp: StreamableHttpService<H, M>) -> Self::Service {
        // Nothing above the limit reaches rmcp's parse, even through a path that skips the
        // guard's own read.
        mcp.config.max_request_body_bytes = self.guard.max_body_bytes;
        let deletes = mcp.config.legacy_session_mode;
        // The owner of each session goes into rmcp's store with it, for the replica that
        // restores it.
        let store = mcp.config.session_store.take().map(|store| {
            let owned = Arc::new(OwnedStore::new(store));
            mcp.config.session_store = Some(owned.clone());
            owned
        });
        let origins = match &self.guard.allowed_origins {
            Some(listed) => AllowedOrigins::Listed(listed.clone()),
            None => AllowedOrigins::the_servers(&mcp.config.allowed_hosts),
        };
        let counts = GuardCounts::default();
        let core = Core {
            inner: Arc::new(mcp),
            sessions: self.sessions.clone(),
            store,
            deletes,
            in_flight: Arc::new(InFlight::new(self.guard.max_bytes_in_flight_per_client())),
            client_address: self.guard.client_address.clone(),
            body_deadline: self.guard.body_deadline,
            counts: counts.clone(),
            authenticate: self.guard.authenticate.clone(),
            owners: Arc::new(Owners::new()),
            relays: Arc::new(Relays::new()),
        };
        Guarded {
            limited: RequestBodyLimit::new(core, self.guard.max_body_bytes),
            max_body_bytes: self.guard.max_body_bytes,
            origins: Arc::new(origins),
            counts,
        }
    }
}

/// rmcp's streamable HTTP service with the [`Guard`] in front: serve it at your MCP path
/// (`axum::Router::nest_service("/mcp", guarded)`). Made by [`Guard::service`] or
/// [`Guard::layer`].
pub struct Guarded<S, M> {
    limited: RequestBodyLimit<Core<S, M>>,
    max_body_bytes: usize,
    /// Checked first: a foreign origin's request is refused before anything else is done.
    origins: Arc<AllowedOrigins>,
    counts: GuardCounts,
}

impl<S, M> Clone for Guarded<S, M> {
    fn clone(&self) -> Self {
        Guarded {
            limited: self.limited.clone(),
            max_body_bytes: self.max_body_bytes,
            origins: self.origins.clone(),
            counts: self.counts.clone(),
        }
    }
}

impl<S, M> Guarded<S, M> {
    /// What this service (and its clones) cut or refused so far, as a handle that reads the
    /// counts as they grow: take it before the service is moved into the router.
    pub fn counts(&self) -> GuardCounts {
        self.counts.clone()
    }
}

impl<H, M, B> Service<Request<B>> for Guarded<StreamableHttpService<H, M>, M>
where
    H: ServerHandler + Send + 'static,
    M: SessionManager,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = GuardedResponse;
    type Error = Infallible;
    type Future = BoxFuture<Result<GuardedResponse, Infallible>>;

    fn poll_ready(&mut self, _context: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // Readiness is per client, decided in `call`; rmcp's service is always ready.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if !self.origins.admit(request.uri(), request.headers()) {
            // Before the credentials are checked and before the body is read: a page of
            // another site (or a rebound name) gets nothing done on this server.
            return Box::pin(std::future::ready(Ok(foreign_origin())));
        }
        let max_body_bytes = self.max_body_bytes;
        let answer = self.limited.call(request);
        Box::pin(async move {
            let response = answer.await?;
            if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
                // tower-http's refusal by `Content-Length` says only "length limit exceeded".
                return Ok(too_large(max_body_bytes));
            }
            Ok(response.map(|body| BoxBody::new(body.map_err(|never| match never {}))))
        })
    }
}

/// What stands behind the body limit: the DELETE check, the per-client limit, the JSON check.
struct Core<S, M> {
    /// Shared, not cloned per request: rmcp's `handle` answers by reference, where its
    /// `Service::call` would clone the whole service (its config's host lists included).
    inner: Arc<S>,
    sessions: Arc<M>,
    /// rmcp's session store (another replica's sessions), as the guard wrapped it.
    store: Option<Arc<OwnedStore>>,
    /// rmcp serves DELETE (its legacy session mode, the 2025-11-25 sessions).
    deletes: bool,
    in_flight: Arc<InFlight>,
    client_address: ClientAddress,
    body_deadline: Duration,
    counts: GuardCounts,
    /// Who the request's user is, checked before anything else is done with it.
    authenticate: Option<SharedAuthenticate>,
    /// Who opened each session, when the server authenticates.
    owners: Arc<Owners>,
    /// The event streams of requests, kept for a client that resumes one.
    relays: Arc<Relays>,
}

impl<S, M> Clone for Core<S, M> {
    fn clone(&self) -> Self {
        Core {
            inner: self.inner.clone(),
            sessions: self.sessions.clone(),
            store: self.store.clone(),
            deletes: self.deletes,
            in_flight: self.in_flight.clone(),
            client_address: self.client_address.clone(),
            body_deadline: self.body_deadline,
            counts: self.counts.clone(),
            authenticate: self.authenticate.clone(),
            owners: self.owners.clone(),
            relays: self.relays.clone(),
        }
    }
}

impl<H, M, B> Service<Request<Limited<B>>> for Core<StreamableHttpService<H, M>, M>
where
    H: ServerHandler + Send + 'static,
    M: SessionManager,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = GuardedResponse;
    type Error = Infallible;
    type Future = BoxFuture<Result<GuardedResponse, Infallible>>;

    fn poll_ready(&mut self, _context: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Limited<B>>) -> Self::Future {
        let core = self.clone();
        Box::pin(async move { Ok(core.serve(request).await) })
    }
}

impl<H, M> Core<StreamableHttpService<H, M>, M>
where
    H: ServerHandler + Send + 'static,
    M: SessionManager,
{
    async fn serve<B>(self, request: Request<Limited<B>>) -> GuardedResponse
    where
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let (mut parts, body) = request.into_parts();
        let named = named_session(&parts.headers);
        let mut user = None;
        if let Some(check) = &self.authenticate {
            // Every request, its event stream and DELETE included: each carries its
            // credentials (MCP authorization), and nothing of a session is another user's.
            match check.authenticate(&parts).await {
                Ok(found) => {
                    parts.extensions.insert(Authenticated(found.clone()));
                    user = Some(found);
                }
                Err(refused) => {
                    return drained(body, self.body_deadline, refusal(&refused)).await;
                }
            }
        }
        if let (Some(user), Some(session)) = (&user, &named)
            && !self.owns(user, session).await
        {
            // Another user's session is answered as one that does not exist, before anything
            // of it is touched: its streams, its asks, its end.
            return drained(body, self.body_deadline, session_not_found()).await;
        }
        let session = held_session(&*self.sessions, named.clone()).await;
        let deleting = parts.method == Method::DELETE;
        if deleting && self.deletes {
            match &session {
                Held::Yes(_) => {}
                Held::No(id) if !in_store(self.store.as_deref(), id).await => {
                    return session_not_found();
                }
                Held::No(_) | Held::NotNamed => {}
            }
        }
        let held = session.held().cloned();
        if parts.method == Method::POST && declares_json(&parts.headers) {
            let Some(client) = self.client(session, &parts) else {
                let why = self.client_address.missing();
                self.counts.without_client(why);
                return text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("Internal Server Error: {why}\n"),
                );
            };
            let relays = self.relays.clone();
            let response = match user {
                // An `initialize` (no session yet) opens one: it is this user's.
                Some(user) if named.is_none() => self.open(user, parts, body, client).await,
                _ => self.serve_json(parts, body, client).await,
            };
            return relays.relay_call(held, response);
        }
        // rmcp answers these without reading a body: GET (its event stream), DELETE, and POSTs
        // of another type (415).
        let resumed = (parts.method == Method::GET)
            .then(|| resumed_after(&parts.headers))
            .flatten();
        if let (Some(last), Some(session)) = (&resumed, &held)
            && let Some(stream) = last.on_request_stream()
            && let Some(rest) = self.relays.resume(session, stream)
        {
            return rest;
        }
        let body = body.map_err(|error| -> BoxError { error }).boxed_unsync();
        let response = handled(self.inner.clone(), Request::from_parts(parts, body)).await;
        if let Some(last) = resumed {
            let request_stream = last.on_request_stream();
            let response = after(last, response);
            return self.relays.relay_resumed(held, request_stream, response);
        }
        if deleting && response.status() == StatusCode::ACCEPTED {
            if let Some(session) = &named {
                self.owners.forget(session);
            }
            // rmcp answers a DELETE that ended the session 202; clients expect 200 or 204
            // (the official Python client logs "Session termination failed: 202").
            return no_content();
        }
        response
    }

    /// Whether `session` is `user`'s: opened by them here, or on another replica whose
    /// store says so. A session the guard knows no owner of is nobody's: with authentication,
    /// every session is opened through it.
    async fn owns(&self, user: &UserId, session: &SessionId) -> bool {
        match self.owners.of(session, user) {
            Ownership::Theirs => true,
            Ownership::Another => false,
            Ownership::Unknown => {
                let Some(store) = &self.store else {
                    return false;
                };
                // A store that cannot answer: refused, as a session that cannot be found.
                let Ok(Some(owner)) = store.owner(session).await else {
                    return false;
                };
                let theirs = owner == user.as_str();
                if theirs {
                    self.record(session.clone(), user.clone());
                }
                theirs
            }
        }
    }

    /// `session` is `user`'s; an ended session's owner is forgotten in time.
    fn record(&self, session: SessionId, user: UserId) {
        if self.owners.record(session, user) {
            sweep_later(self.owners.clone(), self.sessions.clone());
        }
    }

    /// An `initialize` by `user`: the session rmcp opens for it (in its answer's
    /// `Mcp-Session-Id`, and in rmcp's store when it has one) is theirs.
    async fn open<B>(
        self,
        user: UserId,
        parts: Parts,
        body: Limited<B>,
        client: ClientKey,
    ) -> GuardedResponse
    where
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let core = self.clone();
        let response = opened_by(user.clone(), self.serve_json(parts, body, client)).await;
        let opened = response
            .headers()
            .get(SESSION_ID)
            .and_then(|value| value.to_str().ok());
        if let Some(session) = opened {
            core.record(SessionId::from(session), user);
        }
        response
    }

    /// A JSON POST: counted against its client before it is read and until rmcp has answered
    /// (what rmcp's parse costs grows with the body, and what it built lives while the request
    /// is served), read, checked, and handed on.
    async fn serve_json<B>(
        self,
        parts: Parts,
        body: Limited<B>,
        client: ClientKey,
    ) -> GuardedResponse
    where
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        // Without a `Content-Length` (chunked), the body may be as large as the limit.
        let declared = declared_length(&parts.headers).unwrap_or(usize::MAX);
        let _ticket = self.in_flight.enter(client, declared).await;
        // A deadline for the whole body, not between its frames (tower-http's `TimeoutBody`):
        // a byte now and then would reset that one forever.
        let bytes = match tokio::time::timeout(self.body_deadline, body.collect()).await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(error)) => return unreadable(&*error),
            Err(_elapsed) => {
                self.counts.body_timed_out();
                return request_timeout(self.body_deadline);
            }
        };
        if let Some(refusal) = check(&bytes) {
            let (id, error) = refusal.into_error();
            return json_rpc_error(JsonRpcError::new(id, error));
        }
        let body = Full::new(bytes)
            .map_err(|never| -> BoxError { match never {} })
            .boxed_unsync();
        handled(self.inner.clone(), Request::from_parts(parts, body)).await
    }

    /// Who a request counts against: its session when the server holds it (an id anyone can
    /// make up does not make a new client), else its address; `None` when it has none.
    fn client(&self, session: Held, parts: &Parts) -> Option<ClientKey> {
        match session {
            Held::Yes(id) => Some(ClientKey::Session(id)),
            Held::No(_) | Held::NotNamed => self.client_address.of(parts).map(ClientKey::Address),
        }
    }
}

/// rmcp's answer, as a future whose type the guard's own future does not name (a future that
/// holds rmcp's own trips the compiler's check that it is `Send`).
fn handled<H, M>(
    mcp: Arc<StreamableHttpService<H, M>>,
    request: Request<GuardedBody>,
) -> BoxFuture<GuardedResponse>
where
    H: ServerHandler + Send + 'static,
    M: SessionManager,
{
    Box::pin(async move { mcp.handle(request).await })
}

/// The header that names a 2025-11-25 session; a name made once, not parsed per request.
const SESSION_ID: header::HeaderName = header::HeaderName::from_static("mcp-session-id");

/// The session the request names, if any.
fn named_session(headers: &HeaderMap) -> Option<SessionId> {
    let id = headers.get(SESSION_ID)?.to_str().ok()?;
    Some(SessionId::from(id))
}

/// Whether this server holds the session `named`.
async fn held_session(sessions: &impl SessionManager, named: Option<SessionId>) -> Held {
    let Some(id) = named else {
        return Held::NotNamed;
    };
    // A manager that cannot tell is left to rmcp, which asks it again and answers.
    match sessions.has_session(&id).await {
        Ok(false) => Held::No(id),
        Ok(true) | Err(_) => Held::Yes(id),
    }
}

/// Whether rmcp could restore the session from its external store (another replica's).
async fn in_store(store: Option<&OwnedStore>, id: &SessionId) -> bool {
    match store {
        None => false,
        // A store that cannot answer: rmcp decides.
        Some(store) => !matches!(store.load(id).await, Ok(None)),
    }
}

enum Held {
    Yes(SessionId),
    No(SessionId),
    NotNamed,
}

impl Held {
    fn held(&self) -> Option<&SessionId> {
        match self {
            Held::Yes(id) => Some(id),
            Held::No(_) | Held::NotNamed => None,
        }
    }
}

/// The body's length as its `Content-Length` declares it (the body limit has checked it).
fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// rmcp reads only `application/json` bodies; any other POST it answers 415 unread.
fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

fn unreadable(error: &(dyn std::error::Error + Send + Sync + 'static)) -> GuardedResponse {
    if over_the_limit(error) {
        // Streamed past the limit with no `Content-Length` that told it before; the outer
        // service names the limit.
        return text(StatusCode::PAYLOAD_TOO_LARGE, String::new());
    }
    text(
        StatusCode::BAD_REQUEST,
        format!("Bad Request: the request body could not be read: {error}\n"),
    )
}

fn over_the_limit(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(error) = source {
        if error.is::<LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}

fn too_large(max_body_bytes: usize) -> GuardedResponse {
    text(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "Payload Too Large: this server accepts request bodies of at most {max_body_bytes} bytes\n"
        ),
    )
}

/// `answer`, given once the request's body is read and dropped (frame by frame, within
/// `deadline`): hyper closes a keep-alive connection whose request body was not read, without
/// a `Connection: close`, so a client that sends its next request on it sees the connection
/// drop (the official Python client's "Server disconnected without sending a response", after
/// the 401 every MCP client meets first). rmcp reads the body before its own 404 too, so a
/// foreign session's 404 is not told from it by the connection either. A body that cannot be
/// read to its end in time (too large, too slow, broken) gets `answer` with `Connection: close`.
async fn drained<B>(
    body: Limited<B>,
    deadline: Duration,
    answer: GuardedResponse,
) -> GuardedResponse
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let read_to_end = async {
        let mut body = std::pin::pin!(body);
        while let Some(frame) = body.frame().await {
            frame?;
        }
        Ok::<(), BoxError>(())
    };
    match tokio::time::timeout(deadline, read_to_end).await {
        Ok(Ok(())) => answer,
        Ok(Err(_)) | Err(_) => {
            let mut answer = answer;
            answer.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            answer
        }
    }
}

/// 408: the body was still arriving at the deadline. The connection is closed with it (the
/// rest of the body is never read).
fn request_timeout(deadline: Duration) -> GuardedResponse {
    let mut response = text(
        StatusCode::REQUEST_TIMEOUT,
        format!("Request Timeout: this server reads a request body for at most {deadline:?}\n"),
    );
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

/// The refusal's status (401, or 400 and 403 for RFC 6750's `invalid_request` and
/// `insufficient_scope`) with its challenge, as MCP authorization answers a request without
/// valid credentials.
fn refusal(refused: &Unauthenticated) -> GuardedResponse {
    let status = refused.status();
    let text_of_status = match status {
        StatusCode::BAD_REQUEST => "Bad Request: the request's credentials are malformed\n",
        StatusCode::FORBIDDEN => "Forbidden: these credentials do not allow this request\n",
        _ => "Unauthorized: this server needs valid credentials\n",
    };
    let mut response = text(status, text_of_status.to_owned());
    match header::HeaderValue::from_str(refused.challenge()) {
        Ok(challenge) => {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, challenge);
        }
        // A challenge that is no header value: the scheme alone still says how.
        Err(_) => {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
        }
    }
    response
}

/// 404 for a session that is not found, or not the user's: byte for byte rmcp's answer to a
/// session it does not hold, so that neither tells anything the other does not.
fn session_not_found() -> GuardedResponse {
    let mut response = Response::new(BoxBody::new(Full::new(Bytes::from_static(
        b"Not Found: Session not found",
    ))));
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

/// 403 for a request from a browser origin the server does not serve.
fn foreign_origin() -> GuardedResponse {
    text(
        StatusCode::FORBIDDEN,
        "Forbidden: this server does not serve requests from this Origin\n".to_owned(),
    )
}

fn no_content() -> GuardedResponse {
    let mut response = Response::new(BoxBody::new(Full::new(Bytes::new())));
    *response.status_mut() = StatusCode::NO_CONTENT;
    response
}

fn text(status: StatusCode, text: String) -> GuardedResponse {
    let mut response = Response::new(BoxBody::new(Full::new(Bytes::from(text))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// A JSON-RPC error as rmcp writes its own: JSON, HTTP 400 for a message that is not one,
/// 200 for a request whose params are wrong (an answer to the request).
fn json_rpc_error(error: JsonRpcError) -> GuardedResponse {
    let status = if error.error.code == rmcp::model::ErrorCode::INVALID_PARAMS {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    let body = serde_json::to_vec(&error).expect("a JSON-RPC error serializes");
    let mut response = Response::new(BoxBody::new(Full::new(Bytes::from(body))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}
