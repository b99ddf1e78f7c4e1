use elicit::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(default = "x")]
    guests: u8,
}

fn main() {}
