use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
}

// A multi-select's default is an array of its enum's variants.
#[derive(Elicit)]
struct Theme {
    #[elicit(default = "red")]
    accents: Vec<Color>,
}

fn main() {}
