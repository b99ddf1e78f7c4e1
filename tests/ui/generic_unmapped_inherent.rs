use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Wrapper<T> {
    value: T,
}

struct Bad;

fn main() {
    // Called on the type, without naming the trait: the unmet bound is named all the same.
    let _ = Wrapper::<Bad>::requested_schema();
    let _ = Wrapper::<Bad>::from_content(&Default::default());
}
