use elicit_mcp::Elicit;

// A tuple struct of one field is a newtype, a field type: asked for as a form, the error says so.
#[derive(Elicit)]
struct Confirm(bool);

fn ask<T: Elicit>() {}

fn ask_with_message<T: elicit_mcp::HasMessage>() {}

fn main() {
    ask::<Confirm>();
    ask_with_message::<Confirm>();
}
