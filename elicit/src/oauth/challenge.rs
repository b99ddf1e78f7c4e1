//! The refusals of a protected resource, as RFC 6750 section 3 writes them, each naming the
//! protected-resource metadata (RFC 9728 section 5.1) and the scopes the resource needs.

use crate::rmcp::authenticate::Unauthenticated;

/// The challenges of one resource: its metadata URL and scopes, written once.
#[derive(Clone, Debug)]
pub(crate) struct Challenges {
    /// `resource_metadata="…"`, and `scope="…"` when there are scopes.
    parameters: String,
    /// `scope="…"` alone, for `insufficient_scope`.
    scope: String,
    metadata_url: String,
}

/// Why a token was refused, said to the client in `error_description`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No credentials: 401 with the bare challenge, no error (RFC 6750 section 3.1).
    NoToken,
    /// The `Authorization` header is not a bearer token: 400 `invalid_request`.
    Malformed,
    /// 401 `invalid_token`, with what is wrong with it.
    InvalidToken(&'static str),
    /// 403 `insufficient_scope`, naming the scopes needed.
    InsufficientScope,
    /// The authorization server could not be asked: 401 `invalid_token` too (the token could
    /// not be shown valid), and logged, since it is the server's trouble and not the client's.
    Unverifiable(&'static str),
}

impl Challenges {
    pub fn new(metadata_url: &str, scopes: &[String]) -> Self {
        let scope = if scopes.is_empty() {
            String::new()
        } else {
            format!("scope=\"{}\"", scopes.join(" "))
        };
        let mut parameters = format!("resource_metadata=\"{metadata_url}\"");
        if !scope.is_empty() {
            parameters.push_str(", ");
            parameters.push_str(&scope);
        }
        Challenges {
            parameters,
            scope,
            metadata_url: metadata_url.to_owned(),
        }
    }

    /// The refusal the guard answers for `refusal`.
    pub fn refuse(&self, refusal: Refusal) -> Unauthenticated {
        let parameters = &self.parameters;
        match refusal {
            Refusal::NoToken => Unauthenticated::new(format!("Bearer {parameters}")),
            Refusal::Malformed => Unauthenticated::bad_request(format!(
                "Bearer error=\"invalid_request\", error_description=\"the Authorization header \
                 is not a bearer token\", {parameters}"
            )),
            Refusal::InvalidToken(why) | Refusal::Unverifiable(why) => {
                Unauthenticated::new(format!(
                    "Bearer error=\"invalid_token\", error_description=\"{why}\", {parameters}"
                ))
            }
            Refusal::InsufficientScope => Unauthenticated::forbidden(format!(
                "Bearer error=\"insufficient_scope\", error_description=\"the token lacks a \
                 scope this server needs\", {}, resource_metadata=\"{}\"",
                self.scope, self.metadata_url
            )),
        }
    }
}

/// The bearer token of the request, or the refusal for its absence or its shape.
pub(crate) fn bearer_token<'a>(
    request: &'a http::request::Parts,
    challenges: &Challenges,
) -> Result<&'a str, Unauthenticated> {
    Unauthenticated::bearer_token(request).map_err(|refused| {
        if refused.status() == http::StatusCode::BAD_REQUEST {
            challenges.refuse(Refusal::Malformed)
        } else {
            challenges.refuse(Refusal::NoToken)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_has_its_status_error_and_the_metadata_url() {
        let challenges =
            Challenges::new("https://m.example/.well-known/x", &["a".into(), "b".into()]);
        let no_token = challenges.refuse(Refusal::NoToken);
        assert_eq!(no_token.status(), 401);
        assert_eq!(
            no_token.challenge(),
            "Bearer resource_metadata=\"https://m.example/.well-known/x\", scope=\"a b\""
        );
        let expired = challenges.refuse(Refusal::InvalidToken("the token has expired"));
        assert_eq!(expired.status(), 401);
        assert_eq!(
            expired.challenge(),
            "Bearer error=\"invalid_token\", error_description=\"the token has expired\", \
             resource_metadata=\"https://m.example/.well-known/x\", scope=\"a b\""
        );
        let scope = challenges.refuse(Refusal::InsufficientScope);
        assert_eq!(scope.status(), 403);
        assert!(
            scope
                .challenge()
                .starts_with("Bearer error=\"insufficient_scope\"")
        );
        assert!(scope.challenge().contains(", scope=\"a b\", "));
        assert!(
            scope
                .challenge()
                .ends_with("resource_metadata=\"https://m.example/.well-known/x\"")
        );
        assert_eq!(challenges.refuse(Refusal::Malformed).status(), 400);
    }
}
