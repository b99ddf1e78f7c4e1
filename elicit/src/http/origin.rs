//! Which browser origins may send requests (streamable HTTP: a server MUST validate `Origin`,
//! against DNS rebinding): the server's own by default, or the list the server gives.
//!
//! A request without `Origin` is not a browser's (or a same-origin GET's): it goes on. The check
//! reads headers only, so the guard makes it before anything else.

use std::fmt;

use http::uri::Authority;
use http::{HeaderMap, Uri, header};

use crate::server::debug_as_message;

/// An entry of [`Guard::with_allowed_origins`](super::Guard::with_allowed_origins) that is no
/// origin: not `scheme://host[:port]` alone (a path, a user, no scheme, `null`).
#[derive(Clone, PartialEq, Eq)]
pub struct NotAnOriginError {
    entry: String,
}

impl NotAnOriginError {
    pub(super) fn new(entry: impl AsRef<str>) -> Self {
        NotAnOriginError {
            entry: entry.as_ref().to_owned(),
        }
    }
}

impl fmt::Display for NotAnOriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the allowed origin `{}` is not an origin: give `scheme://host[:port]`, without a \
             path",
            self.entry
        )
    }
}

impl std::error::Error for NotAnOriginError {}

debug_as_message!(NotAnOriginError);

/// The origins the guard accepts.
#[derive(Clone, Debug)]
pub(super) enum AllowedOrigins {
    /// The server's own: the origin whose host and port are the `Host` the request is sent to,
    /// when that host is one rmcp accepts (its `allowed_hosts`, read when the guard is layered:
    /// none means any). The scheme is not compared: a proxy in front may end TLS.
    TheServers { hosts: Vec<HostRule> },
    /// Exactly these (scheme, host and port each).
    Listed(Vec<Origin>),
}

/// An origin as RFC 6454 serializes it, normalized: scheme and host in lower case, the port
/// made explicit where the scheme implies one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

/// One of rmcp's `allowed_hosts`: a host, and the port it must come with if it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HostRule {
    host: String,
    port: Option<u16>,
}

impl AllowedOrigins {
    /// The server's own origin, the host among `allowed_hosts` as rmcp reads them (`host` or
    /// `host:port`; an empty list allows any host).
    pub(super) fn the_servers(allowed_hosts: &[String]) -> Self {
        let hosts = allowed_hosts
            .iter()
            .filter_map(|allowed| HostRule::parse(allowed))
            .collect();
        AllowedOrigins::TheServers { hosts }
    }

    /// Whether a request to `uri` with `headers` may be served: it has no `Origin`, or an
    /// allowed one.
    pub(super) fn admit(&self, uri: &Uri, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return true;
        };
        // `null`, a value that is no origin, bytes that are no text: none is on any list.
        let Some(origin) = origin.to_str().ok().and_then(Origin::parse) else {
            return false;
        };
        match self {
            AllowedOrigins::Listed(origins) => origins.contains(&origin),
            AllowedOrigins::TheServers { hosts } => {
                let Some((host, port)) = request_host(uri, headers) else {
                    return false;
                };
                let allowed_host =
                    hosts.is_empty() || hosts.iter().any(|rule| rule.admits(&host, port));
                // A `Host` without a port is reached at its scheme's default, which a
                // browser's `Origin` omits as well.
                let port = port.or_else(|| default_port(&origin.scheme));
                allowed_host && origin.host == host && origin.port == port
            }
        }
    }
}

impl Origin {
    /// `scheme://host[:port]` and nothing else (no path, no user), or `None`. `null` is none.
    pub(super) fn parse(text: &str) -> Option<Origin> {
        let uri = Uri::try_from(text).ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let authority = uri.authority()?;
        let bare = !authority.as_str().contains('@')
            && uri
                .path_and_query()
                .is_none_or(|path| path.as_str().is_empty() || path.as_str() == "/")
            && !text.ends_with('/');
        if !bare {
            return None;
        }
        let port = authority.port_u16().or_else(|| default_port(&scheme));
        Some(Origin {
            host: normalized_host(authority.host()),
            scheme,
            port,
        })
    }
}

impl HostRule {
    fn parse(allowed: &str) -> Option<HostRule> {
        let allowed = allowed.trim();
        if allowed.is_empty() {
            return None;
        }
        Some(match Authority::try_from(allowed) {
            Ok(authority) => HostRule {
                host: normalized_host(authority.host()),
                port: authority.port_u16(),
            },
            Err(_) => HostRule {
                host: normalized_host(allowed),
                port: None,
            },
        })
    }

    fn admits(&self, host: &str, port: Option<u16>) -> bool {
        self.host == host && self.port.is_none_or(|wanted| port == Some(wanted))
    }
}

