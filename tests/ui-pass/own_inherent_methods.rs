// The derive implements traits only and adds no inherent function, so a type's own inherent
// `from_content` and `requested_schema` compile beside it (no E0592), win `Type::name(..)` calls,
// and leave the trait's reachable through `<Type as Elicit>`. Generic forms too.
use elicit_mcp::{Elicit, ElicitChoice, ElicitOutcome};
use elicit_mcp::wire::ElicitResult;
use serde_json::{Map, Value, json};

#[derive(Elicit, Debug, PartialEq)]
struct Guests {
    count: u8,
}

impl Guests {
    fn from_content(count: u8) -> Self {
        Guests { count }
    }

    fn requested_schema() -> &'static str {
        "the type's own"
    }

    fn from_result(_: &str) -> u8 {
        1
    }

    fn requested_schema_json() -> u8 {
        2
    }
}

#[derive(Elicit, Debug, PartialEq)]
struct Wrapper<T> {
    value: T,
}

impl<T> Wrapper<T> {
    fn from_content(value: T) -> Self {
        Wrapper { value }
    }

    fn requested_schema() -> bool {
        true
    }
}

#[derive(Elicit, Debug, PartialEq)]
enum Size {
    Small,
    Large,
}

impl Size {
    fn from_wire(_: u8) -> Self {
        Size::Large
    }

    fn to_wire(&self) -> char {
        's'
    }
}

fn content(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

fn main() {
    assert_eq!(Guests::from_content(3), Guests { count: 3 });
    assert_eq!(Guests::requested_schema(), "the type's own");
    assert_eq!(Guests::from_result("own"), 1);
    assert_eq!(Guests::requested_schema_json(), 2);
    let parsed = <Guests as Elicit>::from_content(&content(json!({"count": 4}))).unwrap();
    assert_eq!(parsed, Guests { count: 4 });
    assert_eq!(<Guests as Elicit>::requested_schema().properties.len(), 1);
    assert!(<Guests as Elicit>::requested_schema_json().contains(r#""count""#));
    let result: ElicitResult =
        serde_json::from_value(json!({"action": "accept", "content": {"count": 5}})).unwrap();
    assert_eq!(
        <Guests as Elicit>::from_result(&result).unwrap(),
        ElicitOutcome::Accepted(Guests { count: 5 })
    );

    assert_eq!(Wrapper::from_content(7u8), Wrapper { value: 7 });
    assert!(Wrapper::<u8>::requested_schema());
    let parsed = <Wrapper<u8> as Elicit>::from_content(&content(json!({"value": 8}))).unwrap();
    assert_eq!(parsed, Wrapper { value: 8 });
    assert!(<Wrapper<u8> as Elicit>::requested_schema_json().contains(r#""integer""#));

    assert_eq!(Size::from_wire(0), Size::Large);
    assert_eq!(Size::Small.to_wire(), 's');
    assert_eq!(<Size as ElicitChoice>::from_wire("Small"), Some(Size::Small));
    assert_eq!(<Size as ElicitChoice>::to_wire(&Size::Large), "Large");
}
