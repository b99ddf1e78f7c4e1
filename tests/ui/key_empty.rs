use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(message = "Where to?", key = " ")]
struct Destination {
    city: String,
}

fn main() {}
