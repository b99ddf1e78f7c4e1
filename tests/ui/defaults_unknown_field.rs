use elicit_mcp::{Elicit, defaults_of};

// A run-time default names the field by its Rust name, checked by the compiler: a misspelt one
// does not compile, and the error lists the fields there are.
#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Stay {
    #[elicit(format = "date")]
    check_in: String,
    nights: u8,
}

fn main() {
    let _ = defaults_of::<Stay>(|d| d.chek_in.set("2026-12-24"));
}
