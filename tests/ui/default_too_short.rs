use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Profile {
    #[elicit(min_length = 3, default = "Al")]
    name: String,
}

fn main() {}
