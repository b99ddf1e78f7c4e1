use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Color {
    #[elicit(description = "The color of fire")]
    Red,
    Green,
}

fn main() {}
