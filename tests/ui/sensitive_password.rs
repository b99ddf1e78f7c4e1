use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Login {
    username: String,
    password: String,
}

fn main() {}
