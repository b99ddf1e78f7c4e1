use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
enum Size {
    Small,
    Large,
}

#[derive(Elicit)]
struct Order {
    #[elicit(default = [Color::Red, Size::Small])]
    colors: Vec<Color>,
}

fn main() {}
