use std::net::IpAddr;

use elicit::Elicit;

#[derive(Elicit)]
struct Server {
    address: IpAddr,
}

fn main() {}
