//! Who the user of a request is: [`Authenticate`], the server's own check of the credentials a
//! request carries, said once and used for every ask on every revision.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use http::request::Parts;

use crate::server::UserId;

/// The server's own check of who sent a request: from the HTTP request's parts (its
/// `Authorization` header, a cookie, a header a proxy in front verified) to the [`UserId`] it
/// stands for, or a refusal.
///
/// Given once to
/// [`Elicitation::with_authentication`](crate::rmcp::Elicitation::with_authentication) and checked
/// by the guard before rmcp reads the request: a refused request is answered with the refusal's
/// status (`401 Unauthorized`, `400` or `403`) and its `WWW-Authenticate` challenge, and the
/// user of an accepted one binds every ask of the request (the sealed `requestState` of
/// 2026-07-28, URL-mode elicitations, tasks) on both protocol revisions.
///
/// With the feature `oauth`, `elicit_mcp::oauth` has the library's own, for OAuth access tokens
/// (JWTs verified with the issuer's keys, or introspection). A closure
/// `Fn(&Parts) -> Result<UserId, Unauthenticated>` is one too. A check that has to wait (a
/// database, a service of your own) implements the trait:
///
/// ```
/// use elicit_mcp::http::{Authenticate, Unauthenticated};
/// use elicit_mcp::server::UserId;
/// use http::request::Parts;
///
/// struct ApiKeys;
///
/// impl Authenticate for ApiKeys {
///     async fn authenticate(&self, request: &Parts) -> Result<UserId, Unauthenticated> {
///         let token = Unauthenticated::bearer_token(request)?;
///         // ... look `token` up in the server's own database of API keys ...
///         # let subject = token.to_owned();
///         UserId::from_verified_subject(subject)
///             .map_err(|_| Unauthenticated::bearer("invalid_token"))
///     }
/// }
/// # let _ = ApiKeys;
/// ```
pub trait Authenticate: Send + Sync + 'static {
    /// The user `request` stands for, or why it is refused.
    fn authenticate(
        &self,
        request: &Parts,
    ) -> impl Future<Output = Result<UserId, Unauthenticated>> + Send;
}

impl<F> Authenticate for F
where
    F: Fn(&Parts) -> Result<UserId, Unauthenticated> + Send + Sync + 'static,
{
    async fn authenticate(&self, request: &Parts) -> Result<UserId, Unauthenticated> {
        self(request)
    }
}

/// Why a request was refused: answered with its status (`401 Unauthorized` unless said
/// otherwise) and this `WWW-Authenticate` challenge, which tells the client how to authenticate
/// (RFC 9110 section 11.6.1; for bearer tokens RFC 6750 section 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unauthenticated {
    challenge: String,
    status: http::StatusCode,
}

impl Unauthenticated {
    /// A refusal answered `401 Unauthorized` with the challenge `challenge`, the value of
    /// `WWW-Authenticate` as it is sent: no credentials, or credentials that are not valid.
    pub fn new(challenge: impl Into<String>) -> Self {
        Unauthenticated {
            challenge: challenge.into(),
            status: http::StatusCode::UNAUTHORIZED,
        }
    }

    /// A refusal answered `400 Bad Request` with `challenge`: the request's credentials are
    /// malformed (RFC 6750's `invalid_request`).
    pub fn bad_request(challenge: impl Into<String>) -> Self {
        Unauthenticated {
            status: http::StatusCode::BAD_REQUEST,
            ..Unauthenticated::new(challenge)
        }
    }

    /// A refusal answered `403 Forbidden` with `challenge`: the credentials are valid but do
    /// not allow this request (RFC 6750's `insufficient_scope`).
    pub fn forbidden(challenge: impl Into<String>) -> Self {
        Unauthenticated {
            status: http::StatusCode::FORBIDDEN,
            ..Unauthenticated::new(challenge)
        }
    }

