use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Wrapper<T> {
    value: T,
}

struct Address {
    street: String,
}

fn main() {
    // The bound is checked where the generic form is used with a type. Called on the type, the
    // function is the trait's (the derive adds no inherent one), so the compiler says E0599 and
    // names the unmet `Address: ElicitField`; through the trait, E0277 with the field trait's
    // own message.
    let _ = Wrapper::<Address>::requested_schema();
    let _ = <Wrapper<Address> as Elicit>::requested_schema();
}
