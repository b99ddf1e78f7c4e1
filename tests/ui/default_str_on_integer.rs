use elicit_mcp::Elicit;

// A number's default is a number literal, without quotes.
#[derive(Elicit)]
struct Party {
    #[elicit(default = "4")]
    guests: u8,
    #[elicit(default = "x")]
    budget: f64,
}

fn main() {}
