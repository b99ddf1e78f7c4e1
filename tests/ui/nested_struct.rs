use elicit_mcp::Elicit;

struct Address {
    street: String,
    city: String,
}

#[derive(Elicit)]
struct Contact {
    name: String,
    address: Address,
}

fn main() {}
