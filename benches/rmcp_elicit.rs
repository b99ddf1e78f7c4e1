//! The typed form call of `elicit_mcp::rmcp::ElicitPeer` next to rmcp's own `Peer::elicit::<T>()`,
//! on the same form, over the same in-memory duplex, against the same client answering the
//! same content: each call is one whole `elicitation/create` round trip.
//!
//! What differs is only each side's own work: elicit sends the derived schema (a static) and
//! validates the reply with the derived parser; rmcp generates the schema with schemars on
//! every call, converts it into its model, and deserializes the reply with serde, unvalidated.
//! Fair because both calls start from nothing but the peer, go through the same transport to
//! the same client, and their outcome is dropped inside the timing.
//!
//! The two alternate round by round within one run (see `common/mod.rs`); the figure is the
//! median of several runs with their spread, from this run's samples only.
//!
//! Run with `cargo bench --bench rmcp_elicit`.

#[path = "common/mod.rs"]
mod common;

use common::{Comparison, Plan, compare, timed};
use elicit_mcp::ElicitOutcome;
use elicit_mcp::rmcp::ElicitPeer;
use rmcp::model as sdk;
use rmcp::service::{Peer, RequestContext, RoleClient, RoleServer, RunningService};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};
use serde_json::Value;

#[path = "forms/signup.rs"]
mod signup;

use signup::{Signup, SignupSchemars, answer};

/// A client that accepts every form with the same content.
#[derive(Clone)]
struct Accepting(Value);

impl ClientHandler for Accepting {
    fn get_info(&self) -> sdk::ClientConfig {
        sdk::InitializeRequestParams::new(
            sdk::ClientCapabilities::builder()
                .enable_elicitation()
                .build(),
            sdk::Implementation::new("bench-client", "0.0.0"),
        )
        .with_protocol_version(sdk::ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        _request: sdk::ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<sdk::ElicitResult, sdk::ErrorData> {
        Ok(sdk::ElicitResult::new(sdk::ElicitationAction::Accept).with_content(self.0.clone()))
    }
}

#[derive(Clone)]
struct Server;

impl ServerHandler for Server {}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let (server, _client): (
        RunningService<RoleServer, Server>,
        RunningService<RoleClient, Accepting>,
    ) = runtime.block_on(async {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let (server, client) = tokio::join!(
            Server.serve(server_io),
            Accepting(answer()).serve(client_io)
        );
        (server.expect("server"), client.expect("client"))
    });
    let peer: Peer<RoleServer> = server.peer().clone();

    // Both calls must succeed on this content, or the bench compares failures.
    let ours = runtime.block_on(peer.ask().form::<Signup>().into_future());
    assert!(
        matches!(ours, Ok(ElicitOutcome::Accepted(_))),
        "elicit: {ours:?}"
    );
    let theirs = runtime.block_on(peer.elicit::<SignupSchemars>("Sign up"));
    assert!(matches!(theirs, Ok(Some(_))), "rmcp: {theirs:?}");

    compare(
        "rmcp_elicit",
        Plan {
            runs: 7,
            rounds: 41,
            batch: 50,
        },
        &["elicit ask().form::<T>()", "rmcp elicit::<T>()"],
        vec![
            timed(|| runtime.block_on(peer.ask().form::<Signup>().into_future())),
            timed(|| runtime.block_on(peer.elicit::<SignupSchemars>("Sign up"))),
        ],
        &[Comparison {
            label: "elicit / rmcp",
            ours: 0,
            theirs: 1,
        }],
    );
}
