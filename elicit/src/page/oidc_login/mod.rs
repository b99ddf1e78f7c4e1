//! The page's login through the MCP server's own authorization server (features `page` and
//! `oauth`): OpenID Connect's authorization code flow, with the session held server-side.

mod cookies;
mod records;
#[cfg(feature = "redis")]
mod redis;
mod routes;
mod sessions;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::request::Parts;
use axum::routing::get;

use self::cookies::CookieRule;
use self::sessions::{MemorySessions, Sessions};
use super::users::PageUsers;
use crate::oauth::openid_client::OpenIdClient;
use crate::oauth::{ConfigError, ProtectedResource, VerifierSetupError};
use crate::server::{UserId, unreachable};

/// Where the login starts: `GET /login?return_to=PATH`.
const LOGIN_PATH: &str = "/login";
/// Where the authorization server sends the browser back.
const CALLBACK_PATH: &str = "/login/callback";
/// Where a browser signs out: `POST` with the sign-out form's token.
const LOGOUT_PATH: &str = "/logout";

/// The page's login through the authorization server of a [`ProtectedResource`]: the browser's
/// user proven the way MCP requests' users are, by the same issuer, so that the page shows an
/// elicitation only to the user of the MCP request that made it.
///
/// It is OpenID Connect's authorization code flow, as a confidential client of that issuer:
///
/// - `GET /login?return_to=PATH`: starts a login and answers 303 to the issuer's
///   authorization endpoint, with PKCE (S256), a random `state` and `nonce`. The `state`, the
///   PKCE verifier, the nonce and the return path are held by the server (never by the
///   browser), bound to a cookie of the browser that started the login, taken once, for 10
///   minutes ([`with_login_life`](Self::with_login_life)). The return path is followed only
///   when [`safe_return_path`](super::safe_return_path) takes it (a path on this server); else
///   the browser comes back to `/login`. A signed-in browser without `return_to` is shown who
///   it is signed in as, and a sign-out button;
/// - `GET /login/callback`: takes the held login of `state` (unknown, used or expired: 400;
///   from another browser: 403; the issuer's `error`, `access_denied` among them: 403 with the
///   error), exchanges the code (with the verifier, HTTP Basic client authentication), verifies
///   the ID token (its signature with the issuer's keys, `iss`, `aud` this client, `azp`,
///   `exp` and `nbf` within the resource's leeway, `nonce` the login's; a failure: 502 and the
///   reason in the log), opens a session and answers 303 to the return path;
/// - `POST /logout` (`_csrf`, the token of the sign-out button `/login` shows): ends the
///   session on the server and removes the cookie (without the token: 403); with
///   [`with_issuer_logout`](Self::with_issuer_logout), sends the browser on to the issuer's
///   own sign-out.
///
/// The session's cookie, `__Host-elicit-session`, is `Secure; HttpOnly; SameSite=Lax; Path=/`
/// with a `Max-Age` (8 hours, [`with_session_life`](Self::with_session_life)); its value is a
/// random id, the session is held server-side (in memory, or in Redis with `in_redis`,
/// feature `redis`). Over http on a loopback address alone (development), the
/// cookies are written without `Secure` and named without `__Host-` (`elicit-session`), which
/// a browser would not keep otherwise; http anywhere else is refused at setup.
///
/// The user is the ID token's issuer and `sub` ([`UserId::from_issuer_and_subject`]), as
/// [`JwtAccessTokens`](crate::oauth::JwtAccessTokens) makes the MCP request's user. Merge
/// [`router`](Self::router) into the server's router, and give the login to the page as its
/// [`PageUsers`], with [`LOGIN_URL`](Self::LOGIN_URL) as its login URL:
///
/// ```no_run
/// # use std::sync::Arc;
/// # use elicit_mcp::rmcp::Elicitation;
/// # use elicit_mcp::server::{ElicitationTracker, MemoryStore, SecureForms};
/// # async fn run(
/// #     forms: SecureForms,
/// #     tracker: Arc<ElicitationTracker<MemoryStore>>,
/// #     elicitation: Elicitation,
/// # ) -> Result<(), Box<dyn std::error::Error>> {
/// use elicit_mcp::oauth::ProtectedResource;
/// use elicit_mcp::page::{OidcLogin, SecurePage};
///
/// let issuer = "https://auth.example.com";
/// let resource = ProtectedResource::new(issuer, "https://mcp.example.com/mcp")?;
/// // The page at the MCP endpoint's origin: https://mcp.example.com/login/callback.
/// let origin = resource.public_origin();
/// let login = OidcLogin::discover(&resource, origin, "page", "secret").await?;
/// let page = SecurePage::new(forms, tracker, elicitation, login.clone())
///     .with_login_url(OidcLogin::LOGIN_URL);
/// let app = axum::Router::new().merge(login.router()).merge(page.router());
/// # let _ = app;
/// # Ok(()) }
/// ```
///
/// The client must be registered at the issuer with the redirect URI
/// `PUBLIC_URL/login/callback`, the scope `openid`, and `client_secret_basic`.
#[derive(Clone)]
pub struct OidcLogin {
    inner: Arc<Login>,
}

