use elicit_mcp::{Elicit, Secret};

// A default is written into the schema the client is sent: a secret takes none.
#[derive(Elicit)]
struct Deploy {
    #[elicit(default = "sk-test-0000", min_length = 8)]
    api_key: Secret<String>,
    #[elicit(default = "")]
    pin: Option<elicit_mcp::Secret<String>>,
}

fn main() {}
