use elicit_mcp::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Contact {
    #[elicit(rename = "fullName")]
    #[serde(rename = "name")]
    full_name: String,
}

fn main() {}
