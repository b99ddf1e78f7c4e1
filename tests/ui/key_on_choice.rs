use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(key = "priority")]
enum Priority {
    Low,
    High,
}

fn main() {}
