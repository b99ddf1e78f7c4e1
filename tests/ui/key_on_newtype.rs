use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(key = "postcode", pattern = "^[0-9]{5}$")]
struct Postcode(String);

fn main() {}
