//! When a 2026-07-28 call computes its binding: only to open or seal a state, or before a
//! method that takes an `Ask` runs. A real rmcp server and client over an in-memory duplex.

use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::model as sdk;
use ::rmcp::service::{RoleClient, RunningService, serve_directly};
use ::rmcp::{ClientHandler, ServerHandler, tool, tool_handler, tool_router};

use crate::rmcp::revision::v2026_07_28::bindings_computed;
use crate::rmcp::{Ask, Elicitation, RequestStateSeal};

#[derive(crate::Elicit, Debug)]
#[elicit(crate = "crate", message = "Who is it for?")]
struct Guest {
    name: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    #[tool(description = "Answers without asking")]
    async fn plain(&self) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        Ok(sdk::CallToolResult::success(vec![]))
    }

    #[tool(description = "Asks who it is for")]
    async fn asking(&self, ask: Ask) -> Result<sdk::CallToolResult, sdk::ErrorData> {
        let guest = match ask.form::<Guest>().await? {
            crate::ElicitOutcome::Accepted(guest) => guest.name,
            _ => String::new(),
        };
        Ok(sdk::CallToolResult::success(vec![sdk::ContentBlock::text(
            guest,
        )]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::InitializeResult::new(sdk::ServerCapabilities::builder().enable_tools().build())
            .with_protocol_version(sdk::ProtocolVersion::V_2026_07_28)
    }
}

#[derive(Clone)]
struct Client;

impl ClientHandler for Client {
    fn get_info(&self) -> sdk::ClientConfig {
        let capabilities: sdk::ClientCapabilities =
            serde_json::from_value(serde_json::json!({"elicitation": {"form": {}}})).unwrap();
        sdk::InitializeRequestParams::new(capabilities, sdk::Implementation::new("t", "0"))
            .with_protocol_version(sdk::ProtocolVersion::V_2026_07_28)
    }
}

/// A 2026-07-28 session (no handshake: each end starts knowing the other), on this thread.
fn session() -> RunningService<RoleClient, Client> {
    let seal = RequestStateSeal::generated().unwrap();
    let server = Server {
        tool_router: Server::tool_router(),
    };
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server_info = server.get_info();
    let running = Elicitation::new(seal)
        .serve_directly(server, server_io, Some(Client.get_info()))
        .unwrap();
    tokio::spawn(async move {
        let _ = running.waiting().await;
    });
    serve_directly::<RoleClient, _, _, _, _>(Client, client_io, Some(server_info.into()))
}

fn call(tool: &'static str) -> sdk::CallToolRequestParams {
    let arguments = serde_json::json!({"pad": vec![0; 1000]});
    sdk::CallToolRequestParams::new(tool).with_arguments(arguments.as_object().unwrap().clone())
}

// Current-thread runtime: the server's tasks run on this thread, where the count is kept.
#[tokio::test]
async fn a_tool_that_does_not_take_an_ask_stops_paying_for_the_binding() {
    let client = session();
    let before = bindings_computed();
    for _ in 0..3 {
        let response = client.call_tool_once(call("plain")).await.unwrap();
        assert!(matches!(response, sdk::CallToolResponse::Complete(_)));
    }
    // The first call cannot know the method's signature yet; the later ones do.
    assert_eq!(bindings_computed() - before, 1);
}

#[tokio::test]
async fn a_tool_that_asks_binds_its_first_round_and_each_retry_once() {
    let client = session();
    let before = bindings_computed();
    let response = client.call_tool_once(call("asking")).await.unwrap();
    let sdk::CallToolResponse::InputRequired(asked) = response else {
        panic!("the tool asks: {response:?}")
    };
    assert_eq!(
        bindings_computed() - before,
        1,
        "bound before the method took the arguments"
    );
    let answer = serde_json::json!({"guest": {"action": "accept", "content": {"name": "Ada"}}});
    let retry = call("asking")
        .with_request_state(asked.request_state.unwrap())
        .with_input_responses(serde_json::from_value(answer).unwrap());
    let response = client.call_tool_once(retry).await.unwrap();
    assert!(
        matches!(response, sdk::CallToolResponse::Complete(_)),
        "{response:?}"
    );
    assert_eq!(
        bindings_computed() - before,
        2,
        "the retry binds once, to open"
    );
}
