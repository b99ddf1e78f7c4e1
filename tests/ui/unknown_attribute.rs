use elicit::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(placeholder = "Team offsite")]
    title: String,
}

fn main() {}
