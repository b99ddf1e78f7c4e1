//! The one configuration of a protected resource: who issues its tokens, its own URL, the scopes
//! it needs, and how strictly tokens are read. The verifiers and the metadata route are built
//! from it.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::{Algorithm, AlgorithmFamily};

use super::challenge::Challenges;
use super::fetch::Fetch;
use crate::server::unreachable;

/// The MCP server as an OAuth resource server, said once: the authorization server's issuer,
/// the server's own canonical URL (the resource, RFC 8707: what every token must be issued
/// for), and the scopes a token must carry. From it come the verifiers of access tokens
/// ([`jwt`](Self::jwt), [`introspection`](Self::introspection)) and the protected-resource
/// metadata that tells clients where to get them ([`metadata_router`](Self::metadata_router)).
///
/// ```
/// use elicit_mcp::oauth::ProtectedResource;
///
/// let issuer = "https://auth.example.com";
/// let resource = ProtectedResource::new(issuer, "https://mcp.example.com/mcp")?
///     .with_scopes(["bookings"])?;
/// assert_eq!(
///     resource.metadata_url(),
///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// # Ok::<(), elicit_mcp::oauth::ConfigError>(())
/// ```
#[derive(Clone)]
pub struct ProtectedResource {
    pub(crate) settings: Arc<Settings>,
}

/// What the verifiers and the metadata route share.
#[derive(Clone)]
pub(crate) struct Settings {
    /// The issuer identifier exactly as configured: compared byte for byte with the issuer of
    /// the metadata document and the `iss` of every token.
    pub issuer: String,
    /// The server's canonical URL, exactly as tokens name it in `aud`.
    pub resource: String,
    /// The resource's origin, `scheme://host[:port]`.
    pub origin: String,
    /// Where the protected-resource metadata is, named in every challenge.
    pub metadata_url: String,
    /// The path the metadata is served at besides the root form, for a resource with a path.
    pub metadata_path: Option<String>,
    pub scopes: Vec<String>,
    pub algorithms: Vec<Algorithm>,
    pub leeway: Duration,
    pub key_refetch_interval: Duration,
    pub key_max_age: Duration,
    pub fetch: Fetch,
    pub challenges: Challenges,
}

/// The algorithms accepted unless [`ProtectedResource::with_algorithms`] says otherwise: every
/// asymmetric one jsonwebtoken verifies.
const DEFAULT_ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

