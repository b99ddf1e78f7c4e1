use elicit_mcp::Secret;

// A secret has no `Serialize`: it does not leave the program by accident, in a log, a cache or
// a response.
#[derive(serde::Serialize)]
struct Saved {
    service: String,
    api_key: Secret<String>,
}

fn main() {}
