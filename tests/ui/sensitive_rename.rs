use elicit_mcp::Elicit;

// The wire name is what the user is asked for, so a rename counts.
#[derive(Elicit)]
struct Login {
    #[elicit(rename = "accessToken")]
    login: String,
}

fn main() {}
