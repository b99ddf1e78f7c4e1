use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(min_items = 1)]
    title: String,
}

fn main() {}
