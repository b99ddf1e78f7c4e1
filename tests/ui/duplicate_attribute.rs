use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(title = "Title")]
    #[elicit(title = "Name")]
    title: String,
}

fn main() {}
