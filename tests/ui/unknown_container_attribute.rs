use elicit::Elicit;

#[derive(Elicit)]
#[elicit(title = "Event")]
struct Event {
    title: String,
}

fn main() {}
