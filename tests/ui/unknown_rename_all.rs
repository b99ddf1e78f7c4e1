use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "camel")]
struct Contact {
    full_name: String,
}

fn main() {}
