use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Rgb(u8, u8, u8),
    Named { name: String },
}

fn main() {}
