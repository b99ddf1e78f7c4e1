use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Theme {
    #[elicit(default = Color::Purple)]
    accent: Color,
}

fn main() {}
