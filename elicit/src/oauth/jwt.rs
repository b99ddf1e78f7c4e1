//! JWT access tokens verified by the resource server itself: the signature with the issuer's
//! key, the issuer, the audience (this resource), the times, the scopes.

use std::sync::Arc;

use http::request::Parts;
use jsonwebtoken::errors::ErrorKind;
use serde::Deserialize;

use super::challenge::{Refusal, bearer_token};
use super::config::{ProtectedResource, Settings};
use super::discovery::{discover, endpoint};
use super::error::VerifierSetupError;
use super::scopes::Scopes;
use super::signed::{SignedTokens, Unverified};
use crate::rmcp::authenticate::{Authenticate, Unauthenticated};
use crate::server::UserId;

/// Verifies JWT access tokens (RFC 9068) for a [`ProtectedResource`], with the keys of the
/// issuer's JWKS: the signature with an allowed asymmetric algorithm and the key its `kid`
/// names, `iss` the configured issuer, `aud` this resource, `exp` and `nbf` within the
/// leeway, every required scope (`scope`, or `scp`). The user is issuer and `sub` together
/// ([`UserId::from_issuer_and_subject`]). Built by [`ProtectedResource::jwt`]; given to
/// [`Elicitation::with_authentication`](crate::rmcp::Elicitation::with_authentication).
///
/// A token naming a key not held fetches the key set again, at most once per
/// [refetch interval](ProtectedResource::with_key_refetch_interval): a rotation at the issuer is
/// followed, a flood of made-up `kid`s is not.
#[derive(Clone)]
pub struct JwtAccessTokens {
    inner: Arc<Verifier>,
}

struct Verifier {
    settings: Arc<Settings>,
    tokens: SignedTokens,
}

/// The claims read besides those jsonwebtoken checks. Optional here so that a token without
/// one is refused by jsonwebtoken's check of required claims, which says which.
#[derive(Deserialize)]
struct Claims {
    iss: Option<String>,
    sub: Option<String>,
    #[serde(flatten)]
    scopes: Scopes,
}

impl ProtectedResource {
    /// The verifier of JWT access tokens for this resource: the issuer's metadata found (RFC
    /// 8414, or OpenID Connect discovery) and its key set fetched now, so that a server whose
    /// authorization server cannot be used fails when it starts, with the URL and why.
    pub async fn jwt(&self) -> Result<JwtAccessTokens, VerifierSetupError> {
        let settings = self.settings.clone();
        let metadata = discover(&settings).await?;
        let jwks_uri = endpoint("jwks_uri", metadata.jwks_uri.as_deref(), &settings.issuer)?;
        let tokens = SignedTokens::fetched(&settings, jwks_uri, &settings.resource).await?;
        Ok(JwtAccessTokens {
            inner: Arc::new(Verifier { settings, tokens }),
        })
    }
}

impl JwtAccessTokens {
    /// The user `token` stands for, or why it is refused.
    async fn verify(&self, token: &str) -> Result<UserId, Refusal> {
        let verifier = &*self.inner;
        let claims: Claims = verifier
            .tokens
            .claims(token)
            .await
            .map_err(|why| Refusal::InvalidToken(problem(why)))?;
        if !claims.scopes.include(&verifier.settings.scopes) {
            return Err(Refusal::InsufficientScope);
        }
        let (Some(iss), Some(sub)) = (claims.iss, claims.sub) else {
            return Err(Refusal::InvalidToken(
                "the token lacks a claim this server needs",
            ));
        };
        UserId::from_issuer_and_subject(&iss, &sub)
            .map_err(|_| Refusal::InvalidToken("the token's subject is empty"))
    }
}

/// What the client is told of a token that does not verify.
fn problem(why: Unverified) -> &'static str {
    match why {
        // `alg: none`, and any name jsonwebtoken does not know, are here.
        Unverified::NotSigned => "the token is not a signed JWT",
        Unverified::AlgorithmRefused => {
            "the token is signed with an algorithm this server does not accept"
        }
        Unverified::UnknownKey => "the token is signed with a key the issuer does not publish",
        Unverified::Claims(kind) => match kind {
            ErrorKind::ExpiredSignature => "the token has expired",
            ErrorKind::ImmatureSignature => "the token is not valid yet",
            ErrorKind::InvalidAudience => "the token is not for this server",
            ErrorKind::InvalidIssuer => "the token is not from this server's issuer",
            ErrorKind::InvalidSignature => "the token's signature does not verify",
            ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key",
            ErrorKind::MissingRequiredClaim(_) => "the token lacks a claim this server needs",
            _ => "the token is not valid",
        },
    }
}

impl Authenticate for JwtAccessTokens {
    async fn authenticate(&self, request: &Parts) -> Result<UserId, Unauthenticated> {
        let challenges = &self.inner.settings.challenges;
        let token = bearer_token(request, challenges)?;
        self.verify(token)
            .await
            .map_err(|refusal| challenges.refuse(refusal))
    }
}

impl std::fmt::Debug for JwtAccessTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtAccessTokens")
            .field("issuer", &self.inner.settings.issuer)
            .field("resource", &self.inner.settings.resource)
            .finish_non_exhaustive()
    }
}
