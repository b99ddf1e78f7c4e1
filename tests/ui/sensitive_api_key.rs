use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Integration {
    service: String,
    api_key: String,
}

fn main() {}
