//! A development sign-in for examples and tests on loopback: a form that signs the browser in
//! as any name, by POST with a CSRF token, and sends it back to the page it asked for.

use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{RequestExt as _, Router};

use super::browser::{Browser, random_hex};
use super::render::{escape, notice, page};
use super::return_to::{RETURN_TO, safe_return_path};
use super::users::PageUsers;
use super::{cookie, posted, secured};
use crate::server::{UserId, same_text};

/// Where the sign-in is served, and where a browser goes once signed in when it brought no
/// return path, or one that is not a path on this server.
const LOGIN_PATH: &str = "/login";

/// Where a browser signs out.
const LOGOUT_PATH: &str = "/logout";

/// The cookie the development sign-in sets: the user's name.
const USER_COOKIE: &str = "elicit_dev_user";

/// How long a sign-in form's token is taken.
const TOKEN_LIFE: Duration = Duration::from_secs(60 * 60);

/// The most browsers holding a sign-in token at once.
const MAX_TOKENS: usize = 4096;

/// What the pages of the sign-in say they are.
const TITLE: &str = "Development sign-in";

/// A development identity, for examples and tests only: its [`router`](Self::router) serves a
/// form at `GET /login` that signs the browser in as any name, with a cookie, which is all it
/// checks. It refuses to be made for a server listening anywhere but on loopback, and refuses
/// every request whose peer is not loopback (403), or whose peer it cannot tell (500: serve the
/// app with `into_make_service_with_connect_info::<SocketAddr>()`, axum).
///
/// - `GET /login?return_to=PATH`: the form (a user name), with a CSRF token bound to this
///   browser as the page's own forms are, and the return path carried in a hidden field;
/// - `POST /login` (`user`, `_csrf`, `return_to`): signs the browser in and answers 303 to
///   the return path, if [`safe_return_path`] takes it, else to `/login` (which says who is
///   signed in); a refused return path is logged. Without the token issued to this browser,
///   403. Each token is used once;
/// - `POST /logout` (`_csrf`): signs the browser out, and 303 to `/login`.
///
/// The sign-in's cookie, `elicit_dev_user`, is `Path=/; HttpOnly; SameSite=Lax` (`Lax`: the
/// browser sends it when a link from elsewhere, the MCP client's, opens the page); the
/// browser's own cookie, for the tokens, is `SameSite=Strict`.
///
/// ```
/// use elicit_mcp::page::DevelopmentLogin;
///
/// assert!(DevelopmentLogin::on("127.0.0.1:3000".parse().unwrap()).is_ok());
/// let refused = DevelopmentLogin::on("0.0.0.0:3000".parse().unwrap()).unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     "the development sign-in runs only on loopback, and the server listens on 0.0.0.0:3000"
/// );
/// ```
#[derive(Clone)]
pub struct DevelopmentLogin {
    tokens: Arc<LoginTokens>,
}

impl fmt::Debug for DevelopmentLogin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never a token.
        f.debug_struct("DevelopmentLogin").finish_non_exhaustive()
    }
}

/// Why the development sign-in was refused: the server listens beyond loopback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotLoopback {
    address: SocketAddr,
}

impl fmt::Display for NotLoopback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the development sign-in runs only on loopback, and the server listens on {}",
            self.address
        )
    }
}

impl std::error::Error for NotLoopback {}

impl DevelopmentLogin {
    /// The development sign-in of a server listening on `address`, which must be loopback.
    pub fn on(address: SocketAddr) -> Result<Self, NotLoopback> {
        if address.ip().is_loopback() {
            Ok(DevelopmentLogin {
                tokens: Arc::default(),
            })
        } else {
            Err(NotLoopback { address })
        }
    }

    /// `GET` and `POST /login`, `POST /logout`: merge them into the server's router.
    pub fn router(&self) -> Router {
        Router::new()
            .route(LOGIN_PATH, get(show_form).post(sign_in))
            .route(LOGOUT_PATH, post(sign_out))
            .with_state(self.clone())
    }
}

impl PageUsers for DevelopmentLogin {
    async fn user(&self, request: &Parts) -> Option<UserId> {
        if !matches!(peer(request), Peer::Loopback) {
            return None;
        }
        signed_in_as(request).and_then(|name| UserId::from_verified_subject(name).ok())
    }
}

/// The name the browser signed in as, if its cookie holds one.
fn signed_in_as(request: &Parts) -> Option<String> {
    cookie(request, USER_COOKIE).filter(|name| valid_name(name))
}

/// Where a request came from, as axum's `ConnectInfo` says.
enum Peer {
    Loopback,
    Elsewhere(SocketAddr),
    Unknown,
}

