use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Priority {
    Low,
    High,
}

// A choice's default is its variant, written as a path: `Priority::High`.
#[derive(Elicit)]
struct Task {
    #[elicit(default = "high")]
    priority: Priority,
    #[elicit(default = "low")]
    follow_up: Option<Priority>,
}

fn main() {}
