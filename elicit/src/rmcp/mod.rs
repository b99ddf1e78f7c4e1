//! Elicitation on [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK (feature `rmcp`).
//!
//! - [`Elicitation`], built once per process: the key that seals 2026-07-28 `requestState`
//!   ([`RequestStateSeal`]), who the user is ([`Elicitation::with_local_user`], or
//!   `with_authentication` over HTTP), the tools that run as tasks ([`Tasks`]), URL mode
//!   (`with_url_mode`) and the limits of a call. It serves an rmcp `ServerHandler`
//!   ([`Elicitation::serve`], or `elicit_mcp::http::Guard::serve` over streamable HTTP) as an
//!   [`Elicited`] handler, and every session gets a handle to the same value.
//! - [`Ask`]: the one way a handler asks the user, on both protocol revisions: a form
//!   ([`Ask::form`], [`Ask::form_with_message`], options on the [`FormAsk`]: a key, a re-ask
//!   after field errors, a timeout), two forms in one round ([`Ask::forms`]), work that runs
//!   once in a call ([`Ask::step`]), URL mode (`Ask::url`, with `url-mode`), and the other
//!   input requests of 2026-07-28 ([`Ask::sample`], [`Ask::roots`]). A `#[tool]` or
//!   `#[prompt]` method takes it as a parameter; a hand-written handler calls
//!   [`Ask::current`].
//! - [`ElicitError`], the same on both revisions, which turns into an error tool result or an
//!   rmcp `ErrorData` ([`ElicitError::into_call_result`] does the usual).
//! - [`ElicitPeer`], on `Peer<RoleServer>` and `RequestContext<RoleServer>`: what the client
//!   declared, the `notifications/elicitation/complete` notification, which rmcp 3 no longer
//!   ships, sent as the spec writes it, and [`ElicitPeer::ask`] for code outside a call; with
//!   `url-mode`, `ElicitUrlPeer` on the same types: the URL-mode calls wired to the
//!   `ElicitationTracker`, and the -32042 error.
//! - Conversions both ways between this crate's model and rmcp's (`From`/`TryFrom` on the
//!   types themselves): `RequestedSchema` and `ElicitationSchema`, the request params, the
//!   result, the capability, the -32042 error, the notification. See the `convert` notes below.
//!
//! Each revision's way of asking is a module of its own behind one trait, decided once per
//! call: `elicitation/create` requests inside the call (2025-11-25), input-required rounds
//! (2026-07-28), and a task's input requests. `ARCHITECTURE.md` in the repository follows one
//! ask along each.
//!
//! # Example
//!
//! [`Elicitation`] shows a whole server of `#[tool]` methods. URL mode asks the same way on
//! both revisions; the tracker binds the elicitation to the request's user, and the connect
//! page completes it (with `url-mode`, a default feature):
//!
//! ```no_run
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::rmcp::{Ask, Elicitation, UrlOutcome};
//! use elicit_mcp::server::{ElicitationTracker, UserId};
//! use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
//!
//! async fn connect(ask: Ask) -> Result<CallToolResult, ErrorData> {
//!     let outcome = ask
//!         .url("Connect your account.", |id| {
//!             format!("https://mcp.example.com/connect?elicitationId={id}")
//!         })
//!         .await;
//!     let reply = match outcome {
//!         Ok(UrlOutcome::Completed(_)) => "connected".to_owned(),
//!         Ok(_) => "not connected".to_owned(),
//!         Err(error) => return error.into_call_result(),
//!     };
//!     Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
//! }
//!
//! // The connect page, once the browser's session says who the user is: only the user who
//! // started the elicitation completes it, and the session that started it hears so.
//! async fn connect_page_done(
//!     elicitation: &Elicitation,
//!     tracker: &ElicitationTracker,
//!     elicitation_id: &str,
//!     browser_user: &UserId,
//! ) -> Result<(), Box<dyn std::error::Error>> {
//!     let completed = tracker.complete(elicitation_id, browser_user).await?;
//!     elicitation.notify_completed(&completed).await?;
//!     Ok(())
//! }
//! # }
//! ```
//!
//! # Protocol versions
//!
//! rmcp 3 knows protocol 2026-07-28 as its latest, and there a server may not send requests
//! to the client: `elicitation/create` is refused, and a tool asks through an input-required
//! result instead, which the [`Elicitation`] does. Over the `initialize` handshake (which
//! 2026-07-28 no longer has) an rmcp server answers with the newest revision that has one,
//! 2025-11-25, where elicitation is a request; a client that negotiates by `server/discover`
//! lands on 2026-07-28. No pinning is needed: the same methods serve both.
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
//! On 2025-11-25, an ask sends `elicitation/create` as elicit writes it, through rmcp's custom-request
//! path (rmcp's own `ElicitRequestParams` has no `pattern`), so any client gets the whole
//! schema; rmcp still gates, numbers and times the request as its own. An rmcp-based client
//! reads the request into rmcp's model and so does not see `pattern`; the derived parser checks
//! it in the reply all the same.
//!
//! rmcp serializes every request's params through `serde_json::Value` (to merge `_meta`), so
//! the properties would reach the client in the order of serde_json's map, which is by name
//! unless serde_json's `preserve_order` feature is on. Clients render fields in the order
//! received, so the feature `rmcp` turns `preserve_order` on: a form's properties reach the
//! client in declaration order (`tests/rmcp/wire_order.rs` checks the bytes a raw client
//! receives). The cost is program-wide: `serde_json::Map` keeps insertion order (an `IndexMap`)
//! everywhere in a program that enables `rmcp`. Equality of maps does not depend on order.
//! The input-required flow goes through rmcp's model: there, patterns are not sent (the
//! server still checks them in the answer).

mod ask;
mod askable;
// Who the user of an HTTP request is: rmcp's `Elicitation` holds the check, and the HTTP guard
// (`crate::http`, which re-exports it) runs it.
#[cfg(feature = "http")]
pub(crate) mod authenticate;
mod call;
#[cfg(feature = "url-mode")]
mod connections;
mod convert;
mod elicitation;
mod error;
mod input;
mod peer;
mod request;
mod requests;
mod rounds;
mod running;
mod served;
mod session;
mod task;
mod tasks;
#[cfg(feature = "url-mode")]
mod tracking;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use ask::UrlOutcome;
pub use ask::{Ask, FormAsk};
pub use askable::AskableForm;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use connections::ConnectionPeers;
pub use convert::{InvalidResultError, NotElicitationCompleteError, UnrepresentableError};
pub use elicitation::{Elicitation, SetupError};
pub use error::ElicitError;
pub use peer::ElicitPeer;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use peer::{ElicitUrlPeer, UrlElicitation};
pub use rounds::{RequestStateSeal, SealKeyError};
#[cfg(feature = "http")]
pub(crate) use served::Serving;
pub use served::{Elicited, ServeError};
pub use tasks::{TaskSetupError, TaskSupport, Tasks};
