use elicit::Elicit;

#[derive(Elicit)]
struct Profile {
    tags: Vec<String>,
}

fn main() {}