fn peer(request: &Parts) -> Peer {
    match request.extensions.get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(address)) if address.ip().is_loopback() => Peer::Loopback,
        Some(ConnectInfo(address)) => Peer::Elsewhere(*address),
        None => Peer::Unknown,
    }
}

/// The refusal of a request that does not come from loopback, or from a peer not known.
fn refused_peer(request: &Parts) -> Option<Response> {
    match peer(request) {
        Peer::Loopback => None,
        Peer::Elsewhere(address) => Some(say(
            StatusCode::FORBIDDEN,
            "Not from this computer",
            &format!(
                "The development sign-in answers only requests from this computer (loopback), \
                 and this one came from {}.",
                address.ip()
            ),
        )),
        Peer::Unknown => {
            tracing::warn!(
                "elicit_mcp's development sign-in refused a request whose peer address it \
                 cannot tell: serve the app with \
                 `into_make_service_with_connect_info::<SocketAddr>()` (axum)"
            );
            Some(say(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The server cannot tell where this request came from",
                "The development sign-in answers only requests from this computer, and needs \
                 the peer's address to check it: serve the app with \
                 into_make_service_with_connect_info::<SocketAddr>() (axum).",
            ))
        }
    }
}

fn say(status: StatusCode, heading: &str, text: &str) -> Response {
    secured(status, notice(TITLE, heading, text))
}

#[derive(serde::Deserialize)]
struct FormQuery {
    return_to: Option<String>,
}

/// `GET /login`: the form, with this browser's token.
async fn show_form(State(login): State<DevelopmentLogin>, request: Parts) -> Response {
    if let Some(refused) = refused_peer(&request) {
        return refused;
    }
    let requested = Query::<FormQuery>::try_from_uri(&request.uri)
        .ok()
        .and_then(|Query(query)| query.return_to);
    let return_to = requested.as_deref().and_then(followed);
    login.form(&request, return_to, None, StatusCode::OK)
}

