use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(max_length = 20, minimum = 1)]
    title: String,
}

fn main() {}
