use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(message = "Pick a color")]
enum Color {
    Red,
    Green,
}

fn main() {}
