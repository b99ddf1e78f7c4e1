use elicit_mcp::Elicit;

struct Session {
    id: u64,
}

// A skipped field is filled from `Default`, so its type must implement it.
#[derive(Elicit)]
struct Feedback {
    comment: String,
    #[elicit(skip)]
    session: Session,
}

fn main() {}
