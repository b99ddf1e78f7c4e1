use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(format = "date")]
    day: u32,
}

fn main() {}
