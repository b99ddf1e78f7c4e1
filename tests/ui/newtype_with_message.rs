use elicit_mcp::{Elicit, HasMessage};

// A message does not make a newtype a form: the derive says what the type is and how to ask
// for its one value.
#[derive(Elicit)]
#[elicit(message = "Are you sure?")]
struct Confirm(bool);

fn ask<T: HasMessage>() {}

fn main() {
    ask::<Confirm>();
}
