use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Feedback {
    comment: String,
    #[elicit(skip, title = "Session")]
    session: u64,
}

fn main() {}
