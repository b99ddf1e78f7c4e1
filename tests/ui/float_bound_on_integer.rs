use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(minimum = 0.5)]
    guests: u8,
}

fn main() {}
