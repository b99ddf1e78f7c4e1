//! The main example: derive a form, print the `elicitation/create` params a server sends, then
//! parse a client's accept response, once good and once bad.
//!
//! Run with `cargo run -p elicit-examples --example contact`.

use elicit_mcp::wire::ElicitResult;
use elicit_mcp::{Elicit, ElicitOutcome};

/// The spec's contact form, with a favourite colour and a multi-select added. Every property
/// gets a title made from its field's name ("Full name"), which hosts show as its label.
#[derive(Debug, Elicit)]
#[elicit(
    message = "Please provide your contact information",
    rename_all = "camelCase"
)]
pub(crate) struct Contact {
    /// Your full name
    #[elicit(min_length = 3, max_length = 50)]
    full_name: String,
    /// Your email address
    #[elicit(format = "email")]
    email: String,
    /// Your age
    #[elicit(minimum = 18)]
    age: Option<u8>,
    /// Your favourite colour
    #[elicit(default = Color::Red)]
    favorite: Color,
    /// Up to two colours for your badge
    #[elicit(min_items = 1, max_items = 2)]
    colors: Vec<Color>,
}

/// Sent as hex codes, shown by the titles made from the variants' names ("Red").
#[derive(Debug, Elicit)]
enum Color {
    #[elicit(rename = "#FF0000")]
    Red,
    #[elicit(rename = "#00FF00")]
    Green,
    #[elicit(rename = "#0000FF")]
    Blue,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("== elicitation/create params (the schema is a compile-time constant)");
    println!(
        "{}\n",
        serde_json::to_string_pretty(&Contact::form_request())?
    );

    let good: ElicitResult = serde_json::from_str(
        r##"{"action": "accept", "content": {
            "fullName": "Monalisa Octocat",
            "email": "octocat@github.com",
            "age": 30,
            "colors": ["#00FF00", "#0000FF"]
        }}"##,
    )?;
    println!("== a good accept response");
    match Contact::from_result(&good)? {
        ElicitOutcome::Accepted(contact) => {
            println!("{contact:#?}");
            let age = contact.age.map_or("unknown".to_owned(), |a| a.to_string());
            println!(
                "=> {} <{}>, age {age}, favourite {:?}, badge {:?}\n",
                contact.full_name, contact.email, contact.favorite, contact.colors
            );
        }
        other => println!("not accepted: {other:?}\n"),
    }

    let bad: ElicitResult = serde_json::from_str(
        r##"{"action": "accept", "content": {
            "fullName": "Al",
            "email": "octocat(at)github.com",
            "age": 12.5,
            "favorite": "#FFFFFF",
            "colors": ["#FF0000", "#FF0000", "#0000FF"]
        }}"##,
    )?;
    println!("== a bad accept response: every field error at once");
    match Contact::from_result(&bad) {
        Ok(outcome) => println!("unexpectedly parsed: {outcome:?}"),
        Err(errors) => {
            println!("{errors}\n");
            println!("as JSON, ready to return to the model or the user:");
            println!("{}", serde_json::to_string_pretty(&errors)?);
        }
    }
    Ok(())
}