/// `POST /login`: signs the browser in, then 303 to where it came from.
async fn sign_in(State(login): State<DevelopmentLogin>, request: Request) -> Response {
    let (request, body) = request.with_limited_body().into_parts();
    if let Some(refused) = refused_peer(&request) {
        return refused;
    }
    let Some(fields) = posted_fields(body).await else {
        return unreadable();
    };
    let field = |name: &str| fields.first(name);
    if !login.spend_token(&request, field("_csrf")) {
        return forged();
    }
    let return_to = field(RETURN_TO).and_then(followed);
    let Some(name) = field("user").filter(|name| valid_name(name)) else {
        let why = "A user name is letters, digits, '.', '_' and '-', at most 64.";
        return login.form(
            &request,
            return_to,
            Some(why),
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let mut response = say(
        StatusCode::SEE_OTHER,
        &format!("Signed in as {name}"),
        "Go back to the link your MCP client showed you.",
    );
    let cookie = format!("{USER_COOKIE}={name}; Path=/; HttpOnly; SameSite=Lax");
    set(&mut response, header::SET_COOKIE, &cookie);
    set(
        &mut response,
        header::LOCATION,
        return_to.unwrap_or(LOGIN_PATH),
    );
    response
}

/// `POST /logout`: signs the browser out, then 303 to the sign-in.
async fn sign_out(State(login): State<DevelopmentLogin>, request: Request) -> Response {
    let (request, body) = request.with_limited_body().into_parts();
    if let Some(refused) = refused_peer(&request) {
        return refused;
    }
    let Some(fields) = posted_fields(body).await else {
        return unreadable();
    };
    if !login.spend_token(&request, fields.first("_csrf")) {
        return forged();
    }
    let mut response = say(
        StatusCode::SEE_OTHER,
        "Signed out",
        "This browser is signed out.",
    );
    let cookie = format!("{USER_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    set(&mut response, header::SET_COOKIE, &cookie);
    set(&mut response, header::LOCATION, LOGIN_PATH);
    response
}

/// The pairs of a posted form, or `None` when the body is not one.
async fn posted_fields(body: axum::body::Body) -> Option<posted::FormPairs> {
    let body = posted::read_body(body).await.ok()?;
    posted::pairs(&body).ok()
}

fn unreadable() -> Response {
    say(
        StatusCode::BAD_REQUEST,
        "This sign-in could not be read",
        "Send the form from the sign-in page itself.",
    )
}

fn forged() -> Response {
    say(
        StatusCode::FORBIDDEN,
        "This sign-in was refused",
        "It did not come from the sign-in page this server showed this browser. Open the \
         sign-in page again.",
    )
}

/// `requested`, if it is a path on this server; else `None`, logged, and the browser goes to
/// the sign-in's own page once signed in.
fn followed(requested: &str) -> Option<&str> {
    let safe = safe_return_path(requested);
    if safe.is_none() {
        tracing::warn!(
            "elicit_mcp's development sign-in refused the return path {requested:?}: it is not \
             a path on this server; the browser goes to {LOGIN_PATH} instead"
        );
    }
    safe
}

fn set(response: &mut Response, name: header::HeaderName, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        response.headers_mut().append(name, value);
    }
}

impl DevelopmentLogin {
    /// The sign-in form for the browser of `request`, with its token, and `return_to` in a
    /// hidden field.
    fn form(
        &self,
        request: &Parts,
        return_to: Option<&str>,
        error: Option<&str>,
        status: StatusCode,
    ) -> Response {
        let cannot = || {
            say(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again in a moment",
                "The server could not make a security token.",
            )
        };
        let (Some(browser), Some(fresh)) = (Browser::of(request), random_hex()) else {
            return cannot();
        };
        let Some(token) = self.tokens.token_for(browser.id(), fresh, Instant::now()) else {
            return cannot();
        };
        let html = login_page(&token, return_to, signed_in_as(request).as_deref(), error);
        let mut response = secured(status, html);
        browser.remember(&mut response);
        response
    }

    /// Whether `token` is the one issued to the request's browser; it is spent if so.
    fn spend_token(&self, request: &Parts, token: Option<&str>) -> bool {
        match (Browser::known(request), token) {
            (Some(browser), Some(token)) => self.tokens.spend(&browser, token, Instant::now()),
            _ => false,
        }
    }
}

/// The sign-in page: who is signed in, the form, and the sign-out.
fn login_page(
    token: &str,
    return_to: Option<&str>,
    signed_in: Option<&str>,
    error: Option<&str>,
) -> String {
    let token = escape(token);
    let mut body = format!("<p class=\"server\">{TITLE}</p><h1>Sign in</h1>");
    if let Some(name) = signed_in {
        body.push_str(&format!(
            "<p>This browser is signed in as <strong>{}</strong>.</p>",
            escape(name)
        ));
    }
    if let Some(error) = error {
        body.push_str(&format!(
            "<div class=\"alert\" role=\"alert\"><p>{}</p></div>",
            escape(error)
        ));
    }
    let return_field = return_to.map_or_else(String::new, |path| {
        format!(
            "<input type=\"hidden\" name=\"{RETURN_TO}\" value=\"{}\">",
            escape(path)
        )
    });
    let invalid = if error.is_some() {
        " aria-invalid=\"true\""
    } else {
        ""
    };
    body.push_str(&format!(
        "<form method=\"post\" action=\"{LOGIN_PATH}\"><input type=\"hidden\" name=\"_csrf\" \
         value=\"{token}\">{return_field}<div class=\"field\"><label for=\"user\">User name \
         <span class=\"req\" aria-hidden=\"true\">*</span></label><p class=\"hint\" \
         id=\"user-hint\">Letters, digits, '.', '_' and '-', at most 64.</p><input \
         type=\"text\" id=\"user\" name=\"user\" required maxlength=\"64\" \
         pattern=\"[A-Za-z0-9._\\-]+\" autocomplete=\"username\" \
         aria-describedby=\"user-hint\"{invalid}></div><div class=\"actions\"><button \
         class=\"send\" type=\"submit\">Sign in</button></div></form>"
    ));
    if signed_in.is_some() {
        body.push_str(&format!(
            "<form method=\"post\" action=\"{LOGOUT_PATH}\"><input type=\"hidden\" \
             name=\"_csrf\" value=\"{token}\"><div class=\"actions\"><button \
             type=\"submit\">Sign out</button></div></form>"
        ));
    }
    body.push_str(
        "<p class=\"note\">For development only: anyone at this computer may sign in as \
         anyone.</p>",
    );
    page("Sign in", &body)
}

fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The sign-in's CSRF tokens, by browser: one each, issued by the form, spent by the sign-in
/// or sign-out it is sent with, and taken for [`TOKEN_LIFE`]; [`MAX_TOKENS`] at most.
#[derive(Default)]
struct LoginTokens {
    issued: Mutex<HashMap<String, Issued>>,
}

struct Issued {
    token: String,
    until: Instant,
}

impl LoginTokens {
    /// The token of `browser`: the one issued before and not spent, or `fresh`; `None` when
    /// [`MAX_TOKENS`] browsers hold one already.
    fn token_for(&self, browser: &str, fresh: String, now: Instant) -> Option<String> {
        let mut issued = self.issued.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = issued.get(browser).filter(|held| held.until > now) {
            return Some(held.token.clone());
        }
        if issued.len() >= MAX_TOKENS {
            issued.retain(|_, held| held.until > now);
            if issued.len() >= MAX_TOKENS {
                return None;
            }
        }
        let until = now + TOKEN_LIFE;
        issued.insert(
            browser.to_owned(),
            Issued {
                token: fresh.clone(),
                until,
            },
        );
        Some(fresh)
    }

    /// Whether `token` is the one issued to `browser`, still taken; spent if so.
    fn spend(&self, browser: &str, token: &str, now: Instant) -> bool {
        let mut issued = self.issued.lock().unwrap_or_else(PoisonError::into_inner);
        let holds = issued
            .get(browser)
            .is_some_and(|held| held.until > now && same_text(&held.token, token));
        if holds {
            issued.remove(browser);
        }
        holds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use axum::body::Body;
    use axum::http::Request as HttpRequest;
    use http_body_util::BodyExt as _;
    use tower_service::Service as _;

    fn login() -> DevelopmentLogin {
        DevelopmentLogin::on("127.0.0.1:3000".parse().unwrap()).unwrap()
    }

    async fn send(
        login: &DevelopmentLogin,
        request: HttpRequest<Body>,
        from: Option<&str>,
    ) -> (StatusCode, String) {
        let mut request = request;
        if let Some(from) = from {
            let address: SocketAddr = from.parse().unwrap();
            request.extensions_mut().insert(ConnectInfo(address));
        }
        let response = login.router().call(request).await.unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    fn get(path: &str) -> HttpRequest<Body> {
        HttpRequest::get(path).body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn a_request_from_beyond_loopback_is_refused_and_says_why() {
        let login = login();
        let (status, body) = send(&login, get("/login"), Some("192.0.2.7:50000")).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(body.contains("this one came from 192.0.2.7"), "{body}");
        let post = HttpRequest::post("/login")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from("user=mallory"))
            .unwrap();
        let (status, _) = send(&login, post, Some("[2001:db8::1]:50000")).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, body) = send(&login, get("/login"), Some("[::1]:50000")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    #[tokio::test]
    async fn without_the_peers_address_it_says_how_to_serve_it() {
        let (status, body) = send(&login(), get("/login"), None).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            body.contains("into_make_service_with_connect_info::&lt;SocketAddr&gt;()"),
            "{body}"
        );
    }

    #[tokio::test]
    async fn a_user_is_known_only_from_loopback() {
        let login = login();
        let request = |from: &str| {
            let mut request = HttpRequest::get("/secure/x")
                .header(header::COOKIE, "elicit_dev_user=ada")
                .body(())
                .unwrap();
            let address: SocketAddr = from.parse().unwrap();
            request.extensions_mut().insert(ConnectInfo(address));
            request.into_parts().0
        };
        let ada = login.user(&request("127.0.0.1:1")).await;
        assert_eq!(ada.as_ref().map(UserId::as_str), Some("ada"));
        assert_eq!(login.user(&request("192.0.2.7:1")).await, None);
        let unknown = HttpRequest::get("/secure/x")
            .header(header::COOKIE, "elicit_dev_user=ada")
            .body(())
            .unwrap()
            .into_parts()
            .0;
        assert_eq!(login.user(&unknown).await, None);
    }

    #[test]
    fn a_token_is_the_browsers_own_used_once_and_expires() {
        let tokens = LoginTokens::default();
        let now = Instant::now();
        let issued = tokens.token_for("b1", "t1".into(), now).unwrap();
        assert_eq!(tokens.token_for("b1", "t2".into(), now).unwrap(), issued);
        assert!(!tokens.spend("b2", &issued, now), "another browser's token");
        assert!(!tokens.spend("b1", "t2", now));
        assert!(tokens.spend("b1", &issued, now));
        assert!(!tokens.spend("b1", &issued, now), "spent");
        tokens.token_for("b1", "t3".into(), now).unwrap();
        assert!(!tokens.spend("b1", "t3", now + TOKEN_LIFE), "expired");
    }

    #[test]
    fn the_tokens_held_are_bounded() {
        let tokens = LoginTokens::default();
        let now = Instant::now();
        for browser in 0..MAX_TOKENS {
            assert!(
                tokens
                    .token_for(&browser.to_string(), "t".into(), now)
                    .is_some()
            );
        }
        assert_eq!(tokens.token_for("one more", "t".into(), now), None);
        let later = now + TOKEN_LIFE;
        assert!(tokens.token_for("one more", "t".into(), later).is_some());
    }
}
