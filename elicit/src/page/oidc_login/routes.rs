//! The login's three routes: its start, the authorization server's callback, the sign-out.
//! Every refusal is a page that says what happened and what to do, with its status.

use axum::RequestExt as _;
use axum::extract::{Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde::Deserialize;

use super::cookies::set_cookie;
use super::records::{PendingLogin, Session};
use super::{LOGIN_PATH, LOGOUT_PATH, OidcLogin};
use crate::page::browser::random_hex;
use crate::page::render::{escape, notice, page};
use crate::page::return_to::safe_return_path;
use crate::page::{posted, secured};
use crate::server::same_text;

/// What the login's pages say they are.
const TITLE: &str = "Sign-in";

fn say(status: StatusCode, heading: &str, text: &str) -> Response {
    secured(status, notice(TITLE, heading, text))
}

fn see_other(response: &mut Response, location: &str) {
    if let Ok(location) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, location);
    }
}

fn unavailable() -> Response {
    say(
        StatusCode::SERVICE_UNAVAILABLE,
        "Try again in a moment",
        "The server cannot hold a sign-in right now.",
    )
}

fn start_again(status: StatusCode, heading: &str, why: &str) -> Response {
    say(
        status,
        heading,
        &format!("{why} Open the link from your MCP client again to sign in."),
    )
}

#[derive(Deserialize)]
struct StartQuery {
    return_to: Option<String>,
}

/// `GET /login`: a signed-in browser without a return path is told who it is; any other
/// starts a login, 303 to the authorization server.
pub(super) async fn start(State(login): State<OidcLogin>, request: Parts) -> Response {
    let requested = Query::<StartQuery>::try_from_uri(&request.uri)
        .ok()
        .and_then(|Query(query)| query.return_to);
    if requested.is_none()
        && let Some((_, session)) = login.session_of(&request).await
    {
        return signed_in_page(&session);
    }
    let return_to = requested
        .as_deref()
        .and_then(followed)
        .unwrap_or(LOGIN_PATH)
        .to_owned();
    let inner = &login.inner;
    // One binding per browser, kept across its logins, so that two tabs may sign in at once.
    let browser = match inner
        .cookies
        .pending_of(&request)
        .filter(|id| is_hex_id(id))
    {
        Some(browser) => browser,
        None => match random_hex() {
            Some(browser) => browser,
            None => return unavailable(),
        },
    };
    let authorization = inner.client.authorization();
    let pending = PendingLogin {
        browser,
        verifier: authorization.verifier,
        nonce: authorization.nonce,
        return_to,
    };
    if let Err(error) = inner
        .sessions
        .hold_login(&authorization.state, &pending, inner.login_life)
        .await
    {
        tracing::warn!("elicit_mcp's page login could not hold a login: {error}");
        return unavailable();
    }
    let mut response = say(
        StatusCode::SEE_OTHER,
        "Signing in",
        "This browser is sent to the authorization server to sign in.",
    );
    see_other(&mut response, &authorization.url);
    set_cookie(
        &mut response,
        &inner
            .cookies
            .pending_cookie(&pending.browser, inner.login_life),
    );
    response
}

/// Whether `id` is one this login made: 64 lower-case hex digits.
fn is_hex_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `requested`, if it is a path on this server; else `None`, logged.
fn followed(requested: &str) -> Option<&str> {
    let safe = safe_return_path(requested);
    if safe.is_none() {
        tracing::warn!(
            "elicit_mcp's page login refused the return path {requested:?}: it is not a path \
             on this server; the browser comes back to {LOGIN_PATH} instead"
        );
    }
    safe
}

