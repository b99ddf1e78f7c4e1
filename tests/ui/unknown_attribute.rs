use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(placeholder = "Team offsite")]
    title: String,
}

fn main() {}
