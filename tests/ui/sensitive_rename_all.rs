use elicit_mcp::Elicit;

// `rename_all` does not hide a secret: every case style of a name is checked.
#[derive(Elicit)]
#[elicit(rename_all = "SCREAMING-KEBAB-CASE")]
struct Wallet {
    owner: String,
    seed_phrase: String,
}

fn main() {}
