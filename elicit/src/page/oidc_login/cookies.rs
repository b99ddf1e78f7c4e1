//! The login's two cookies, the session's and the pending login's, and the one rule that may
//! relax them: `__Host-` and `Secure` always, but for a page served over http on loopback (a
//! development machine), where a browser would not keep a `Secure` cookie.

use std::net::IpAddr;
use std::time::Duration;

use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::Response;

use crate::oauth::ConfigError;
use crate::page::cookie;

/// The session cookie's name over https: `__Host-` makes a browser take it only when it is
/// `Secure`, with `Path=/` and no `Domain`, so that no other host (a sibling subdomain) can
/// set or shadow it.
const SESSION_SECURE: &str = "__Host-elicit-session";
/// The session cookie's name over http on loopback, where `__Host-` cannot be had.
const SESSION_LOOPBACK: &str = "elicit-session";
/// The cookie that binds a login under way to the browser that started it.
const PENDING_SECURE: &str = "__Host-elicit-login";
const PENDING_LOOPBACK: &str = "elicit-login";

/// How the login's cookies are written for the page's public URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CookieRule {
    /// https: `__Host-` names, `Secure`.
    Secure,
    /// http on a loopback host: plain names, without `Secure`.
    LoopbackDevelopment,
}

impl CookieRule {
    /// The rule for a page served at `public_url`: https is `Secure`; http only on a loopback
    /// host (`127.0.0.0/8`, `::1`, `localhost`); anything else is refused, naming the URL.
    pub(super) fn for_public_url(public_url: &url::Url) -> Result<Self, ConfigError> {
        let refused =
            |problem: &str| Err(ConfigError::new("page URL", public_url.as_str(), problem));
        match public_url.scheme() {
            "https" => Ok(CookieRule::Secure),
            "http" if is_loopback(public_url) => Ok(CookieRule::LoopbackDevelopment),
            "http" => refused(
                "is http on a host that is not loopback: the session cookie must be Secure, \
                 which a browser keeps only over https (http is for a loopback development \
                 address alone)",
            ),
            _ => refused("is neither https nor http"),
        }
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            CookieRule::Secure => (SESSION_SECURE, PENDING_SECURE),
            CookieRule::LoopbackDevelopment => (SESSION_LOOPBACK, PENDING_LOOPBACK),
        }
    }

    /// The session id the request's cookie carries.
    pub(super) fn session_of(self, request: &Parts) -> Option<String> {
        cookie(request, self.names().0)
    }

    /// The pending-login binding the request's cookie carries.
    pub(super) fn pending_of(self, request: &Parts) -> Option<String> {
        cookie(request, self.names().1)
    }

    /// The `Set-Cookie` value of the session `id`, kept for `life`.
    pub(super) fn session_cookie(self, id: &str, life: Duration) -> String {
        self.written(self.names().0, id, life)
    }

    /// The `Set-Cookie` value that removes the session cookie.
    pub(super) fn session_removed(self) -> String {
        self.written(self.names().0, "", Duration::ZERO)
    }

    /// The `Set-Cookie` value of the pending-login binding `id`, kept for `life`.
    pub(super) fn pending_cookie(self, id: &str, life: Duration) -> String {
        self.written(self.names().1, id, life)
    }

    /// `Lax`: the browser sends the cookie on the top-level GET that comes back from the
    /// authorization server, and when a link in the MCP client opens the page; not on another
    /// site's POST or subresource.
    fn written(self, name: &str, value: &str, life: Duration) -> String {
        let secure = match self {
            CookieRule::Secure => "; Secure",
            CookieRule::LoopbackDevelopment => "",
        };
        format!(
            "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            life.as_secs()
        )
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(address)) => IpAddr::V4(address).is_loopback(),
        Some(url::Host::Ipv6(address)) => IpAddr::V6(address).is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// Adds `Set-Cookie: value` to `response`.
pub(super) fn set_cookie(response: &mut Response, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(url: &str) -> Result<CookieRule, ConfigError> {
        CookieRule::for_public_url(&url::Url::parse(url).unwrap())
    }

    #[test]
    fn https_gets_host_prefixed_secure_http_only_lax_cookies_with_an_expiry() {
        let secure = rule("https://mcp.example.com").unwrap();
        assert_eq!(
            secure.session_cookie("abc", Duration::from_secs(3600)),
            "__Host-elicit-session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600; Secure"
        );
        assert_eq!(
            secure.pending_cookie("p", Duration::from_secs(600)),
            "__Host-elicit-login=p; Path=/; HttpOnly; SameSite=Lax; Max-Age=600; Secure"
        );
        assert_eq!(
            secure.session_removed(),
            "__Host-elicit-session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure"
        );
    }

    #[test]
    fn secure_is_relaxed_for_http_on_loopback_only() {
        for loopback in [
            "http://127.0.0.1:8080",
            "http://127.9.9.9",
            "http://[::1]:3000",
            "http://localhost:3000",
            "http://LOCALHOST",
        ] {
            let relaxed = rule(loopback).unwrap();
            assert_eq!(relaxed, CookieRule::LoopbackDevelopment, "{loopback}");
            assert_eq!(
                relaxed.session_cookie("abc", Duration::from_secs(60)),
                "elicit-session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60"
            );
        }
        for elsewhere in [
            "http://mcp.example.com",
            "http://0.0.0.0:8080",
            "http://192.168.1.5",
            "http://localhost.example.com",
            "http://[::]:80",
        ] {
            let error = rule(elsewhere).unwrap_err().to_string();
            assert!(
                error.contains("is http on a host that is not loopback"),
                "{elsewhere}: {error}"
            );
        }
        assert!(rule("ftp://127.0.0.1").is_err());
    }
}
