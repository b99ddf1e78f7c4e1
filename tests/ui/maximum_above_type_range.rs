use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(maximum = 300)]
    guests: u8,
}

fn main() {}
