use elicit_mcp::Elicit;

// No `rename_all`: the values are `Low`, `High` and (renamed) `asap`. A string default names
// the variant it means in any case, by its name or its value: the fix names that variant,
// not the first one.
#[derive(Elicit)]
enum Priority {
    Low,
    High,
    #[elicit(rename = "asap")]
    Urgent,
}

#[derive(Elicit)]
struct Task {
    #[elicit(default = "high")]
    priority: Priority,
    #[elicit(default = "ASAP")]
    follow_up: Priority,
}

fn main() {}
