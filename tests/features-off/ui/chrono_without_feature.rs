use elicit_mcp::Elicit;

// chrono's types are field types with elicit-mcp's `chrono` feature, which is off here.
#[derive(Elicit)]
struct Meeting {
    day: chrono::NaiveDate,
    starts: Option<chrono::DateTime<chrono::Utc>>,
}

fn main() {}