    /// A bearer-token refusal: `Bearer error="<error>"`, or plain `Bearer` when `error` is
    /// empty (no credentials at all), with the status RFC 6750 section 3.1 gives the error:
    /// `400` for `invalid_request`, `403` for `insufficient_scope`, `401` otherwise
    /// (`invalid_token`, or no credentials).
    pub fn bearer(error: &str) -> Self {
        let challenge = if error.is_empty() {
            "Bearer".to_owned()
        } else {
            format!("Bearer error=\"{error}\"")
        };
        match error {
            "invalid_request" => Unauthenticated::bad_request(challenge),
            "insufficient_scope" => Unauthenticated::forbidden(challenge),
            _ => Unauthenticated::new(challenge),
        }
    }

    /// The token of `Authorization: Bearer TOKEN`, or the refusal to answer when there is none
    /// (`Bearer`) or the header is not a bearer token (`invalid_request`).
    pub fn bearer_token(request: &Parts) -> Result<&str, Unauthenticated> {
        let Some(header) = request.headers.get(http::header::AUTHORIZATION) else {
            return Err(Unauthenticated::bearer(""));
        };
        let value = header
            .to_str()
            .map_err(|_| Unauthenticated::bearer("invalid_request"))?;
        let (scheme, token) = value
            .split_once(' ')
            .ok_or_else(|| Unauthenticated::bearer("invalid_request"))?;
        let token = token.trim();
        if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
            return Err(Unauthenticated::bearer("invalid_request"));
        }
        Ok(token)
    }

    /// The `WWW-Authenticate` value.
    pub fn challenge(&self) -> &str {
        &self.challenge
    }

    /// The status the refusal is answered with: `401`, `400` or `403`.
    pub fn status(&self) -> http::StatusCode {
        self.status
    }
}

impl fmt::Display for Unauthenticated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the request is refused with {} ({})",
            self.status, self.challenge
        )
    }
}

impl std::error::Error for Unauthenticated {}

/// The user the guard authenticated, in the HTTP request's extensions (which rmcp hands on to
/// the handler as the request's `Parts`). A type of this module's own, so that only the guard's
/// check can put one there.
#[derive(Clone, Debug)]
pub(crate) struct Authenticated(pub UserId);

type Checking<'a> = Pin<Box<dyn Future<Output = Result<UserId, Unauthenticated>> + Send + 'a>>;

/// [`Authenticate`] as an object, so that the elicitation holds one whatever type checks.
pub(crate) trait DynAuthenticate: Send + Sync {
    fn authenticate<'a>(&'a self, request: &'a Parts) -> Checking<'a>;
}

impl<A: Authenticate> DynAuthenticate for A {
    fn authenticate<'a>(&'a self, request: &'a Parts) -> Checking<'a> {
        Box::pin(Authenticate::authenticate(self, request))
    }
}

/// The check an elicitation was given, shared by its clones.
pub(crate) type SharedAuthenticate = Arc<dyn DynAuthenticate>;

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(authorization: Option<&str>) -> Parts {
        let mut request = http::Request::builder();
        if let Some(value) = authorization {
            request = request.header("authorization", value);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn a_bearer_token_is_read_and_anything_else_refused_with_its_challenge() {
        assert_eq!(
            Unauthenticated::bearer_token(&parts(Some("Bearer abc"))),
            Ok("abc")
        );
        assert_eq!(
            Unauthenticated::bearer_token(&parts(Some("bearer  abc "))),
            Ok("abc")
        );
        assert_eq!(
            Unauthenticated::bearer_token(&parts(None))
                .unwrap_err()
                .challenge(),
            "Bearer"
        );
        for wrong in ["Basic YTpi", "Bearer", "Bearer ", "token"] {
            assert_eq!(
                Unauthenticated::bearer_token(&parts(Some(wrong)))
                    .unwrap_err()
                    .challenge(),
                "Bearer error=\"invalid_request\"",
                "{wrong}"
            );
        }
    }

    #[test]
    fn each_bearer_error_has_the_status_rfc_6750_gives_it() {
        for (error, status) in [
            ("", 401),
            ("invalid_token", 401),
            ("invalid_request", 400),
            ("insufficient_scope", 403),
        ] {
            assert_eq!(Unauthenticated::bearer(error).status(), status, "{error}");
        }
        assert_eq!(Unauthenticated::new("Basic").status(), 401);
        assert_eq!(Unauthenticated::bad_request("Bearer").status(), 400);
        assert_eq!(Unauthenticated::forbidden("Bearer").status(), 403);
    }
}
