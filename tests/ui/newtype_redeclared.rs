use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(pattern = "^[0-9]{5}$")]
struct Postcode(String);

// A form keeps what the newtype declares: it cannot replace its pattern.
#[derive(Elicit)]
struct Address {
    #[elicit(pattern = "^.*$")]
    postcode: Postcode,
}

fn main() {}
