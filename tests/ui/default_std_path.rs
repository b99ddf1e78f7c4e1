use elicit_mcp::Elicit;

// A constant of the standard library is no variant of a choice enum, however it is spelled.
#[derive(Elicit)]
struct Party {
    #[elicit(default = std::u8::MAX)]
    guests: u8,
    #[elicit(default = ::core::u16::MAX)]
    seats: u16,
}

fn main() {}
