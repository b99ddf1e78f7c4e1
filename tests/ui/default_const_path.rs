use elicit_mcp::Elicit;

mod config {
    pub const LIMIT: u8 = 4;
    pub const HOST: &str = "Ada";
}

// A constant is no variant of a choice enum, even under a path that could name one.
#[derive(Elicit)]
struct Party {
    #[elicit(default = config::LIMIT)]
    guests: u8,
    #[elicit(default = config::HOST)]
    host: Option<String>,
}

fn main() {}
