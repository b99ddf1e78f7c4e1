use std::collections::HashMap;

use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Survey {
    answers: HashMap<String, String>,
}

fn main() {}
