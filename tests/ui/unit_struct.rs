use elicit::Elicit;

#[derive(Elicit)]
struct Nothing;

fn main() {}
