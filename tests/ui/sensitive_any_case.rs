#![allow(non_snake_case)]

use elicit_mcp::Elicit;

// Secrets are found in any case style, and inside compound names.
#[derive(Elicit)]
struct Account {
    userPassword: String,
    PRIVATE_KEY: String,
    clientSecret: String,
    credentials: String,
}

fn main() {}
