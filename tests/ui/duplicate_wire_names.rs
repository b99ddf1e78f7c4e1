use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Contact {
    email: String,
    #[elicit(rename = "email")]
    work_email: String,
}

fn main() {}
