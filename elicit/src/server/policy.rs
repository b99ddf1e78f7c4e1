//! The checks a server runs on a URL before sending it in a URL-mode elicitation: the spec's
//! "Safe URL Handling" rules for servers, as far as a library can tell them from the URL.

use std::fmt;
use std::net::IpAddr;

use url::{Host, Url};

use crate::host;
use crate::wire::{ElicitRequestUrlParams, ElicitationId};

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
/// - looks pre-authenticated: a query or fragment parameter named like a credential (`token`,
///   `access_token`, `code`, `api_key`, `password`, `sig`, `X-Amz-Signature`, ...), or any part
///   that is a JSON Web Token;
/// - carries end-user data: an email address anywhere, or one of the strings passed to
///   [`check_for_user`](UrlPolicy::check_for_user) (the tracker passes the user's subject).
///
/// A library cannot prove a URL harmless (an opaque path segment may still be a magic-link
/// token), so the rules catch the common shapes and the rest stays the server author's duty.
///
/// ```
/// use elicit::server::{UnsafeUrl, UrlPolicy};
/// let production = UrlPolicy::production();
/// assert!(production.check("https://mcp.example.com/connect?elicitationId=42").is_ok());
/// assert!(matches!(production.check("http://mcp.example.com/connect"), Err(UnsafeUrl::NotHttps { .. })));
/// assert!(matches!(production.check("https://me:secret@example.com/"), Err(UnsafeUrl::Userinfo)));
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
pub enum UnsafeUrl {
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
        /// Where: `query` or `fragment`.
        part: &'static str,
        /// The parameter's name.
        name: String,
    },
    /// A part of the URL is a JSON Web Token, a bearer credential.
    BearerToken {
        /// Where: `path`, `query` or `fragment`.
        part: &'static str,
    },
    /// The URL carries end-user data: an email address, or one of the user's identifiers.
    UserData {
        /// Where: `path`, `query` or `fragment`.
        part: &'static str,
        /// What kind of data: `an email address` or `a user identifier`.
        what: &'static str,
    },
}

impl fmt::Display for UnsafeUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnsafeUrl::NotAbsolute { reason } => write!(f, "not an absolute URL: {reason}"),
            UnsafeUrl::NotHttps { scheme } => write!(
                f,
                "scheme `{scheme}` is not https; outside development only https URLs may be sent"
            ),
            UnsafeUrl::HttpOffLoopback { host } => write!(
                f,
                "http is allowed in development only on loopback hosts, not `{host}`"
            ),
            UnsafeUrl::NoHost => f.write_str("the URL has no host"),
            UnsafeUrl::Userinfo => f.write_str(
                "the URL carries userinfo (credentials before `@`), which must not be sent",
            ),
            UnsafeUrl::CredentialParameter { part, name } => write!(
                f,
                "{part} parameter `{name}` looks like a credential: a URL sent to the client must not be pre-authenticated"
            ),
            UnsafeUrl::BearerToken { part } => write!(
                f,
                "the {part} holds a JSON Web Token: a URL sent to the client must not be pre-authenticated"
            ),
            UnsafeUrl::UserData { part, what } => write!(
                f,
                "the {part} holds {what}: a URL sent to the client must not carry end-user data"
            ),
        }
    }
}

impl std::error::Error for UnsafeUrl {}

/// Parameter names that mean "this URL is a credential": compared after lowercasing and
/// dropping `-`, `_` and `.`, so `access_token`, `Access-Token` and `accessToken` all match.
const CREDENTIAL_NAMES: &[&str] = &[
    "assertion",
    "auth",
    "authorization",
    "code",
    "jwt",
    "key",
    "otp",
    "pass",
    "pwd",
    "sid",
    "sig",
    "ticket",
];

/// Name fragments that mean the same wherever they appear in a name (`id_token`,
/// `client_secret`, `X-Amz-Signature`, `X-Goog-Credential`, `sessionid`, ...).
const CREDENTIAL_FRAGMENTS: &[&str] = &[
    "apikey",
    "credential",
    "passcode",
    "passwd",
    "password",
    "secret",
    "sessid",
    "session",
    "signature",
    "token",
];

impl UrlPolicy {
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
    pub fn check(&self, url: &str) -> Result<CheckedUrl, UnsafeUrl> {
        self.check_for_user(url, &[])
    }

