//! The forms of `examples/contact.rs`, copied as they are: `.ci/fuzz` checks that each
//! block between the markers is in the example word for word, so a change there shows here.

use elicit_mcp::Elicit;

// copied from examples/contact.rs
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
// end of the copy

/// Does `visitor` with the form.
pub(crate) fn on<V: crate::OnForm>(visitor: V) -> V::Out {
    visitor.on::<Contact>(None)
}
