use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(minimum = 10, default = 5)]
    guests: u8,
}

fn main() {}
