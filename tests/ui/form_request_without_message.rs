use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    guests: u8,
}

fn main() {
    let _ = Party::form_request();
}
