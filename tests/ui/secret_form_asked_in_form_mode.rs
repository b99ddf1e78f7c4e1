use elicit_mcp::Elicit;
use elicit_mcp::rmcp::Ask;

#[derive(Elicit)]
#[elicit(message = "Connect your calendar")]
struct CalendarKey {
    api_key: elicit_mcp::Secret<String>,
    calendar: String,
}

// A form with a secret field is never sent to the client: the spec forbids asking for secrets
// in form mode. The error names the way to ask it on the server's own page.
async fn connect(ask: &Ask) {
    let _ = ask.form::<CalendarKey>().await;
}

fn main() {
    let _ = connect;
}
