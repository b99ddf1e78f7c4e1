use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(title = "Event")]
struct Event {
    title: String,
}

fn main() {}
