//! The connect page the tests' servers send users to.

use elicit_mcp::wire::ElicitationId;

/// The connect page of elicitation `id`.
pub fn connect_url(id: &ElicitationId) -> String {
    format!("https://mcp.example.com/connect?elicitationId={id}")
}
