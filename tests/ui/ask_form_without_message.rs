use elicit_mcp::Elicit;
use elicit_mcp::rmcp::Ask;

#[derive(Elicit)]
struct Party {
    guests: u8,
}

// `ask.form::<T>()` sends the form's own message; `Party` has none.
async fn plan(ask: &Ask) {
    let _ = ask.form::<Party>().await;
}

fn main() {
    let _ = plan;
}
