use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(default = 30)]
    host: String,
}

fn main() {}
