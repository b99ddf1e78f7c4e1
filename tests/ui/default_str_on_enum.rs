use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Priority {
    Low,
    High,
}

// A choice's default is its variant, written as a path: `"high"` is the value of
// `Priority::High`, and `"urgent"` the value of none.
#[derive(Elicit)]
struct Task {
    #[elicit(default = "high")]
    priority: Priority,
    #[elicit(default = "urgent")]
    follow_up: Option<Priority>,
}

fn main() {}
