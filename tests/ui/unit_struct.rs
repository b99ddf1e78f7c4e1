use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Nothing;

fn main() {}
