use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Booking {
    #[elicit(untitled, title = "Check-in date")]
    check_in: String,
}

fn main() {}
