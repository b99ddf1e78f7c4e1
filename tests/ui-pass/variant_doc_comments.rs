use elicit_mcp::Elicit;

/// Doc comments on the enum and on its variants are documentation only.
#[derive(Elicit, Debug, PartialEq)]
enum Priority {
    /// Whenever you get to it.
    ///
    /// Really, no hurry.
    Low,
    /// Today.
    #[elicit(title = "Normal priority")]
    Normal,
    #[doc = "Drop everything."]
    #[elicit(rename = "urgent", title = "Urgent")]
    High,
}

/// A ticket.
#[derive(Elicit, Debug)]
struct Ticket {
    /// How soon this needs doing.
    #[elicit(default = Priority::Normal)]
    priority: Priority,
    /// Labels for the ticket.
    tags: Vec<Priority>,
}

fn main() {
    let json = Ticket::requested_schema_json();
    assert!(
        json.contains(r#""oneOf":[{"const":"Low","title":"Low"},{"const":"Normal","title":"Normal priority"},{"const":"urgent","title":"Urgent"}]"#),
        "{json}"
    );
    assert!(
        json.contains(r#""description":"How soon this needs doing.""#),
        "{json}"
    );
    let content = serde_json::json!({"tags": ["urgent"]});
    let ticket = Ticket::from_content(content.as_object().unwrap()).unwrap();
    assert_eq!(ticket.priority, Priority::Normal);
    assert_eq!(ticket.tags, [Priority::High]);
}