struct Login {
    client: Arc<OpenIdClient>,
    cookies: CookieRule,
    sessions: Sessions,
    login_life: Duration,
    session_life: Duration,
    issuer_logout: bool,
}

impl fmt::Debug for OidcLogin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never a secret, a session or a login's state.
        f.debug_struct("OidcLogin")
            .field("issuer", &self.inner.client.issuer())
            .field("client_id", &self.inner.client.client_id())
            .field("cookies", &self.inner.cookies)
            .finish_non_exhaustive()
    }
}

impl OidcLogin {
    /// The address to give [`SecurePage::with_login_url`](super::SecurePage::with_login_url).
    pub const LOGIN_URL: &'static str = LOGIN_PATH;

    /// How long a login may take, from its start to the callback, unless set otherwise.
    pub const DEFAULT_LOGIN_LIFE: Duration = Duration::from_secs(10 * 60);

    /// How long a session lasts unless set otherwise.
    pub const DEFAULT_SESSION_LIFE: Duration = Duration::from_secs(8 * 60 * 60);

    /// The login of the page served at `public_url` (its origin: `https://host[:port]`, or
    /// `http` on a loopback address for development; at the MCP endpoint's own origin,
    /// [`resource.public_origin()`](ProtectedResource::public_origin)), by the client
    /// `client_id` and `client_secret` of `resource`'s issuer, called back at
    /// `PUBLIC_URL/login/callback`. The issuer's metadata is found and its keys fetched now,
    /// as for [`ProtectedResource::jwt`], so that a login that cannot work fails when the
    /// server starts, saying why. Sessions are held in memory.
    pub async fn discover(
        resource: &ProtectedResource,
        public_url: &str,
        client_id: &str,
        client_secret: &str,
    ) -> Result<Self, VerifierSetupError> {
        let (origin, cookies) = page_origin(public_url)?;
        let redirect_uri = format!("{origin}{CALLBACK_PATH}");
        let client =
            OpenIdClient::discover(resource, client_id, client_secret, &redirect_uri).await?;
        let client = Arc::new(client);
        Ok(OidcLogin {
            inner: Arc::new(Login {
                client,
                cookies,
                sessions: Sessions::Memory(Arc::new(MemorySessions::default())),
                login_life: Self::DEFAULT_LOGIN_LIFE,
                session_life: Self::DEFAULT_SESSION_LIFE,
                issuer_logout: false,
            }),
        })
    }

    /// How long a login may take from its start to the callback (10 minutes by default).
    pub fn with_login_life(self, life: Duration) -> Self {
        self.configured(|login| login.login_life = life)
    }

    /// How long a session lasts (8 hours by default): its cookie's `Max-Age`, and how long the
    /// server holds it.
    pub fn with_session_life(self, life: Duration) -> Self {
        self.configured(|login| login.session_life = life)
    }

    /// The same login with its logins under way and its sessions held in `store`, sealed with
    /// `keys` (the same on every replica): a login started on one replica is finished by the
    /// callback on another, and its session is known to all. Each record expires with its
    /// Redis time to live.
    #[cfg(feature = "redis")]
    pub fn in_redis(
        self,
        store: &crate::server::RedisStore,
        keys: crate::server::AtRestKeys,
    ) -> Self {
        let sessions = Sessions::Redis(Arc::new(redis::RedisSessions::new(store, keys)));
        self.configured(|login| login.sessions = sessions)
    }

