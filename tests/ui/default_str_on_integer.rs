use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(default = "x")]
    guests: u8,
}

fn main() {}
