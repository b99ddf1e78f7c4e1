//! The page's login as an OpenID Connect client of the resource's own issuer: the
//! authorization request (code flow, PKCE with S256, `state`, `nonce`), then the code exchanged
//! for an ID token, verified with the issuer's keys. The user of a verified ID token is issuer
//! and `sub` together, built as the access tokens' user is, so that the browser's user and the
//! MCP request's user compare equal when they are the same person.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use jsonwebtoken::errors::ErrorKind;
use oauth2::basic::{
    BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
    BasicTokenType,
};
use oauth2::{
    AsyncHttpClient, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet,
    EndpointSet, ExtraTokenFields, HttpRequest, HttpResponse, PkceCodeChallenge, PkceCodeVerifier,
    RedirectUrl, RequestTokenError, Scope, StandardRevocableToken, StandardTokenResponse, TokenUrl,
};
use serde::{Deserialize, Serialize};

use super::config::{ConfigError, ProtectedResource, Settings};
use super::discovery::{discover, endpoint};
use super::error::VerifierSetupError;
use super::fetch::{Fetch, FetchError};
use super::signed::{SignedTokens, Unverified};
use crate::server::{UserId, same_text};

/// The token endpoint's answer: an access token (not used) and the ID token.
type LoginTokens = StandardTokenResponse<IdTokenField, BasicTokenType>;

/// The page's OAuth client: its authorization and token endpoints set.
type LoginClient = oauth2::Client<
    BasicErrorResponse,
    LoginTokens,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

/// The member of the token answer OpenID Connect adds.
#[derive(Clone, Deserialize, Serialize)]
struct IdTokenField {
    id_token: Option<String>,
}

impl ExtraTokenFields for IdTokenField {}

impl fmt::Debug for IdTokenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the token.
        f.debug_struct("IdTokenField").finish_non_exhaustive()
    }
}

/// The page's OpenID Connect client of the issuer a [`ProtectedResource`] names.
pub(crate) struct OpenIdClient {
    settings: Arc<Settings>,
    client_id: String,
    oauth: LoginClient,
    fetch: Fetch,
    /// The issuer's keys, for ID tokens whose audience is this client.
    id_tokens: SignedTokens,
    end_session_endpoint: Option<String>,
}

/// One authorization request: where to send the browser, and what the callback needs to
/// finish it, held by the server (never by the browser).
pub(crate) struct Authorization {
    pub url: String,
    pub state: String,
    pub nonce: String,
    pub verifier: String,
}

/// Why a callback's code did not give a user.
#[derive(Debug)]
pub(crate) enum LoginRefused {
    /// The token endpoint could not be asked, or refused the code.
    Exchange(String),
    /// The ID token is missing, or does not verify.
    IdToken(&'static str),
}

impl fmt::Display for LoginRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoginRefused::Exchange(problem) => {
                write!(f, "the code could not be exchanged: {problem}")
            }
            LoginRefused::IdToken(problem) => write!(f, "the ID token was refused: {problem}"),
        }
    }
}

/// The claims read besides those jsonwebtoken checks (`iss`, `aud`, `exp`).
#[derive(Deserialize)]
struct IdClaims {
    iss: Option<String>,
    sub: Option<String>,
    nonce: Option<String>,
    azp: Option<String>,
    aud: Option<Audience>,
}

/// `aud`: one audience, or several. Which one is checked by jsonwebtoken; only how many is read.
#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(#[allow(dead_code)] String),
    Many(Vec<String>),
}

impl OpenIdClient {
    /// The client `client_id` (with `client_secret`, sent as HTTP Basic) of `resource`'s issuer,
    /// called back at `redirect_uri`: the issuer's metadata found and its keys fetched now, so
    /// that a login that cannot work fails when the server starts.
    pub async fn discover(
        resource: &ProtectedResource,
        client_id: &str,
        client_secret: &str,
        redirect_uri: &str,
    ) -> Result<Self, VerifierSetupError> {
        let settings = resource.settings.clone();
        if client_id.is_empty() {
            return Err(ConfigError::new("page client id", "", "is empty").into());
        }
        let metadata = discover(&settings).await?;
        let issuer = &settings.issuer;
        let authorization = endpoint(
            "authorization_endpoint",
            metadata.authorization_endpoint.as_deref(),
            issuer,
        )?;
        let token = endpoint("token_endpoint", metadata.token_endpoint.as_deref(), issuer)?;
        let end_session_endpoint = match metadata.end_session_endpoint.as_deref() {
            Some(url) => Some(endpoint("end_session_endpoint", Some(url), issuer)?),
            None => None,
        };
        let jwks_uri = endpoint("jwks_uri", metadata.jwks_uri.as_deref(), issuer)?;
        let id_tokens = SignedTokens::fetched(&settings, jwks_uri, client_id).await?;
        let oauth = oauth2::Client::new(ClientId::new(client_id.to_owned()))
            .set_client_secret(ClientSecret::new(client_secret.to_owned()))
            .set_auth_uri(
                AuthUrl::new(authorization.clone())
                    .map_err(|e| not_a_url("authorization_endpoint", &authorization, e))?,
            )
            .set_token_uri(
                TokenUrl::new(token.clone()).map_err(|e| not_a_url("token_endpoint", &token, e))?,
            )
            .set_redirect_uri(
                RedirectUrl::new(redirect_uri.to_owned())
                    .map_err(|e| not_a_url("redirect URI", redirect_uri, e))?,
            );
        Ok(OpenIdClient {
            fetch: settings.fetch.clone(),
            settings,
            client_id: client_id.to_owned(),
            oauth,
            id_tokens,
            end_session_endpoint,
        })
    }

