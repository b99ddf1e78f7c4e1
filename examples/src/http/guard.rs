//! What stands in front of rmcp's streamable HTTP service (rmcp 3.11), for what it cannot be
//! told to do itself:
//!
//! - **A limit on request bodies.** rmcp parses a whole body into its message types at once,
//!   and that parse amplifies: a 4 MiB body of small numbers raises the server's peak memory by
//!   about 470 MiB. Every body is capped (tower-http's `RequestBodyLimitLayer`: by its
//!   `Content-Length` before anything is read, and while it streams otherwise), and a larger
//!   one is answered 413 with a text that names the limit.
//! - **JSON-RPC answers to broken JSON-RPC.** rmcp answers a body that is not JSON at all with
//!   415 and a line of text; here it gets the JSON-RPC error -32700 (Parse error), HTTP 400, as
//!   the transport's spec allows. And rmcp's request enum is untagged, so a request whose
//!   `requestState` is not a string, or whose `inputResponses` is not an object, falls through
//!   to its custom request and is answered -32601 (Method not found) with HTTP 404; here it
//!   gets -32602 (Invalid params), naming the field.
//!
//! - **404 for a session that is not there.** rmcp answers a DELETE of any session 202,
//!   whether it exists or not; the spec answers a request for a session the server does not
//!   hold with 404, and so does this guard.
//!
//! The checks read the body without building it (serde's `IgnoredAny` and borrowed
//! `RawValue`s), so they add no allocation of their own in front of rmcp's parse.

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{SessionId, SessionManager};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use tower_http::limit::RequestBodyLimitLayer;

/// `mcp` (whose sessions `sessions` holds) with its JSON and ended sessions checked, beside
/// `pages`, every body of both capped at `max_body_bytes`.
pub(super) fn guarded(
    mcp: Router,
    sessions: Arc<LocalSessionManager>,
    pages: Router,
    max_body_bytes: usize,
) -> Router {
    mcp.layer(middleware::from_fn(check_json_rpc))
        .layer(middleware::from_fn_with_state(
            sessions,
            end_held_sessions_only,
        ))
        .merge(pages)
        .layer(RequestBodyLimitLayer::new(max_body_bytes))
        .layer(middleware::map_response_with_state(
            max_body_bytes,
            name_the_limit,
        ))
}

/// Whichever layer refused the body (the limit's own answer is a bare "length limit
/// exceeded"), the client reads what the limit is.
async fn name_the_limit(State(max_body_bytes): State<usize>, response: Response) -> Response {
    if response.status() != StatusCode::PAYLOAD_TOO_LARGE {
        return response;
    }
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "Payload Too Large: this server accepts request bodies of at most {max_body_bytes} bytes\n"
        ),
    )
        .into_response()
}

/// A DELETE of a session this server does not hold is answered 404, as any other request for
/// it; rmcp would answer 202.
async fn end_held_sessions_only(
    State(sessions): State<Arc<LocalSessionManager>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::DELETE {
        let session = request
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .map(SessionId::from);
        if let Some(session) = session {
            // The local manager's lookup cannot fail; were it to, rmcp decides.
            if let Ok(false) = sessions.has_session(&session).await {
                return (StatusCode::NOT_FOUND, "Not Found: Session not found\n").into_response();
            }
        }
    }
    next.run(request).await
}

/// Reads a JSON POST's body (already capped) and answers the bodies rmcp would misanswer; hands
/// every other request on to rmcp unchanged.
async fn check_json_rpc(request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !declares_json(request.headers()) {
        // rmcp answers these (405, 415) before reading the body.
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(error) if over_the_limit(&error) => {
            return StatusCode::PAYLOAD_TOO_LARGE.into_response();
        }
        Err(error) => {
            return (
                StatusCode::BAD_REQUEST,
                format!("the request body could not be read: {error}\n"),
            )
                .into_response();
        }
    };
    if let Some(refusal) = refusal(&bytes) {
        return refusal;
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn declares_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// The body streamed past the limit (no `Content-Length` told it before).
fn over_the_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = source {
        if error.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// The answer to a body that is not JSON, or to a request with a mistyped `requestState` or
/// `inputResponses`; `None` for everything else, which rmcp answers.
fn refusal(body: &Bytes) -> Option<Response> {
    if let Err(error) = serde_json::from_slice::<IgnoredAny>(body) {
        return Some(parse_error(&error));
    }
    // Not one request (a batch, a response, another shape): rmcp's to answer.
    let message = serde_json::from_slice::<MessageProbe>(body).ok()?;
    message.method?;
    let params = message.params?;
    let mistyped = if !is_json_kind(params.request_state, b'"') {
        "`requestState` must be a string"
    } else if !is_json_kind(params.input_responses, b'{') {
        "`inputResponses` must be an object"
    } else {
        return None;
    };
    Some(invalid_params(message.id, mistyped))
}

/// A request's envelope, its values borrowed unread.
#[derive(Deserialize)]
struct MessageProbe<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a RawValue>,
    #[serde(borrow)]
    params: Option<ParamsProbe<'a>>,
}

/// The two members of 2026-07-28 request params that rmcp misanswers when mistyped.
#[derive(Deserialize)]
struct ParamsProbe<'a> {
    #[serde(borrow, rename = "requestState")]
    request_state: Option<&'a RawValue>,
    #[serde(borrow, rename = "inputResponses")]
    input_responses: Option<&'a RawValue>,
}

/// Absent, `null`, or a JSON value whose text starts with `opening`.
fn is_json_kind(value: Option<&RawValue>, opening: u8) -> bool {
    value.is_none_or(|value| value.get().trim_start().as_bytes().first() == Some(&opening))
}

fn parse_error(error: &serde_json::Error) -> Response {
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {error}")},
    });
    json_response(StatusCode::BAD_REQUEST, &error)
}

/// -32602 for the request `id`, in a JSON response as rmcp sends its own errors; an id that is
/// neither a string nor a number is answered `null`.
fn invalid_params(id: Option<&RawValue>, message: &str) -> Response {
    let id = id
        .filter(|id| !id.get().starts_with(['{', '[', 't', 'f', 'n']))
        .and_then(|id| serde_json::from_str::<serde_json::Value>(id.get()).ok())
        .unwrap_or(serde_json::Value::Null);
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32602, "message": format!("Invalid params: {message}")},
    });
    json_response(StatusCode::OK, &error)
}

fn json_response(status: StatusCode, body: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
