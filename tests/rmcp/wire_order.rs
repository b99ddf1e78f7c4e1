//! What a client of an rmcp server receives, byte for byte: a form's properties in declaration
//! order. Clients render fields in the order received, so a form sorted by name on its way
//! through rmcp would reach every user scrambled.
//!
//! The client here is raw JSON-RPC over an in-memory duplex, not rmcp's: rmcp's client would
//! parse the request into its own model before the test saw it.

use elicit_mcp::rmcp::ElicitPeer;
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::ServerHandler;
use rmcp::ServiceExt;
use rmcp::model as sdk;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Declared in an order that is not alphabetical, with a name that sorts first last.
#[derive(Debug, Elicit)]
#[allow(dead_code)] // only the recipient is read back
#[elicit(message = "Where should the parcel go?", rename_all = "camelCase")]
struct Parcel {
    zulu_recipient: String,
    #[elicit(pattern = "^[0-9]{5}$")]
    postcode: String,
    mike_speed: Speed,
    #[elicit(minimum = 1, maximum = 9)]
    alpha_parcels: u8,
    bravo_gift: bool,
}

#[derive(Debug, Elicit)]
#[elicit(rename_all = "lowercase")]
enum Speed {
    Standard,
    Express,
}

struct Shop;

impl ServerHandler for Shop {
    fn get_info(&self) -> sdk::ServerConfig {
        sdk::InitializeResult::new(sdk::ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: sdk::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        let reply = match context.ask().form::<Parcel>().await {
            Ok(ElicitOutcome::Accepted(parcel)) => format!("sending to {}", parcel.zulu_recipient),
            Ok(_) => "nothing sent".to_owned(),
            Err(error) => return Ok(error.to_tool_result().into()),
        };
        Ok(sdk::CallToolResult::success(vec![sdk::ContentBlock::text(reply)]).into())
    }
}

/// The position of each name in `text`, which must hold all of them.
fn positions(text: &str, names: &[&str]) -> Vec<usize> {
    names
        .iter()
        .map(|name| {
            text.find(&format!("\"{name}\":"))
                .unwrap_or_else(|| panic!("`{name}` is not in {text}"))
        })
        .collect()
}

#[tokio::test]
async fn an_rmcp_client_receives_the_properties_in_declaration_order() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move {
        let running = Shop.serve(server_io).await.expect("the server starts");
        running.waiting().await.expect("the server ends cleanly")
    });
    let (from_server, mut to_server) = tokio::io::split(client_io);
    let mut lines = BufReader::new(from_server).lines();
    let mut send = async |message: Value| {
        to_server
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    };

    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "raw", "version": "0"}
        }}),
    )
    .await;
    let initialized = lines
        .next_line()
        .await
        .unwrap()
        .expect("an initialize result");
    assert!(initialized.contains("\"2025-11-25\""), "{initialized}");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "ship", "arguments": {}}}))
    .await;

    let request = lines
        .next_line()
        .await
        .unwrap()
        .expect("an elicitation/create");
    assert!(
        request.contains("\"method\":\"elicitation/create\""),
        "{request}"
    );
    let declared = [
        "zuluRecipient",
        "postcode",
        "mikeSpeed",
        "alphaParcels",
        "bravoGift",
    ];
    let at = positions(&request, &declared);
    assert!(
        at.windows(2).all(|pair| pair[0] < pair[1]),
        "the properties reached the client out of declaration order: {request}"
    );
    // The keys of each property keep the spec's order too, and the pattern is sent.
    let postcode = &request[at[1]..at[2]];
    assert!(
        postcode.starts_with(
            r#""postcode":{"type":"string","title":"Postcode","pattern":"^[0-9]{5}$"}"#
        ),
        "{postcode}"
    );
    // The whole schema, as the derive wrote it.
    assert!(
        request.contains(Parcel::requested_schema_json()),
        "{request}"
    );

    let id: Value = serde_json::from_str::<Value>(&request).unwrap()["id"].clone();
    send(json!({"jsonrpc": "2.0", "id": id, "result": {"action": "cancel"}})).await;
    let result = lines.next_line().await.unwrap().expect("the tool's result");
    assert!(result.contains("nothing sent"), "{result}");

    drop(lines);
    server.abort();
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`).
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(Parcel);
}
