//! One tool, one form, over stdio: `update_contact` asks the user for their contact details
//! with elicit's `Ask`, on either protocol revision rmcp speaks.

use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal};
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

#[derive(Debug, Elicit)]
#[elicit(message = "How can we reach you?", rename_all = "camelCase")]
struct ContactDetails {
    #[elicit(title = "Full name", min_length = 1)]
    full_name: String,
    #[elicit(title = "Email", format = "email")]
    email: String,
    #[elicit(title = "Send me the newsletter", default = false)]
    newsletter: bool,
}

struct Contacts {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Contacts {
    #[tool(description = "Updates how we reach the user; asks the user for the details")]
    async fn update_contact(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        match ask.form::<ContactDetails>().await {
            Ok(ElicitOutcome::Accepted(details)) => Ok(text(format!(
                "We will write to {} at {} (newsletter: {}).",
                details.full_name, details.email, details.newsletter
            ))),
            Ok(ElicitOutcome::Declined | ElicitOutcome::Cancelled) => {
                Ok(text("The contact details stay as they were."))
            }
            Err(error) => error.into_call_result(),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Contacts {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let elicitation = Elicitation::new(RequestStateSeal::generated()?);
    let contacts = Contacts {
        tool_router: Contacts::tool_router(),
    };
    elicitation
        .serve(contacts, rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
