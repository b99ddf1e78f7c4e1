//! Who the user of a request to an example server is: a development identity for servers on
//! loopback, where a real server verifies a token with its authorization server.

use axum::http::request::Parts;
use elicit_mcp::http::Unauthenticated;
use elicit_mcp::server::UserId;

/// The user of a request that carries no credentials, for [`development_user_or_demo`].
pub const DEMO_USER: &str = "demo-user";

/// `Authorization: Bearer NAME` is the user `NAME`: a development identity, for examples and
/// tests on loopback only (the example servers listen nowhere else). A real server checks the
/// token instead ([`elicit_mcp::http::Authenticate`]).
///
/// ```
/// use elicit_examples::http::development_user;
///
/// let request = axum::http::Request::builder().header("authorization", "Bearer alice").body(()).unwrap();
/// assert_eq!(development_user(&request.into_parts().0).unwrap().as_str(), "alice");
///
/// let anonymous = axum::http::Request::builder().body(()).unwrap();
/// assert_eq!(development_user(&anonymous.into_parts().0).unwrap_err().challenge(), "Bearer");
/// ```
pub fn development_user(request: &Parts) -> Result<UserId, Unauthenticated> {
    let name = Unauthenticated::bearer_token(request)?;
    UserId::from_verified_subject(name).map_err(|_| Unauthenticated::bearer("invalid_token"))
}

/// As [`development_user`], and a request without credentials is [`DEMO_USER`]'s: for the demo
/// whose clients (the terminal ones, the Inspector) send none.
pub fn development_user_or_demo(request: &Parts) -> Result<UserId, Unauthenticated> {
    if request
        .headers
        .contains_key(axum::http::header::AUTHORIZATION)
    {
        return development_user(request);
    }
    UserId::from_verified_subject(DEMO_USER).map_err(|_| Unauthenticated::bearer(""))
}
