use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(default = 2 + 2)]
    guests: u8,
}

fn main() {}
