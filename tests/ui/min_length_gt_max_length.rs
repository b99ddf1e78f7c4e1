use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Profile {
    #[elicit(min_length = 10, max_length = 3)]
    nickname: String,
}

fn main() {}
