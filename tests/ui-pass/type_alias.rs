use elicit_mcp::Elicit;

// The mapping follows the type, not its name: aliases take the attributes of what they name.
type Name = String;
type Age = u8;
type MaybeAge = Option<Age>;
type Colors = Vec<Color>;

#[derive(Elicit, Debug, PartialEq)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit, Debug)]
struct Person {
    #[elicit(min_length = 2, default = "Ada")]
    name: Name,
    #[elicit(minimum = 18, maximum = 130)]
    age: Age,
    #[elicit(maximum = 20)]
    child_age: MaybeAge,
    #[elicit(min_items = 1, max_items = 2)]
    colors: Colors,
}

fn main() {
    let json = Person::requested_schema_json();
    assert!(
        json.contains(r#""name":{"type":"string","title":"Name","minLength":2,"default":"Ada"}"#),
        "{json}"
    );
    assert!(
        json.contains(r#""age":{"type":"integer","title":"Age","minimum":18,"maximum":130}"#),
        "{json}"
    );
    assert!(
        json.contains(r#""child_age":{"type":"integer","title":"Child age","minimum":0,"maximum":20}"#),
        "{json}"
    );
    assert!(json.contains(r#""required":["age","colors"]"#), "{json}");
    let content = serde_json::json!({"age": 30, "colors": ["Red"]});
    let person = Person::from_content(content.as_object().unwrap()).unwrap();
    assert_eq!(person.name, "Ada");
    assert_eq!(person.colors, [Color::Red]);
}
