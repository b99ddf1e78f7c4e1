use elicit_mcp::Elicit;

// A generic form is checked per use: `Form<u8>` is an integer field, `Form<String>` a string.
#[derive(Elicit, Debug)]
struct Form<T> {
    x: T,
    #[elicit(max_length = 10)]
    label: String,
}

fn main() {
    let json = Form::<u8>::requested_schema_json();
    assert!(
        json.contains(r#""x":{"type":"integer","title":"X","minimum":0,"maximum":255}"#),
        "{json}"
    );
    let json = Form::<String>::requested_schema_json();
    assert!(json.contains(r#""x":{"type":"string","title":"X"}"#), "{json}");
    let content = serde_json::json!({"x": 7, "label": "seven"});
    let form = Form::<u8>::from_content(content.as_object().unwrap()).unwrap();
    assert_eq!(form.x, 7);
}