impl ProtectedResource {
    /// How far `exp` and `nbf` may be off unless set otherwise: the clocks of two servers.
    pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);

    /// The least time between two fetches of the issuer's keys unless set otherwise: a token
    /// naming a key the server does not hold fetches them again at most this often, so a
    /// flood of made-up `kid`s costs the authorization server one request per interval.
    pub const DEFAULT_KEY_REFETCH_INTERVAL: Duration = Duration::from_secs(30);

    /// How long fetched keys are used before they are fetched again unless set otherwise, so
    /// that a key the issuer withdrew stops being accepted.
    pub const DEFAULT_KEY_MAX_AGE: Duration = Duration::from_secs(60 * 60);

    /// How long a request to the authorization server may take.
    pub const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

    /// The resource `resource` (the server's public URL, its MCP endpoint: tokens are issued
    /// for it, RFC 8707) protected by the authorization server whose issuer identifier is
    /// `issuer`. Both must be `https` URLs, or `http` on a loopback host (for development and
    /// tests), without a fragment; the resource without a query either. The resource is
    /// written as the MCP specification's canonical form: scheme and host in lower case, no
    /// trailing slash on an empty path.
    pub fn new(issuer: &str, resource: &str) -> Result<Self, ConfigError> {
        install_crypto();
        let issuer_url = secure_url("issuer", issuer)?;
        if issuer_url.query().is_some() {
            return Err(ConfigError::new(
                "issuer",
                issuer,
                "has a query; an issuer has none",
            ));
        }
        let resource_url = secure_url("resource", resource)?;
        if resource_url.query().is_some() {
            return Err(ConfigError::new(
                "resource",
                resource,
                "has a query; give the server's canonical URL without one",
            ));
        }
        let resource = canonical(&resource_url);
        let (metadata_url, metadata_path) = metadata_location(&resource_url);
        let settings = Settings {
            issuer: issuer.to_owned(),
            challenges: Challenges::new(&metadata_url, &[]),
            resource,
            origin: resource_url.origin().ascii_serialization(),
            metadata_url,
            metadata_path,
            scopes: Vec::new(),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: Self::DEFAULT_LEEWAY,
            key_refetch_interval: Self::DEFAULT_KEY_REFETCH_INTERVAL,
            key_max_age: Self::DEFAULT_KEY_MAX_AGE,
            fetch: Fetch::new(Self::FETCH_TIMEOUT)
                .map_err(|error| ConfigError::new("HTTP client", "", &error.to_string()))?,
        };
        Ok(ProtectedResource {
            settings: Arc::new(settings),
        })
    }

    /// The scopes every token must carry, all of them (a token without one is refused 403
    /// `insufficient_scope`, naming them); they are also the metadata's `scopes_supported` and
    /// the `scope` of every challenge. None by default. A scope is a non-empty string of
    /// printable ASCII without space, `"` or `\` (RFC 6749 section 3.3).
    pub fn with_scopes(
        mut self,
        scopes: impl IntoIterator<Item = impl Into<String>>,
    ) -> Result<Self, ConfigError> {
        let scopes: Vec<String> = scopes.into_iter().map(Into::into).collect();
        for scope in &scopes {
            let printable =
                |c: char| c == '!' || ('#'..='[').contains(&c) || (']'..='~').contains(&c);
            if scope.is_empty() || !scope.chars().all(printable) {
                return Err(ConfigError::new(
                    "scope",
                    scope,
                    "is not a scope token: printable ASCII without space, '\"' or '\\'",
                ));
            }
        }
        let settings = self.settings_mut();
        settings.challenges = Challenges::new(&settings.metadata_url, &scopes);
        settings.scopes = scopes;
        Ok(self)
    }

    /// The signature algorithms a JWT may be signed with, by their JOSE names (`RS256`, `PS256`,
    /// `ES256`, `EdDSA`, ...); by default every asymmetric one. An HMAC algorithm (`HS256`) is
    /// refused: its key is a shared secret, which a resource server cannot hold, and a
    /// verifier that took one would take a token signed with the issuer's public key as its
    /// secret. `none` is no algorithm.
    pub fn with_algorithms(mut self, names: &[&str]) -> Result<Self, ConfigError> {
        if names.is_empty() {
            return Err(ConfigError::new(
                "algorithms",
                "",
                "are empty; give at least one",
            ));
        }
        let mut algorithms = Vec::with_capacity(names.len());
        for name in names {
            let algorithm: Algorithm = name.parse().map_err(|_| {
                ConfigError::new("algorithm", name, "is not a JOSE signature algorithm")
            })?;
            if algorithm.family() == AlgorithmFamily::Hmac {
                return Err(ConfigError::new(
                    "algorithm",
                    name,
                    "is an HMAC algorithm, whose key is a shared secret; give an asymmetric one",
                ));
            }
            algorithms.push(algorithm);
        }
        self.settings_mut().algorithms = algorithms;
        Ok(self)
    }

    /// How far a token's `exp` and `nbf` may be off the server's clock (30 s by default).
    pub fn with_leeway(mut self, leeway: Duration) -> Self {
        self.settings_mut().leeway = leeway;
        self
    }

    /// The least time between two fetches of the issuer's keys (30 s by default): a token
    /// naming an unknown key fetches them again only when the last fetch is older than this.
    pub fn with_key_refetch_interval(mut self, interval: Duration) -> Self {
        self.settings_mut().key_refetch_interval = interval;
        self
    }

    /// How long fetched keys are used before they are fetched again (an hour by default).
    pub fn with_key_max_age(mut self, age: Duration) -> Self {
        self.settings_mut().key_max_age = age;
        self
    }

    /// The issuer identifier, as configured.
    pub fn issuer(&self) -> &str {
        &self.settings.issuer
    }

    /// The resource: the server's canonical URL, which tokens must name in `aud`.
    pub fn resource(&self) -> &str {
        &self.settings.resource
    }

    /// The resource's origin, `scheme://host[:port]` (the port only when it is not the
    /// scheme's own): where the server's other pages are when they share the MCP endpoint's
    /// origin, as a server's secure page and its login do unless served apart. The resource's
    /// public URL is all a server behind a proxy, or on a port picked when it binds, needs to
    /// say where they are:
    ///
    /// ```
    /// use elicit_mcp::oauth::ProtectedResource;
    /// use elicit_mcp::server::SecureForms;
    ///
    /// let issuer = "https://auth.example.com";
    /// let resource = ProtectedResource::new(issuer, "https://mcp.example.com:8443/mcp")?;
    /// assert_eq!(resource.public_origin(), "https://mcp.example.com:8443");
    /// let forms = SecureForms::new(format!("{}/secure", resource.public_origin()))?;
    /// assert_eq!(forms.page_url(), "https://mcp.example.com:8443/secure");
    /// // And the login: `OidcLogin::discover(&resource, resource.public_origin(), ..)`.
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn public_origin(&self) -> &str {
        &self.settings.origin
    }

    /// The scopes a token must carry.
    pub fn scopes(&self) -> &[String] {
        &self.settings.scopes
    }

    /// Where the protected-resource metadata is (RFC 9728 section 3.1: the well-known path
    /// inserted before the resource's path), as every 401 names it in `resource_metadata`.
    pub fn metadata_url(&self) -> &str {
        &self.settings.metadata_url
    }

    fn settings_mut(&mut self) -> &mut Settings {
        // A clone configured apart from the value it was cloned from gets settings of its own.
        Arc::make_mut(&mut self.settings)
    }
}