    /// Checks a URL against the policy and refuses it if any part of it (a path segment, a
    /// query or fragment parameter's name or value, after percent-decoding) equals one of
    /// `user_data` ignoring case, or contains one that is at least 6 characters long. Pass the
    /// user's subject, email, name: whatever identifies the user.
    pub fn check_for_user(&self, url: &str, user_data: &[&str]) -> Result<CheckedUrl, UnsafeUrl> {
        let parsed = Url::parse(url).map_err(|e| UnsafeUrl::NotAbsolute {
            reason: e.to_string(),
        })?;
        self.check_scheme_and_host(&parsed)?;
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(UnsafeUrl::Userinfo);
        }
        self.check_parameters(&parsed)?;
        check_parts(&parsed, user_data)?;
        Ok(CheckedUrl {
            notices: notices(&parsed),
            url: parsed,
        })
    }

    fn check_scheme_and_host(&self, url: &Url) -> Result<(), UnsafeUrl> {
        let development = self.environment == Environment::Development;
        match url.scheme() {
            "https" => url.host().map(drop).ok_or(UnsafeUrl::NoHost),
            "http" if development => match url.host() {
                Some(host) if host::is_loopback(&host) => Ok(()),
                Some(host) => Err(UnsafeUrl::HttpOffLoopback {
                    host: host.to_string(),
                }),
                None => Err(UnsafeUrl::NoHost),
            },
            scheme => Err(UnsafeUrl::NotHttps {
                scheme: scheme.to_owned(),
            }),
        }
    }

    fn check_parameters(&self, url: &Url) -> Result<(), UnsafeUrl> {
        for (part, name, _) in parameters(url) {
            let normalized = normalize_name(&name);
            if self.allowed_parameters.contains(&normalized) {
                continue;
            }
            if is_credential_name(&normalized) {
                return Err(UnsafeUrl::CredentialParameter { part, name });
            }
        }
        Ok(())
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

fn normalize_name(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_credential_name(normalized: &str) -> bool {
    CREDENTIAL_NAMES.contains(&normalized)
        || CREDENTIAL_FRAGMENTS
            .iter()
            .any(|fragment| normalized.contains(fragment))
}

/// Every `name=value` pair of the query and of the fragment (OAuth's implicit flow puts tokens
/// in the fragment), decoded.
fn parameters(url: &Url) -> Vec<(&'static str, String, String)> {
    let mut pairs: Vec<(&'static str, String, String)> = url
        .query_pairs()
        .map(|(name, value)| ("query", name.into_owned(), value.into_owned()))
        .collect();
    if let Some(fragment) = url.fragment() {
        pairs.extend(
            url::form_urlencoded::parse(fragment.as_bytes())
                .map(|(name, value)| ("fragment", name.into_owned(), value.into_owned())),
        );
    }
    pairs
}

/// Every decoded part of the URL that can carry data: path segments, parameter names and values.
fn data_parts(url: &Url) -> Vec<(&'static str, String)> {
    let mut parts: Vec<(&'static str, String)> = url
        .path_segments()
        .into_iter()
        .flatten()
        .map(|segment| ("path", percent_decode(segment)))
        .collect();
    for (part, name, value) in parameters(url) {
        parts.push((part, name));
        parts.push((part, value));
    }
    if let Some(fragment) = url.fragment() {
        parts.push(("fragment", percent_decode(fragment)));
    }
    parts
}

fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

fn check_parts(url: &Url, user_data: &[&str]) -> Result<(), UnsafeUrl> {
    for (part, text) in data_parts(url) {
        if is_jwt(&text) {
            return Err(UnsafeUrl::BearerToken { part });
        }
        if contains_email(&text) {
            return Err(UnsafeUrl::UserData {
                part,
                what: "an email address",
            });
        }
        if user_data.iter().any(|datum| mentions(&text, datum)) {
            return Err(UnsafeUrl::UserData {
                part,
                what: "a user identifier",
            });
        }
    }
    Ok(())
}

/// Equal ignoring case, or, for a datum long enough not to match by chance, contained.
fn mentions(text: &str, datum: &str) -> bool {
    let datum = datum.trim();
    if datum.is_empty() {
        return false;
    }
    let text = text.to_lowercase();
    let datum = datum.to_lowercase();
    text == datum || (datum.chars().count() >= 6 && text.contains(&datum))
}

/// Three base64url segments, the first an encoded JSON object (`eyJ` is `{"`).
fn is_jwt(text: &str) -> bool {
    let segments: Vec<&str> = text.split('.').collect();
    let base64url = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    (segments.len() == 3 || segments.len() == 5)
        && segments[0].starts_with("eyJ")
        && segments[..2].iter().all(|s| s.len() >= 4 && base64url(s))
        && segments.iter().all(|s| base64url(s))
}

fn contains_email(text: &str) -> bool {
    text.contains('@')
        && text
            .split(|c: char| {
                c.is_whitespace()
                    || matches!(c, ',' | ';' | '<' | '>' | '/' | '?' | '&' | '=' | '#')
            })
            .any(email_address::EmailAddress::is_valid)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_names() {
        for name in [
            "access_token",
            "id_token",
            "Access-Token",
            "accessToken",
            "client_secret",
            "X-Amz-Signature",
            "X-Goog-Credential",
            "code",
            "api_key",
            "apiKey",
            "password",
            "PHPSESSID",
            "sig",
        ] {
            assert!(is_credential_name(&normalize_name(name)), "{name}");
        }
        for name in [
            "elicitationId",
            "state",
            "redirect_uri",
            "lang",
            "keyboard",
            "codec",
        ] {
            assert!(!is_credential_name(&normalize_name(name)), "{name}");
        }
    }

    #[test]
    fn jwts() {
        assert!(is_jwt(
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        ));
        assert!(!is_jwt("550e8400-e29b-41d4-a716-446655440000"));
        assert!(!is_jwt("eyJ.a.b"));
        assert!(!is_jwt("www.example.com"));
    }

    #[test]
    fn emails() {
        assert!(contains_email("octocat@github.com"));
        assert!(contains_email("to=octocat@github.com"));
        assert!(!contains_email("@octocat"));
        assert!(!contains_email("no at sign"));
    }
}
