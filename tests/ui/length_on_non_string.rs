use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(max_length = 3)]
    attendees: u32,
}

fn main() {}
