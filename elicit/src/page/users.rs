//! Who the browser's user is: the server's own way of knowing, behind [`PageUsers`].

use std::future::Future;

use axum::http::request::Parts;

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