impl fmt::Debug for ProtectedResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let settings = &self.settings;
        f.debug_struct("ProtectedResource")
            .field("issuer", &settings.issuer)
            .field("resource", &settings.resource)
            .field("scopes", &settings.scopes)
            .field("algorithms", &settings.algorithms)
            .field("leeway", &settings.leeway)
            .finish_non_exhaustive()
    }
}

/// jsonwebtoken verifies through the process's crypto provider, chosen by its features; a
/// build that turns on its `aws_lc_rs` as well leaves it to the program, which RustCrypto's
/// then is, unless the program installed one.
fn install_crypto() {
    use jsonwebtoken::crypto::CryptoProvider;
    if CryptoProvider::try_get_default().is_none() {
        // Another thread may install one at the same time: either is a provider.
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
    }
}

/// `value` as a URL that may carry credentials: `https`, or `http` on a loopback host.
pub(crate) fn secure_url(what: &'static str, value: &str) -> Result<url::Url, ConfigError> {
    let url = url::Url::parse(value)
        .map_err(|error| ConfigError::new(what, value, &format!("is not a URL ({error})")))?;
    if url.fragment().is_some() {
        return Err(ConfigError::new(what, value, "has a fragment"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ConfigError::new(what, value, "has credentials in it"));
    }
    if let Some(problem) = unreachable(&url) {
        return Err(ConfigError::new(what, value, problem));
    }
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        _ => Err(ConfigError::new(
            what,
            value,
            "is neither https nor http on a loopback host",
        )),
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(address)) => address.is_loopback(),
        Some(url::Host::Ipv6(address)) => address.is_loopback(),
        Some(url::Host::Domain(name)) => name == "localhost",
        None => false,
    }
}

/// The URL as the MCP specification writes a canonical server URI: without the trailing slash
/// of an empty path (the url crate writes one).
fn canonical(url: &url::Url) -> String {
    let text = url.as_str();
    if url.path() == "/" {
        text.strip_suffix('/').unwrap_or(text).to_owned()
    } else {
        text.to_owned()
    }
}

/// The root form of the protected-resource metadata's well-known path (RFC 9728 section 3).
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// Where the metadata of `resource` is (RFC 9728 section 3.1, the well-known path inserted
/// between the host and the resource's path), and that path when it is not the root form.
pub(crate) fn metadata_location(resource: &url::Url) -> (String, Option<String>) {
    let origin = resource.origin().ascii_serialization();
    let path = resource.path().trim_end_matches('/');
    if path.is_empty() {
        (format!("{origin}{WELL_KNOWN}"), None)
    } else {
        let suffixed = format!("{WELL_KNOWN}{path}");
        (format!("{origin}{suffixed}"), Some(suffixed))
    }
}

/// A configuration that cannot protect anything: which setting, its value, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    setting: &'static str,
    value: String,
    problem: String,
}

