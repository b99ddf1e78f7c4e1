use elicit::Elicit;

#[derive(Elicit)]
struct Profile {
    #[elicit(min_length = 3, default = "Al")]
    name: String,
}

fn main() {}
