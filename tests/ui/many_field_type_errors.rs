use std::collections::HashMap;

use elicit_mcp::Elicit;

struct Address {
    street: String,
}

// Every field whose type has no mapping is reported, not only the first.
#[derive(Elicit)]
struct Order {
    name: String,
    shipping: Address,
    notes: Vec<String>,
    extras: HashMap<String, u8>,
    size: (u8, u8),
}

fn main() {}