impl ConfigError {
    pub(crate) fn new(setting: &'static str, value: &str, problem: &str) -> Self {
        ConfigError {
            setting,
            value: value.to_owned(),
            problem: problem.to_owned(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "the {} {}", self.setting, self.problem)
        } else {
            write!(f, "the {} {:?} {}", self.setting, self.value, self.problem)
        }
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_that_could_leak_tokens_are_refused_with_what_is_wrong() {
        for (issuer, problem) in [
            (
                "http://auth.example.com",
                "neither https nor http on a loopback host",
            ),
            ("not a url", "is not a URL"),
            ("https://auth.example.com#x", "has a fragment"),
            ("https://a:b@auth.example.com", "has credentials"),
            ("https://auth.example.com?x=1", "has a query"),
            ("http://127.0.0.1:0", "has port 0"),
        ] {
            let error = ProtectedResource::new(issuer, "https://mcp.example.com/mcp").unwrap_err();
            assert!(error.to_string().contains(problem), "{issuer}: {error}");
        }
        assert!(ProtectedResource::new("http://127.0.0.1:9", "http://[::1]:8/mcp").is_ok());
        assert!(ProtectedResource::new("http://localhost:9", "http://localhost/mcp").is_ok());
    }

    #[test]
    fn a_resource_no_client_can_reach_is_refused_with_what_to_give_instead() {
        for (resource, problem) in [
            (
                "http://127.0.0.1:0/mcp",
                "has port 0, which no one can connect to: bind",
            ),
            ("http://0.0.0.0:8000/mcp", "names the unspecified address"),
            ("https://[::]/mcp", "names the unspecified address"),
        ] {
            let error = ProtectedResource::new("https://auth.example.com", resource)
                .unwrap_err()
                .to_string();
            assert!(
                error.starts_with(&format!("the resource {resource:?} {problem}")),
                "{resource}: {error}"
            );
        }
    }

    #[test]
    fn the_public_origin_is_the_resources_scheme_host_and_port() {
        let origin = |resource: &str| {
            ProtectedResource::new("https://auth.example.com", resource)
                .unwrap()
                .public_origin()
                .to_owned()
        };
        assert_eq!(
            origin("HTTPS://MCP.Example.com/mcp"),
            "https://mcp.example.com"
        );
        assert_eq!(
            origin("https://mcp.example.com:443/a/mcp"),
            "https://mcp.example.com"
        );
        assert_eq!(
            origin("http://127.0.0.1:49152/mcp"),
            "http://127.0.0.1:49152"
        );
        assert_eq!(origin("http://[::1]:8000"), "http://[::1]:8000");
    }

    #[test]
    fn the_resource_is_written_in_canonical_form() {
        let resource =
            ProtectedResource::new("https://auth.example.com", "HTTPS://MCP.Example.com/").unwrap();
        assert_eq!(resource.resource(), "https://mcp.example.com");
        assert_eq!(
            resource.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        let resource =
            ProtectedResource::new("https://auth.example.com", "https://mcp.example.com/mcp")
                .unwrap();
        assert_eq!(resource.resource(), "https://mcp.example.com/mcp");
    }

    #[test]
    fn hmac_none_and_unknown_algorithms_are_refused() {
        let resource = || ProtectedResource::new("https://a.example", "https://m.example").unwrap();
        for name in ["HS256", "HS512", "none", "RS1", ""] {
            assert!(resource().with_algorithms(&[name]).is_err(), "{name}");
        }
        assert!(resource().with_algorithms(&[]).is_err());
        assert!(resource().with_algorithms(&["ES256", "EdDSA"]).is_ok());
    }

    #[test]
    fn scopes_that_would_break_the_challenge_are_refused() {
        let resource = || ProtectedResource::new("https://a.example", "https://m.example").unwrap();
        for scope in ["", "a b", "a\"b", "a\\b", "é"] {
            assert!(resource().with_scopes([scope]).is_err(), "{scope:?}");
        }
        assert!(resource().with_scopes(["files:read", "mcp"]).is_ok());
    }

    #[test]
    fn the_metadata_of_a_resource_with_a_path_is_at_the_path_inserted_form() {
        let at = |resource: &str| metadata_location(&url::Url::parse(resource).unwrap());
        assert_eq!(
            at("https://example.com/public/mcp"),
            (
                "https://example.com/.well-known/oauth-protected-resource/public/mcp".to_owned(),
                Some("/.well-known/oauth-protected-resource/public/mcp".to_owned())
            )
        );
        assert_eq!(
            at("http://127.0.0.1:8080/"),
            (
                "http://127.0.0.1:8080/.well-known/oauth-protected-resource".to_owned(),
                None
            )
        );
    }
}
