//! Who the browser's user is: the server's own way of knowing, behind [`PageUsers`], and a
//! development sign-in for examples and tests on loopback.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;

use axum::Router;
use axum::extract::Query;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::render::notice;
use super::{cookie, secured};
use crate::server::UserId;

/// How the server knows the user of a browser that opens its page: from the request's cookies
/// or headers (its own sign-in session), to a [`UserId`] that the page compares with the user
/// the elicitation was made for. `None` sends the browser to the server's sign-in
/// ([`SecurePage::with_login_url`](super::SecurePage::with_login_url)).
///
/// ```
/// use elicit_mcp::page::PageUsers;
/// use elicit_mcp::server::UserId;
///
/// /// Users by the session cookie of the server's own sign-in.
/// struct Sessions;
///
/// impl PageUsers for Sessions {
///     async fn user(&self, request: &axum::http::request::Parts) -> Option<UserId> {
///         let cookies = request.headers.get("cookie")?.to_str().ok()?;
///         let session = cookies.split("; ").find_map(|c| c.strip_prefix("session="))?;
///         // Look the session up in the server's own store here.
///         UserId::from_verified_subject(format!("user-of-{session}")).ok()
///     }
/// }
/// ```
pub trait PageUsers: Send + Sync + 'static {
    /// The user whose browser sent `request`, or `None` when it is not signed in.
    fn user(&self, request: &Parts) -> impl Future<Output = Option<UserId>> + Send;
}

/// The cookie the development sign-in sets.
const USER_COOKIE: &str = "elicit_dev_user";

/// A development identity, for examples and tests only: `GET /login?user=NAME` (its
/// [`router`](Self::router)) signs the browser in as `NAME` with a cookie, which is all it
/// checks. It refuses to be made for a server listening anywhere but on loopback.
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
#[derive(Clone, Debug)]
pub struct DevelopmentLogin {
    _loopback: (),
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
            Ok(DevelopmentLogin { _loopback: () })
        } else {
            Err(NotLoopback { address })
        }
    }

    /// `GET /login?user=NAME`: signs the browser in as `NAME` (letters, digits, `.`, `_` and
    /// `-`, at most 64).
    pub fn router(&self) -> Router {
        Router::new().route("/login", get(sign_in))
    }
}

impl PageUsers for DevelopmentLogin {
    async fn user(&self, request: &Parts) -> Option<UserId> {
        let name = cookie(request, USER_COOKIE)?;
        valid_name(&name)
            .then(|| UserId::from_verified_subject(name).ok())
            .flatten()
    }
}

#[derive(serde::Deserialize)]
struct SignIn {
    user: Option<String>,
}

async fn sign_in(Query(query): Query<SignIn>) -> Response {
    let Some(name) = query.user.filter(|name| valid_name(name)) else {
        let page = notice(
            "Development sign-in",
            "Who are you?",
            "Sign in with /login?user=NAME: letters, digits, '.', '_' and '-', at most 64.",
        );
        return secured(StatusCode::BAD_REQUEST, page);
    };
    let page = notice(
        "Development sign-in",
        &format!("Signed in as {name}"),
        "Go back to the link your MCP client showed you.",
    );
    let mut response = secured(StatusCode::OK, page);
    let cookie = format!("{USER_COOKIE}={name}; Path=/; HttpOnly; SameSite=Lax");
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response.into_response()
}

fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}
