use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(maximum = 10)]
    host: String,
}

fn main() {}
