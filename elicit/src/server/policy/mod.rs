//! The checks a server runs on a URL before sending it in a URL-mode elicitation: the spec's
//! "Safe URL Handling" rules for servers, as far as a library can tell them from the URL.

use std::fmt;
use std::net::IpAddr;

use url::{Host, Url};

use crate::wire::host;
use crate::wire::{ElicitRequestUrlParams, ElicitationId};

mod scan;

use scan::{Scan, is_credential_name, normalize_name};

/// Where the server runs: https is required in production; development also allows http on
/// loopback hosts, so a connect page can be tried on `http://127.0.0.1:PORT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Environment {
    /// Only https URLs.
    #[default]
    Production,
    /// https URLs, and http URLs whose host is loopback (`127.0.0.0/8`, `[::1]`, `localhost`).
    Development,
}

/// The server's rules for elicitation URLs. [`UrlPolicy::check`] turns a URL that follows them
/// into a [`CheckedUrl`], the only thing a URL-mode request can be built from.
///
/// A URL is refused when it:
/// - does not parse as an absolute URL (WHATWG parsing, as the user's browser will do it);
/// - is not https, except http on a loopback host under [`Environment::Development`];
/// - carries userinfo (`https://user:pass@host/`);
/// - looks pre-authenticated: a parameter named like a credential (`token`, `access_token`,
///   `code`, `api_key`, `password`, `sig`, `X-Amz-Signature`, `jsessionid`, ...), or a JSON Web
///   Token anywhere, even after a prefix (`t-<jwt>`, `Bearer <jwt>`);
/// - carries end-user data: an email address anywhere, or one of the strings passed to
///   [`check_for_user`](UrlPolicy::check_for_user) (the tracker passes the user's subject and
///   whole id), in the host included.
///
/// "Parameter" means every `name=value` of the query and of the fragment, split at `&` and at
/// `;`, and every path parameter (`/go;jsessionid=ABC`). Values are percent-decoded and looked
/// into again, up to [`UrlPolicy::MAX_NESTING`] levels deep, so a URL nested in a parameter
/// (`?next=%2Fcb%3Faccess_token%3Dabc`) or encoded twice gets the same checks. The error says
/// what was found and where.
///
/// A library cannot prove a URL harmless (an opaque path segment may still be a magic-link
/// token), so the rules catch the common shapes and the rest stays the server author's duty.
///
/// ```
/// use elicit_mcp::server::{UnsafeUrlError, UrlPolicy};
/// let production = UrlPolicy::production();
/// assert!(production.check("https://mcp.example.com/connect?elicitationId=42").is_ok());
/// assert!(matches!(
///     production.check("http://mcp.example.com/connect"),
///     Err(UnsafeUrlError::NotHttps { .. })
/// ));
/// assert!(matches!(
///     production.check("https://me:secret@example.com/"),
///     Err(UnsafeUrlError::Userinfo)
/// ));
/// assert!(UrlPolicy::development().check("http://127.0.0.1:8080/connect").is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct UrlPolicy {
    environment: Environment,
    allowed_parameters: Vec<String>,
}

/// A URL that passed a [`UrlPolicy`], in its normalized (WHATWG-serialized) form: exactly what
/// the user's browser will open. Built only by [`UrlPolicy::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedUrl {
    url: Url,
    notices: Vec<UrlNotice>,
}

/// Something a checked URL has that a client will warn its user about. Not a reason to refuse
/// the URL, but worth knowing before sending it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlNotice {
    /// The host is an IP address: users cannot tell whose it is.
    IpAddressHost {
        /// The address.
        ip: IpAddr,
    },
    /// The host is an internationalized name (Punycode on the wire); clients warn about these
    /// because look-alike letters from other scripts hide in them.
    InternationalizedHost {
        /// The host as sent, in Punycode.
        ascii: String,
        /// The host as the user reads it.
        unicode: String,
    },
}

/// Why a URL must not be sent in a URL-mode elicitation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnsafeUrlError {
    /// It does not parse as an absolute URL.
    NotAbsolute {
        /// The parser's reason.
        reason: String,
    },
    /// Its scheme is not https (and not http on loopback in development).
    NotHttps {
        /// The scheme found.
        scheme: String,
    },
    /// It is http in development, but its host is not loopback.
    HttpOffLoopback {
        /// The host found.
        host: String,
    },
    /// It has no host.
    NoHost,
    /// It carries userinfo (`user:password@`): credentials in the URL, and a classic way to
    /// make a URL look like it points elsewhere.
    Userinfo,
    /// A parameter named like a credential: the URL would be pre-authenticated, and anyone who
    /// sees it (a malicious client, a log) could act as the user.
    CredentialParameter {
        /// Where the parameter is: `query`, `fragment`, `path`, or inside a decoded value, e.g.
        /// ``value of query parameter `next` ``.
        part: String,
        /// The parameter's name.
        name: String,
    },
    /// A part of the URL holds a JSON Web Token, a bearer credential.
    BearerToken {
        /// Where, e.g. ``path segment 2`` or ``value of query parameter `next` ``.
        part: String,
    },
    /// The URL carries end-user data: an email address, or one of the user's identifiers.
    UserData {
        /// Where, e.g. `host`, ``path segment 1`` or ``value of query parameter `user` ``.
        part: String,
        /// What kind of data: `an email address` or `a user identifier`.
        what: &'static str,
    },
}

