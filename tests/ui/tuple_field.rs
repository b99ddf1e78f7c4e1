use elicit_mcp::Elicit;

#[derive(Elicit)]
struct Booking {
    nights: (u8, u8),
}

fn main() {}
