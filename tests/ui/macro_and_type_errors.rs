use std::collections::HashMap;

use elicit_mcp::Elicit;

struct Address {
    street: String,
}

// The derive's own errors and the compiler's errors about the field types come together.
#[derive(Elicit)]
struct Order {
    api_token: String,
    #[elicit(min_length = 5, max_length = 1)]
    note: String,
    shipping: Address,
    extras: HashMap<String, u8>,
    #[elicit(minimum = -5)]
    quantity: u8,
    #[elicit(format = "email")]
    count: u32,
    #[elicit(default = "many")]
    copies: u16,
}

fn main() {}
