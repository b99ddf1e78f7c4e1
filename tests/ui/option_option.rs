use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Profile {
    nickname: Option<Option<String>>,
}

fn main() {}
