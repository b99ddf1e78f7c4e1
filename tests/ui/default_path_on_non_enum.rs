use elicit_mcp::Elicit;

const DEFAULT_HOST: &str = "Ada";

// A path default names a choice enum's variant; other values are written as literals.
#[derive(Elicit)]
struct Party {
    #[elicit(default = u8::MAX)]
    guests: u8,
    #[elicit(default = DEFAULT_HOST)]
    host: String,
}

fn main() {}
