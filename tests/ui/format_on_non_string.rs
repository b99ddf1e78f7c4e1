use elicit::Elicit;

#[derive(Elicit)]
struct Event {
    #[elicit(format = "date")]
    day: u32,
}

fn main() {}
