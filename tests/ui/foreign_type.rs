use std::net::IpAddr;

use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Server {
    address: IpAddr,
}

fn main() {}