impl fmt::Display for UnsafeUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnsafeUrlError::NotAbsolute { reason } => write!(f, "not an absolute URL: {reason}"),
            UnsafeUrlError::NotHttps { scheme } => write!(
                f,
                "scheme `{scheme}` is not https; outside development only https URLs may be sent"
            ),
            UnsafeUrlError::HttpOffLoopback { host } => write!(
                f,
                "http is allowed in development only on loopback hosts, not `{host}`"
            ),
            UnsafeUrlError::NoHost => f.write_str("the URL has no host"),
            UnsafeUrlError::Userinfo => f.write_str(
                "the URL carries userinfo (credentials before `@`), which must not be sent",
            ),
            UnsafeUrlError::CredentialParameter { part, name } => write!(
                f,
                "parameter `{name}` in the {part} looks like a credential: a URL sent to the client must not be pre-authenticated"
            ),
            UnsafeUrlError::BearerToken { part } => write!(
                f,
                "the {part} holds a JSON Web Token: a URL sent to the client must not be pre-authenticated"
            ),
            UnsafeUrlError::UserData { part, what } => write!(
                f,
                "the {part} holds {what}: a URL sent to the client must not carry end-user data"
            ),
        }
    }
}

impl std::error::Error for UnsafeUrlError {}

impl UrlPolicy {
    /// How many times a value is percent-decoded and looked into again for nested parameters,
    /// JSON Web Tokens and user data: enough for a URL in a parameter of a URL in a parameter,
    /// each encoded twice, and a bound on the work a hostile URL can cause.
    pub const MAX_NESTING: usize = 4;

    /// The production policy: https only.
    pub fn production() -> Self {
        UrlPolicy::default()
    }

    /// The development policy: https, and http on loopback hosts.
    pub fn development() -> Self {
        UrlPolicy::production().with_environment(Environment::Development)
    }

    /// The same policy in another environment.
    pub fn with_environment(mut self, environment: Environment) -> Self {
        self.environment = environment;
        self
    }

    /// The environment.
    pub fn environment(&self) -> Environment {
        self.environment
    }

    /// Lets a parameter whose name looks like a credential through, for a name you know is
    /// not one in your URLs (a `key` that names a setting, say). Compared as the name checks
    /// are: case-insensitive, ignoring `-`, `_` and `.`.
    pub fn allow_parameter(mut self, name: &str) -> Self {
        self.allowed_parameters.push(normalize_name(name));
        self
    }

    /// Checks a URL against the policy.
    pub fn check(&self, url: &str) -> Result<CheckedUrl, UnsafeUrlError> {
        self.check_for_user(url, &[])
    }

    /// Checks a URL against the policy and refuses it if any part of it (the host, a path
    /// segment, a parameter's name or value, after percent-decoding, nested values included)
    /// equals one of `user_data` ignoring case, or contains one that is at least 6 characters
    /// long; the whole decoded URL is searched too. Pass the user's subject, email, name:
    /// whatever identifies the user.
    pub fn check_for_user(
        &self,
        url: &str,
        user_data: &[&str],
    ) -> Result<CheckedUrl, UnsafeUrlError> {
        let parsed = Url::parse(url).map_err(|e| UnsafeUrlError::NotAbsolute {
            reason: e.to_string(),
        })?;
        self.check_scheme_and_host(&parsed)?;
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(UnsafeUrlError::Userinfo);
        }
        Scan {
            policy: self,
            user_data,
        }
        .url(&parsed)?;
        Ok(CheckedUrl {
            notices: notices(&parsed),
            url: parsed,
        })
    }

    fn check_scheme_and_host(&self, url: &Url) -> Result<(), UnsafeUrlError> {
        let development = self.environment == Environment::Development;
        match url.scheme() {
            "https" => url.host().map(drop).ok_or(UnsafeUrlError::NoHost),
            "http" if development => match url.host() {
                Some(host) if host::is_loopback(&host) => Ok(()),
                Some(host) => Err(UnsafeUrlError::HttpOffLoopback {
                    host: host.to_string(),
                }),
                None => Err(UnsafeUrlError::NoHost),
            },
            scheme => Err(UnsafeUrlError::NotHttps {
                scheme: scheme.to_owned(),
            }),
        }
    }

    fn is_credential_parameter(&self, name: &str) -> bool {
        let normalized = normalize_name(name);
        !self.allowed_parameters.contains(&normalized) && is_credential_name(&normalized)
    }
}

impl CheckedUrl {
    /// The URL as it will be sent.
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// The parsed URL.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// What a client will warn its user about.
    pub fn notices(&self) -> &[UrlNotice] {
        &self.notices
    }

    /// The params of a URL-mode `elicitation/create` sending the user to this URL under `id`.
    /// The usual way to get them is
    /// [`ElicitationTracker::start`](crate::server::ElicitationTracker::start), which also binds
    /// the elicitation to its user.
    pub fn into_params(
        self,
        message: impl Into<String>,
        id: ElicitationId,
    ) -> ElicitRequestUrlParams {
        ElicitRequestUrlParams::from_parts(message.into(), self.url.into(), id, None)
    }
}

impl fmt::Display for CheckedUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn notices(url: &Url) -> Vec<UrlNotice> {
    match url.host() {
        Some(Host::Ipv4(ip)) => vec![UrlNotice::IpAddressHost { ip: IpAddr::V4(ip) }],
        Some(Host::Ipv6(ip)) => vec![UrlNotice::IpAddressHost { ip: IpAddr::V6(ip) }],
        Some(Host::Domain(name)) if host::has_punycode(name) => {
            vec![UrlNotice::InternationalizedHost {
                ascii: name.to_owned(),
                unicode: host::to_unicode(name).0,
            }]
        }
        _ => Vec::new(),
    }
}
