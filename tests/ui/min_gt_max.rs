use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(minimum = 10, maximum = 2)]
    guests: u8,
}

fn main() {}
