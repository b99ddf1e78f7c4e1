use elicit_mcp::Elicit;

// A newtype says what its values are; how a form asks for it goes on the form's field.
#[derive(Elicit)]
#[elicit(message = "Postcode?", title = "Postcode", pattern = "^[0-9]{5}$", default = "75001")]
struct Postcode(String);

fn main() {}
