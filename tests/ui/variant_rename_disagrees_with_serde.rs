use elicit_mcp::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Color {
    #[elicit(rename = "#FF0000")]
    #[serde(rename = "red")]
    Red,
    Green,
}

fn main() {}
