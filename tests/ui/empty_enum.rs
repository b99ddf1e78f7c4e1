use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Never {}

fn main() {}
