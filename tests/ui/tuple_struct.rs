use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Point(f64, f64);

fn main() {}
