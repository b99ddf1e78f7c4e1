use elicit_mcp::Elicit;

// A default must be of the field's format, as it must fit its lengths and pattern.
#[derive(Elicit)]
struct Contact {
    #[elicit(format = "email", default = "not-an-email")]
    email: String,
    #[elicit(format = "uri", default = "/relative/path")]
    website: String,
    #[elicit(format = "date", default = "2023-02-29")]
    day: String,
    #[elicit(format = "date-time", default = "2024-02-29 12:00")]
    at: String,
    #[elicit(format = "date", default = "2024-02-29")]
    fine: String,
}

fn main() {}
