use elicit_mcp::Elicit;

struct Address {
    street: String,
}

// A generic form's concrete field types are checked at the field, like a non-generic form's.
#[derive(Elicit)]
struct Wrapper<T> {
    value: T,
    shipping: Address,
}

fn main() {}
