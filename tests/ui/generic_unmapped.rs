use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Wrapper<T> {
    value: T,
}

struct Address {
    street: String,
}

fn main() {
    // The bound is checked where the generic form is used with a type.
    let _ = Wrapper::<Address>::requested_schema();
    let _ = <Wrapper<Address> as Elicit>::requested_schema();
}
