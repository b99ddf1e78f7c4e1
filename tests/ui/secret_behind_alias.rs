use elicit_mcp::{Elicit, Secret};

// The derive reads the type as written; a secret under another name is caught by the compiler,
// so that the form is not taken for one the client may be shown.
type Credential = Secret<String>;

#[derive(Elicit)]
struct Login {
    user: String,
    #[elicit(not_sensitive)]
    passphrase: Credential,
}

fn main() {}
