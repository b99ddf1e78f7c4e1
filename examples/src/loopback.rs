//! The examples talk to this machine only: servers listen on loopback, clients call servers on
//! loopback.

use std::error::Error;
use std::net::SocketAddr;

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

/// Where an example server listens: the address given, which must be on loopback, or a free
/// port on 127.0.0.1.
///
/// ```
/// use elicit_examples::listen_address;
///
/// assert_eq!(listen_address(None).unwrap().to_string(), "127.0.0.1:0");
/// assert_eq!(listen_address(Some("[::1]:3000")).unwrap().to_string(), "[::1]:3000");
/// assert!(listen_address(Some("0.0.0.0:3000")).is_err());
/// ```
pub fn listen_address(argument: Option<&str>) -> Result<SocketAddr, Box<dyn Error>> {
    let Some(argument) = argument else {
        return Ok(SocketAddr::from(([127, 0, 0, 1], 0)));
    };
    let address: SocketAddr = argument
        .parse()
        .map_err(|e| format!("`{argument}` is not an address like 127.0.0.1:3000: {e}"))?;
    if !address.ip().is_loopback() {
        return Err(format!(
            "this example listens on loopback only, not on {}",
            address.ip()
        )
        .into());
    }
    Ok(address)
}