#[derive(Deserialize)]
struct CallbackQuery {
    state: Option<String>,
    code: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// `GET /login/callback`: the login of `state` finished, a session opened, 303 to the page
/// the browser asked for.
pub(super) async fn callback(State(login): State<OidcLogin>, request: Parts) -> Response {
    let Ok(Query(query)) = Query::<CallbackQuery>::try_from_uri(&request.uri) else {
        return start_again(
            StatusCode::BAD_REQUEST,
            "This sign-in could not be read",
            "The answer from the authorization server is not one this server reads.",
        );
    };
    let inner = &login.inner;
    let Some(state) = query.state.as_deref() else {
        return start_again(
            StatusCode::BAD_REQUEST,
            "This sign-in could not be read",
            "The answer from the authorization server has no state.",
        );
    };
    let pending = match inner.sessions.take_login(state).await {
        Ok(Some(pending)) => pending,
        Ok(None) => {
            return start_again(
                StatusCode::BAD_REQUEST,
                "This sign-in can no longer be used",
                "It has expired, or was used already, or was not started by this server.",
            );
        }
        Err(error) => {
            tracing::warn!("elicit_mcp's page login could not read a login: {error}");
            return unavailable();
        }
    };
    let same_browser = inner
        .cookies
        .pending_of(&request)
        .is_some_and(|browser| same_text(&browser, &pending.browser));
    if !same_browser {
        return start_again(
            StatusCode::FORBIDDEN,
            "This sign-in was started elsewhere",
            "It was started in another browser, or this browser's cookies were removed.",
        );
    }
    if let Some(error) = query.error.as_deref() {
        let mut why = format!("The authorization server did not sign you in ({error}");
        if let Some(description) = query.error_description.as_deref() {
            why.push_str(": ");
            why.push_str(description);
        }
        why.push_str(").");
        return start_again(StatusCode::FORBIDDEN, "You were not signed in", &why);
    }
    let Some(code) = query.code.as_deref() else {
        return start_again(
            StatusCode::BAD_REQUEST,
            "This sign-in could not be read",
            "The answer from the authorization server has neither a code nor an error.",
        );
    };
    let user = match inner
        .client
        .user_of(code, pending.verifier, &pending.nonce)
        .await
    {
        Ok(user) => user,
        Err(refused) => {
            tracing::warn!("elicit_mcp's page login refused a sign-in: {refused}");
            return start_again(
                StatusCode::BAD_GATEWAY,
                "The sign-in did not complete",
                "The authorization server's answer could not be verified.",
            );
        }
    };
    // A new session at each sign-in: an id the browser held before is not carried over.
    if let Some(old) = inner.cookies.session_of(&request) {
        let _ = inner.sessions.end(&old).await;
    }
    let (Some(id), Some(csrf), Some(issuer)) = (random_hex(), random_hex(), user.issuer()) else {
        return unavailable();
    };
    let session = Session {
        issuer: issuer.to_owned(),
        subject: user.subject().to_owned(),
        csrf,
    };
    if let Err(error) = inner.sessions.open(&id, &session, inner.session_life).await {
        tracing::warn!("elicit_mcp's page login could not open a session: {error}");
        return unavailable();
    }
    let mut response = say(
        StatusCode::SEE_OTHER,
        "Signed in",
        "Go back to the page you asked for.",
    );
    see_other(&mut response, &pending.return_to);
    set_cookie(
        &mut response,
        &inner.cookies.session_cookie(&id, inner.session_life),
    );
    response
}

/// `POST /logout`: the session ended, with the sign-out form's token.
pub(super) async fn sign_out(State(login): State<OidcLogin>, request: Request) -> Response {
    let (request, body) = request.with_limited_body().into_parts();
    let inner = &login.inner;
    let Some((id, session)) = login.session_of(&request).await else {
        let mut response = say(
            StatusCode::OK,
            "Signed out",
            "This browser is not signed in.",
        );
        set_cookie(&mut response, &inner.cookies.session_removed());
        return response;
    };
    let token = match posted::read_body(body).await {
        Ok(body) => posted::pairs(&body)
            .ok()
            .and_then(|pairs| pairs.first("_csrf").map(str::to_owned)),
        Err(_) => None,
    };
    if !token.is_some_and(|token| same_text(&token, &session.csrf)) {
        return say(
            StatusCode::FORBIDDEN,
            "This sign-out was refused",
            "It did not come from the sign-out button this server showed this browser.",
        );
    }
    if let Err(error) = inner.sessions.end(&id).await {
        tracing::warn!("elicit_mcp's page login could not end a session: {error}");
        return unavailable();
    }
    let issuer_sign_out = inner
        .issuer_logout
        .then(|| inner.client.end_session_endpoint())
        .flatten();
    let mut response = match issuer_sign_out {
        Some(endpoint) => {
            let mut response = say(
                StatusCode::SEE_OTHER,
                "Signed out",
                "This browser is sent to the authorization server to sign out there too.",
            );
            let mut location = url::Url::parse(endpoint).ok();
            if let Some(location) = &mut location {
                location
                    .query_pairs_mut()
                    .append_pair("client_id", inner.client.client_id());
            }
            match location {
                Some(location) => see_other(&mut response, location.as_str()),
                None => return say(StatusCode::OK, "Signed out", "This browser is signed out."),
            }
            response
        }
        None => say(StatusCode::OK, "Signed out", "This browser is signed out."),
    };
    set_cookie(&mut response, &inner.cookies.session_removed());
    response
}

/// Who the browser is signed in as, with the sign-out button.
fn signed_in_page(session: &Session) -> Response {
    let body = format!(
        "<p class=\"server\">{TITLE}</p><h1>Signed in</h1><p>This browser is signed in as \
         <strong>{}</strong> at {}.</p><form method=\"post\" action=\"{LOGOUT_PATH}\"><input \
         type=\"hidden\" name=\"_csrf\" value=\"{}\"><div class=\"actions\"><button \
         type=\"submit\">Sign out</button></div></form>",
        escape(&session.subject),
        escape(&session.issuer),
        escape(&session.csrf),
    );
    secured(StatusCode::OK, page("Signed in", &body))
}
