//! Elicitation on [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK (feature `rmcp`).
//!
//! - [`ElicitPeer`], on `Peer<RoleServer>` and `RequestContext<RoleServer>`: the typed form call
//!   (`context.elicit_form::<T>()`), which checks the client's declared modes, sends the derived
//!   schema and gives the reply validated by the derived parser, defaults applied; the URL-mode
//!   call wired to the [`ElicitationTracker`](crate::server::ElicitationTracker); the -32042
//!   error and the `notifications/elicitation/complete` notification, which rmcp 3 no longer
//!   ships, sent as the spec writes them.
//! - [`ElicitError`], which keeps every field error and turns into an error tool result or an
//!   rmcp `ErrorData`.
//! - Conversions both ways between this crate's model and rmcp's (`From`/`TryFrom` on the
//!   types themselves): `RequestedSchema` and `ElicitationSchema`, the request params, the
//!   result, the capability, the -32042 error, the notification. See the `convert` notes below.
//! - One handler for both protocol revisions: [`Rounds`] runs a handler that asks through
//!   [`Ask`], by `elicitation/create` on 2025-11-25 and by input-required results on
//!   2026-07-28, its `requestState` sealed by [`RequestStateSeal`], URL mode included
//!   ([`Ask::url`]: the tracker's elicitation, completed out of band, on either revision); the
//!   single-round helpers [`input_required`] and [`form_input_response`].
//!
//! # Example
//!
//! Two tool bodies: one asks for a form, the other needs the user to connect an account in the
//! browser first (URL mode). Call them from your tools (`#[tool]` methods of rmcp's
//! `#[tool_router]`, or your own `ServerHandler::call_tool`). The repository's
//! `examples/stdio_server.rs` and `examples/url_mode_server.rs` are whole servers built this way.
//!
//! ```no_run
//! use elicit_mcp::rmcp::{ConnectionPeers, ElicitPeer};
//! use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UserId};
//! use elicit_mcp::{Elicit, ElicitOutcome};
//! use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
//! use rmcp::service::{RequestContext, RoleServer};
//!
//! #[derive(Elicit, Debug)]
//! #[elicit(message = "Where should we ship your order?", rename_all = "camelCase")]
//! struct Shipping {
//!     #[elicit(min_length = 2)]
//!     recipient: String,
//!     #[elicit(pattern = "^[0-9]{5}$")]
//!     postcode: String,
//!     #[elicit(default = false)]
//!     gift_wrap: bool,
//! }
//!
//! // Form mode: the typed answer, checked against the form; field errors go back to the model.
//! async fn ship(context: RequestContext<RoleServer>) -> CallToolResult {
//!     let reply = match context.elicit_form::<Shipping>().await {
//!         Ok(ElicitOutcome::Accepted(to)) => format!("shipping to {} at {}", to.recipient, to.postcode),
//!         Ok(ElicitOutcome::Declined | ElicitOutcome::Cancelled) => "nothing shipped".to_owned(),
//!         Err(error) => return error.to_tool_result(),
//!     };
//!     CallToolResult::success(vec![ContentBlock::text(reply)])
//! }
//!
//! // URL mode: the tool cannot run until the user has connected their account, so it answers
//! // -32042; the client shows the URL and retries once the elicitation completes.
//! async fn list_files(
//!     context: RequestContext<RoleServer>,
//!     tracker: &ElicitationTracker,
//!     peers: &ConnectionPeers,
//!     session_id: &str,
//!     verified_subject: &str, // from the server's own check of the user's credentials
//! ) -> Result<CallToolResult, ErrorData> {
//!     let connection = ConnectionId::new(session_id);
//!     peers.register(connection.clone(), context.peer.clone());
//!     let user = UserId::from_verified_subject(verified_subject)
//!         .map_err(|e| ErrorData::invalid_request(e.to_string(), None))?;
//!     let initiator = Initiator::new(user, connection);
//!     Err(context.url_elicitation_required(
//!         tracker,
//!         &initiator,
//!         "Authorization is required to access your files.",
//!         |id| format!("https://mcp.example.com/connect?elicitationId={id}"),
//!         "This request requires more information.",
//!     ).await?)
//! }
//!
//! // The connect page, once the browser's session says who the user is: only the user who
//! // started the elicitation completes it, and only their connection hears of it.
//! async fn connect_page_done(
//!     tracker: &ElicitationTracker,
//!     peers: &ConnectionPeers,
//!     elicitation_id: &str,
//!     browser_user: &UserId,
//! ) -> Result<(), Box<dyn std::error::Error>> {
//!     let completed = tracker.complete(elicitation_id, browser_user).await?;
//!     peers.notify(&completed).await?;
//!     Ok(())
//! }
//! ```
//!
//! # Protocol versions
//!
//! rmcp 3 knows protocol 2026-07-28 as its latest, and there a server may not send requests
//! to the client: `elicitation/create` is refused, and a tool asks through an input-required
//! result instead. Elicitation as requests needs a 2025-11-25 session, which is what an rmcp
//! client gets over the `initialize` handshake: 2026-07-28 has no handshake, so a server
//! answers `initialize` with the newest version that has one. A client states it outright in
//! its `ClientHandler::get_info`, with
//! `InitializeRequestParams::with_protocol_version(ProtocolVersion::V_2025_11_25)`, and a server
//! that serves only that revision returns
//! `ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25)` from
//! `supported_protocol_versions`. The typed calls check the session first and fail with
//! [`ElicitError::RequestsNotAllowed`] on 2026-07-28; [`ElicitPeer::server_requests_allowed`]
//! tells a tool which flow to take. The derived types are the same in both, and [`Rounds`] runs
//! one handler on either.
//!
//! # Conversions
//!
//! Each conversion is exact or refuses ([`UnrepresentableError`] names what rmcp cannot hold: a
//! string `pattern`, a length past `u32`, an integer past what a double holds in a `number`
//! schema, capability members other than `form.schemaValidation`). rmcp to elicit goes
//! through the same checks as a schema read from the wire. `required` is compared as the set it
//! is, and rmcp writes a `number` schema's integral bounds as `30.0`.
//!
//! # On the wire
//!
//! The typed calls send `elicitation/create` as elicit writes it, through rmcp's custom-request
//! path (rmcp's own `ElicitRequestParams` has no `pattern`), so any client gets the whole
//! schema; rmcp still gates, numbers and times the request as its own. An rmcp-based client
//! reads the request into rmcp's model and so does not see `pattern`; the derived parser checks
//! it in the reply all the same.
//!
//! rmcp serializes every request's params through `serde_json::Value` (to merge `_meta`), so
//! the properties would reach the client in the order of serde_json's map, which is by name
//! unless serde_json's `preserve_order` feature is on. Clients render fields in the order
//! received, so the feature `rmcp` turns `preserve_order` on: a form's properties reach the
//! client in declaration order (`tests/rmcp_wire_order.rs` checks the bytes a raw client
//! receives). The cost is program-wide: `serde_json::Map` keeps insertion order (an `IndexMap`)
//! everywhere in a program that enables `rmcp`. Equality of maps does not depend on order.
//! The input-required flow must go through rmcp's model: there, patterns are not sent.

mod convert;
mod input;
mod peer;
mod rounds;

pub use convert::{InvalidResultError, NotElicitationCompleteError, UnrepresentableError};
pub use peer::{ConnectionPeers, ElicitError, ElicitPeer, UrlElicitation};
pub use rounds::{
    Ask, FormAsk, MISSING_REQUIRED_CLIENT_CAPABILITY, ReplayGuard, RequestStateSeal, Rounds,
    SealKeyError, UrlOutcome,
};