/// The host and port the request is sent to: its `Host`, or HTTP/2's `:authority` (as rmcp
/// reads them).
fn request_host(uri: &Uri, headers: &HeaderMap) -> Option<(String, Option<u16>)> {
    let authority = match headers.get(header::HOST) {
        Some(host) => Authority::try_from(host.to_str().ok()?).ok()?,
        None => uri.authority()?.clone(),
    };
    Some((normalized_host(authority.host()), authority.port_u16()))
}

fn normalized_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// The port a scheme implies where an origin omits it (RFC 6454 section 4).
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use http::request::Parts;

    fn request(host: Option<&str>, origin: Option<&[u8]>) -> Parts {
        let mut request = http::Request::builder().uri("/mcp");
        if let Some(host) = host {
            request = request.header("host", host);
        }
        if let Some(origin) = origin {
            request = request.header("origin", http::HeaderValue::from_bytes(origin).unwrap());
        }
        request.body(()).unwrap().into_parts().0
    }

    impl AllowedOrigins {
        fn admits(&self, request: &Parts) -> bool {
            self.admit(&request.uri, &request.headers)
        }
    }

    fn loopback() -> AllowedOrigins {
        AllowedOrigins::the_servers(&["localhost".into(), "127.0.0.1".into(), "::1".into()])
    }

    #[test]
    fn a_request_without_origin_goes_on_whatever_the_list() {
        assert!(loopback().admits(&request(Some("127.0.0.1:8000"), None)));
        assert!(AllowedOrigins::Listed(Vec::new()).admits(&request(None, None)));
    }

    #[test]
    fn the_servers_own_origin_is_the_host_it_is_reached_at() {
        let own = loopback();
        for (host, origin) in [
            ("127.0.0.1:8000", "http://127.0.0.1:8000"),
            ("LOCALHOST:8000", "https://localhost:8000"),
            ("[::1]:8000", "http://[::1]:8000"),
            ("localhost", "http://localhost"),
            ("localhost", "https://localhost"),
            ("localhost", "http://localhost:80"),
        ] {
            assert!(
                own.admits(&request(Some(host), Some(origin.as_bytes()))),
                "{host} {origin}"
            );
        }
    }

    #[test]
    fn another_host_or_port_or_a_host_rmcp_refuses_is_not_the_servers_own() {
        let own = loopback();
        for (host, origin) in [
            // Another site, another port, the default port of another scheme.
            ("127.0.0.1:8000", "http://evil.example"),
            ("127.0.0.1:8000", "http://127.0.0.1:8001"),
            ("127.0.0.1:8000", "http://127.0.0.1"),
            ("localhost", "http://localhost:8080"),
            // DNS rebinding: the page's own name sent as `Host`, which rmcp does not allow.
            ("evil.example:8000", "http://evil.example:8000"),
        ] {
            assert!(
                !own.admits(&request(Some(host), Some(origin.as_bytes()))),
                "{host} {origin}"
            );
        }
        // With no list of hosts in rmcp, the host it is reached at is the server's own.
        let any_host = AllowedOrigins::the_servers(&[]);
        assert!(any_host.admits(&request(
            Some("mcp.example.com"),
            Some(b"https://mcp.example.com")
        )));
        assert!(!any_host.admits(&request(
            Some("mcp.example.com"),
            Some(b"https://app.example.com")
        )));
        // A host rule with a port admits that port only.
        let with_port = AllowedOrigins::the_servers(&["mcp.example.com:8443".into()]);
        assert!(with_port.admits(&request(
            Some("mcp.example.com:8443"),
            Some(b"https://mcp.example.com:8443")
        )));
        assert!(!with_port.admits(&request(
            Some("mcp.example.com:9443"),
            Some(b"https://mcp.example.com:9443")
        )));
    }

    #[test]
    fn null_and_what_is_no_origin_are_outside_every_list() {
        let listed = AllowedOrigins::Listed(vec![Origin::parse("https://app.example").unwrap()]);
        for origin in [
            &b"null"[..],
            b"",
            b"app.example",
            b"https://app.example/",
            b"https://app.example/path",
            b"https://user@app.example",
            b"https://app.example\xff",
        ] {
            for allowed in [&listed, &loopback()] {
                assert!(
                    !allowed.admits(&request(Some("localhost"), Some(origin))),
                    "{}",
                    String::from_utf8_lossy(origin)
                );
            }
        }
    }

    #[test]
    fn a_listed_origin_matches_scheme_host_and_port() {
        let listed = AllowedOrigins::Listed(vec![
            Origin::parse("https://App.Example").unwrap(),
            Origin::parse("http://localhost:3000").unwrap(),
        ]);
        let admits =
            |origin: &str| listed.admits(&request(Some("mcp.example"), Some(origin.as_bytes())));
        assert!(admits("https://app.example"));
        assert!(admits("https://app.example:443"));
        assert!(admits("http://localhost:3000"));
        assert!(!admits("http://app.example"));
        assert!(!admits("https://app.example:8443"));
        assert!(!admits("http://localhost:3001"));
        // Not the host it is sent to either, once a list is given.
        assert!(!admits("https://mcp.example"));
    }
}
