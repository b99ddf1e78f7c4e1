use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Server {
    #[elicit(format = "ipv4")]
    address: String,
}

fn main() {}
