use elicit_mcp::Elicit;

// Payment credentials and other identifiers that authorize transactions.
#[derive(Elicit)]
struct Checkout {
    card_number: String,
    cvv: String,
    pin: String,
    ssn: String,
}

fn main() {}
