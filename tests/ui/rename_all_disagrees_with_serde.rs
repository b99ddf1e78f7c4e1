use elicit_mcp::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
#[elicit(rename_all = "camelCase")]
#[serde(rename_all = "kebab-case")]
struct Contact {
    full_name: String,
}

fn main() {}