    /// Sends a browser that signs out on to the issuer's `end_session_endpoint` (OpenID Connect
    /// RP-Initiated Logout, with this client's `client_id`), when its metadata names one, so
    /// that it is signed out there too; without it (the default), the sign-out ends the page's
    /// session alone, and the next login may pass the issuer without a prompt.
    pub fn with_issuer_logout(self) -> Self {
        self.configured(|login| login.issuer_logout = true)
    }

    /// `GET /login`, `GET /login/callback` and `POST /logout`: merge them into the server's
    /// router, at the root of the page's origin.
    pub fn router(&self) -> Router {
        Router::new()
            .route(LOGIN_PATH, get(routes::start))
            .route(CALLBACK_PATH, get(routes::callback))
            .route(LOGOUT_PATH, axum::routing::post(routes::sign_out))
            .with_state(self.clone())
    }

    /// Changes a setting; meant for setup, before the login is cloned into the router.
    fn configured(self, change: impl FnOnce(&mut Login)) -> Self {
        match Arc::try_unwrap(self.inner) {
            Ok(mut login) => {
                change(&mut login);
                OidcLogin {
                    inner: Arc::new(login),
                }
            }
            // Cloned already: the clones keep the settings they were made with.
            Err(shared) => {
                let mut login = Login {
                    client: shared.client.clone(),
                    cookies: shared.cookies,
                    sessions: shared.sessions.clone(),
                    login_life: shared.login_life,
                    session_life: shared.session_life,
                    issuer_logout: shared.issuer_logout,
                };
                change(&mut login);
                OidcLogin {
                    inner: Arc::new(login),
                }
            }
        }
    }

    /// The session of the request's browser, with its id.
    async fn session_of(&self, request: &Parts) -> Option<(String, records::Session)> {
        let id = self.inner.cookies.session_of(request)?;
        match self.inner.sessions.session(&id).await {
            Ok(session) => session.map(|session| (id, session)),
            Err(error) => {
                tracing::warn!("elicit_mcp's page login could not read a session: {error}");
                None
            }
        }
    }
}

impl PageUsers for OidcLogin {
    async fn user(&self, request: &Parts) -> Option<UserId> {
        let (_, session) = self.session_of(request).await?;
        UserId::from_issuer_and_subject(&session.issuer, &session.subject).ok()
    }
}

/// The origin of the page's public URL, and how its cookies are written.
fn page_origin(public_url: &str) -> Result<(String, CookieRule), ConfigError> {
    let url = url::Url::parse(public_url).map_err(|error| {
        ConfigError::new("page URL", public_url, &format!("is not a URL ({error})"))
    })?;
    if let Some(problem) = unreachable(&url) {
        return Err(ConfigError::new("page URL", public_url, problem));
    }
    let cookies = CookieRule::for_public_url(&url)?;
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return Err(ConfigError::new(
            "page URL",
            public_url,
            "has a path, query or fragment: give the origin the page is served at (the login \
             is at /login and its cookie at Path=/), such as the resource's own, \
             `ProtectedResource::public_origin`",
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ConfigError::new(
            "page URL",
            public_url,
            "has credentials in it",
        ));
    }
    Ok((url.origin().ascii_serialization(), cookies))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_url_is_an_origin_served_over_https_or_on_loopback() {
        assert_eq!(
            page_origin("https://MCP.example.com/").unwrap(),
            ("https://mcp.example.com".to_owned(), CookieRule::Secure)
        );
        assert_eq!(
            page_origin("http://127.0.0.1:8080").unwrap(),
            (
                "http://127.0.0.1:8080".to_owned(),
                CookieRule::LoopbackDevelopment
            )
        );
        for (url, problem) in [
            ("http://mcp.example.com", "not loopback"),
            ("https://mcp.example.com/mcp", "has a path"),
            ("https://mcp.example.com/?a=1", "has a path, query"),
            ("https://a:b@mcp.example.com", "credentials"),
            ("mcp.example.com", "is not a URL"),
            ("http://127.0.0.1:0", "has port 0"),
            ("http://0.0.0.0:8080", "names the unspecified address"),
        ] {
            let error = page_origin(url).unwrap_err().to_string();
            assert!(error.contains(problem), "{url}: {error}");
        }
    }
}
