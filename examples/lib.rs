//! The runnable examples of `elicit` (see the README's table of examples). Each example is a
//! target of this package, and the integration tests of the workspace's root package compile the
//! same sources to check what they send and answer. This library holds the little the examples
//! share.

use std::error::Error;

/// Refuses a server URL whose host is not this machine (`localhost`, `127.0.0.1`, `[::1]`, ...):
/// the example clients talk to servers on loopback only.
///
/// ```
/// use elicit_examples::check_loopback;
///
/// assert!(check_loopback("http://127.0.0.1:3000/mcp").is_ok());
/// assert!(check_loopback("http://[::1]:3000/mcp").is_ok());
/// assert_eq!(
///     check_loopback("https://mcp.example.com/mcp").unwrap_err().to_string(),
///     "this example talks to loopback servers only, not mcp.example.com"
/// );
/// ```
pub fn check_loopback(url: &str) -> Result<(), Box<dyn Error>> {
    let host = url::Url::parse(url)?
        .host_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("`{url}` has no host"))?;
    let loopback = host == "localhost"
        || host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err(format!("this example talks to loopback servers only, not {host}").into())
    }
}