    /// A new authorization request for the user's `openid` identity: a random `state`,
    /// `nonce` and PKCE verifier (its S256 challenge in the URL).
    pub fn authorization(&self) -> Authorization {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let nonce = CsrfToken::new_random();
        let (url, state) = self
            .oauth
            .authorize_url(CsrfToken::new_random)
            .add_scope(Scope::new("openid".to_owned()))
            .set_pkce_challenge(challenge)
            .add_extra_param("nonce", nonce.secret())
            .url();
        Authorization {
            url: url.into(),
            state: state.into_secret(),
            nonce: nonce.into_secret(),
            verifier: verifier.into_secret(),
        }
    }

    /// The user whose login gave `code`: the code exchanged with `verifier`, and the ID token
    /// verified, its `nonce` the one of the request.
    pub async fn user_of(
        &self,
        code: &str,
        verifier: String,
        nonce: &str,
    ) -> Result<UserId, LoginRefused> {
        let tokens = self
            .oauth
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(PkceCodeVerifier::new(verifier))
            .request_async(&TokenHttp(&self.fetch))
            .await
            .map_err(|error| LoginRefused::Exchange(exchange_problem(error)))?;
        let Some(id_token) = tokens.extra_fields().id_token.as_deref() else {
            return Err(LoginRefused::IdToken(
                "the token endpoint gave no ID token (is `openid` a scope of this client?)",
            ));
        };
        self.verify(id_token, nonce).await
    }

    /// The user `id_token` names, if it is one the issuer signed for this client, in time,
    /// for the request whose nonce is `nonce`.
    async fn verify(&self, id_token: &str, nonce: &str) -> Result<UserId, LoginRefused> {
        let claims: IdClaims = self
            .id_tokens
            .claims(id_token)
            .await
            .map_err(|why| LoginRefused::IdToken(problem(why)))?;
        if !claims
            .nonce
            .as_deref()
            .is_some_and(|held| same_text(held, nonce))
        {
            return Err(LoginRefused::IdToken(
                "its nonce is not the one of this login",
            ));
        }
        // OpenID Connect Core 3.1.3.7: with several audiences, `azp` names this client; when
        // present, it must be this client in any case.
        let several = matches!(&claims.aud, Some(Audience::Many(all)) if all.len() > 1);
        match claims.azp.as_deref() {
            Some(azp) if azp != self.client_id => {
                return Err(LoginRefused::IdToken(
                    "it was issued to another client (azp)",
                ));
            }
            None if several => {
                return Err(LoginRefused::IdToken(
                    "it names several audiences and no azp",
                ));
            }
            _ => {}
        }
        let (Some(iss), Some(sub)) = (claims.iss, claims.sub) else {
            return Err(LoginRefused::IdToken("it lacks iss or sub"));
        };
        UserId::from_issuer_and_subject(&iss, &sub)
            .map_err(|_| LoginRefused::IdToken("its subject is empty"))
    }

    /// The issuer's RP-initiated logout endpoint, if it has one.
    pub fn end_session_endpoint(&self) -> Option<&str> {
        self.end_session_endpoint.as_deref()
    }

    /// The issuer identifier, as configured.
    pub fn issuer(&self) -> &str {
        &self.settings.issuer
    }

    /// The page client's id.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }
}

/// oauth2's HTTP client: the resource server's own reqwest client, with its size limit and no
/// redirects followed.
struct TokenHttp<'a>(&'a Fetch);

impl<'c> AsyncHttpClient<'c> for TokenHttp<'_> {
    type Error = FetchError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, FetchError>> + Send + 'c>>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(self.0.send(request))
    }
}

fn not_a_url(what: &'static str, value: &str, error: url::ParseError) -> VerifierSetupError {
    ConfigError::new(what, value, &format!("is not a URL ({error})")).into()
}

/// What the log and the page say of an ID token that does not verify.
fn problem(why: Unverified) -> &'static str {
    match why {
        Unverified::NotSigned => "it is not a signed JWT",
        Unverified::AlgorithmRefused => {
            "it is signed with an algorithm this server does not accept"
        }
        Unverified::UnknownKey => "it is signed with a key the issuer does not publish",
        Unverified::Claims(kind) => match kind {
            ErrorKind::ExpiredSignature => "it has expired",
            ErrorKind::ImmatureSignature => "it is not valid yet",
            ErrorKind::InvalidAudience => "it is not for this page's client",
            ErrorKind::InvalidIssuer => "it is not from this server's issuer",
            ErrorKind::InvalidSignature => "its signature does not verify",
            ErrorKind::InvalidAlgorithm => "its algorithm does not fit its key",
            ErrorKind::MissingRequiredClaim(_) => "it lacks a claim this server needs",
            _ => "it is not valid",
        },
    }
}

/// What went wrong at the token endpoint, without the code or any secret.
fn exchange_problem<E: std::error::Error>(
    error: RequestTokenError<E, BasicErrorResponse>,
) -> String {
    match error {
        RequestTokenError::ServerResponse(refusal) => {
            let mut text = format!("the authorization server answered {}", refusal.error());
            if let Some(description) = refusal.error_description() {
                text.push_str(&format!(" ({description})"));
            }
            text
        }
        RequestTokenError::Request(error) => error.to_string(),
        RequestTokenError::Parse(error, _) => {
            format!("the token answer is not the JSON expected ({error})")
        }
        RequestTokenError::Other(problem) => problem,
    }
}
