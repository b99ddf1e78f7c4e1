//! Whether a URL handed to browsers and clients names a place they can reach. A listener bound
//! to port 0 (any free port) or to every interface (`0.0.0.0`, `[::]`) is not at such a place:
//! a URL written before it was bound, or from its unspecified address, points nowhere, and
//! would fail only when a user opened it.

/// What makes `url` unreachable, as the end of an error message; `None` when nothing does.
pub(crate) fn unreachable(url: &url::Url) -> Option<&'static str> {
    if url.port() == Some(0) {
        return Some(
            "has port 0, which no one can connect to: bind the listener first and take the \
             port it got (`listener.local_addr()`), or give the server's public URL",
        );
    }
    let unspecified = match url.host() {
        Some(url::Host::Ipv4(address)) => address.is_unspecified(),
        Some(url::Host::Ipv6(address)) => address.is_unspecified(),
        _ => false,
    };
    unspecified.then_some(
        "names the unspecified address (a listener's on every interface), which no one can \
         connect to: give the server's public URL, or a loopback address in development",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_0_and_the_unspecified_address_are_unreachable() {
        let problem = |text: &str| unreachable(&url::Url::parse(text).unwrap());
        assert!(
            problem("http://127.0.0.1:0/secure")
                .unwrap()
                .contains("port 0")
        );
        assert!(
            problem("http://0.0.0.0:8000/mcp")
                .unwrap()
                .contains("unspecified")
        );
        assert!(problem("http://[::]:8000").unwrap().contains("unspecified"));
        for reachable in [
            "http://127.0.0.1:8000/secure",
            "https://mcp.example.com",
            "http://[::1]:8000",
            "https://mcp.example.com:443/",
        ] {
            assert_eq!(problem(reachable), None, "{reachable}");
        }
    }
}
