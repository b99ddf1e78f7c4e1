use elicit_mcp::Elicit;

// `token_budget` looks like a secret to the name check, but is not one.
#[derive(Elicit)]
struct Settings {
    #[elicit(not_sensitive, minimum = 1)]
    token_budget: u32,
    #[elicit(not_sensitive)]
    pin_color: String,
}

fn main() {
    let json = Settings::requested_schema_json();
    assert!(
        json.contains(r#""token_budget":{"type":"integer","title":"Token budget""#),
        "{json}"
    );
    assert!(json.contains(r#""pin_color":{"type":"string","title":"Pin color"}"#), "{json}");
}
