use elicit_mcp::Elicit;

// A bool's default is `true` or `false`, without quotes.
#[derive(Elicit)]
struct Signup {
    #[elicit(default = "true")]
    terms: bool,
    #[elicit(default = "yes")]
    newsletter: Option<bool>,
}

fn main() {}
