//! The connect page of the URL-mode example: `/login`, the demo's sign-in, and `/connect`,
//! where the user who started an elicitation completes it, and no one else.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use elicit_mcp::server::{CompletionError, UserId};
use elicit_mcp::wire::ElicitationId;
use serde::Deserialize;

use super::{ConnectState, DEMO_USER};

/// The page's routes, beside the MCP endpoint.
pub(super) fn routes(state: Arc<ConnectState>) -> axum::Router {
    axum::Router::new()
        .route("/login", get(login))
        .route("/connect", get(connect_page).post(connect_submit))
        .with_state(state)
}

#[derive(Deserialize)]
struct LoginQuery {
    user: Option<String>,
}

#[derive(Deserialize)]
struct ConnectQuery {
    #[serde(rename = "elicitationId")]
    elicitation_id: String,
}

/// `GET /login`: the demo sign-in, which signs this browser in as the demo user, or as
/// `?user=NAME`. (A real server signs in through its authorization server.)
async fn login(
    State(state): State<Arc<ConnectState>>,
    Query(query): Query<LoginQuery>,
) -> Response {
    let session = match ElicitationId::random() {
        Ok(random) => random.as_str().to_owned(),
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    let name = query.user.unwrap_or_else(|| DEMO_USER.to_owned());
    let user = match UserId::from_verified_subject(name.as_str()) {
        Ok(user) => user,
        Err(e) => return (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
    };
    if let Err(e) = state.browser_sessions.set(&session, user.as_str()).await {
        return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response();
    }
    (
        [(
            header::SET_COOKIE,
            format!("session={session}; HttpOnly; SameSite=Lax; Path=/"),
        )],
        Html(format!(
            "<p>Signed in as {}. Now open the link your MCP client showed.</p>",
            html_escape(user.as_str())
        )),
    )
        .into_response()
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Who this browser is signed in as, from its session cookie.
async fn browser_user(state: &ConnectState, headers: &HeaderMap) -> Option<UserId> {
    let cookies = headers.get(header::COOKIE)?.to_str().ok()?;
    let session = cookies
        .split(';')
        .find_map(|cookie| cookie.trim().strip_prefix("session="))?;
    let user = state.browser_sessions.get(session).await.ok()??;
    UserId::from_verified_subject(user).ok()
}

/// `GET /connect?elicitationId=..`: for the user who started it, a page to connect; for
/// anyone else, a refusal.
async fn connect_page(
    State(state): State<Arc<ConnectState>>,
    Query(query): Query<ConnectQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(user) = browser_user(&state, &headers).await else {
        return (
            StatusCode::UNAUTHORIZED,
            Html("<p><a href=\"/login\">Sign in</a>, then open the link again.</p>"),
        )
            .into_response();
    };
    if let Err(refused) = state.tracker.verify(&query.elicitation_id, &user).await {
        return refusal(&refused);
    }
    // A real server redirects to Example Co's OAuth here and completes in its callback.
    Html(format!(
        "<form method=\"post\" action=\"/connect?elicitationId={}\">\
         <p>Let this MCP server read your Example Co files?</p><button>Connect Example Co</button></form>",
        query.elicitation_id
    ))
    .into_response()
}

/// `POST /connect?elicitationId=..`: completes the elicitation for its own user, stores the
/// token, and notifies the MCP session that started it.
async fn connect_submit(
    State(state): State<Arc<ConnectState>>,
    Query(query): Query<ConnectQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(user) = browser_user(&state, &headers).await else {
        return (StatusCode::UNAUTHORIZED, "sign in first").into_response();
    };
    let completed = match state.tracker.complete(&query.elicitation_id, &user).await {
        Ok(completed) => completed,
        Err(refused) => return refusal(&refused),
    };
    if let Err(e) = state
        .tokens
        .set(completed.user().as_str(), "example-co-token")
        .await
    {
        return (StatusCode::SERVICE_UNAVAILABLE, e.to_string()).into_response();
    }
    let notified = state.notify(&completed).await;
    Html(format!(
        "<p>Example Co is connected. {notified} You can close this tab.</p>"
    ))
    .into_response()
}

fn refusal(error: &CompletionError) -> Response {
    let status = match error {
        CompletionError::WrongUser => StatusCode::FORBIDDEN,
        CompletionError::NotPending => StatusCode::NOT_FOUND,
        CompletionError::Expired => StatusCode::GONE,
        // The store (Redis) is unreachable: nothing was completed; try again later.
        CompletionError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    (status, error.to_string()).into_response()
}
