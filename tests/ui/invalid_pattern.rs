use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Flight {
    #[elicit(pattern = "^[A-Z{3}$")]
    airport: String,
}

fn main() {}
