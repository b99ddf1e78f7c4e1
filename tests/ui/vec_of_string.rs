use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Profile {
    tags: Vec<String>,
}

fn main() {}
