//! Pieces the HTTP examples share (a subdirectory without `main.rs`, so cargo does not take it
//! for an example of its own).

use std::error::Error;
use std::net::SocketAddr;

/// Where to listen: the address given, which must be on loopback, or a free port on 127.0.0.1.
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
