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
//! # A server over stdio
//!
//! A `#[tool]` method takes an [`Ask`] next to its `Parameters<T>` and asks with
//! `ask.form::<T>().await`. The server is a plain rmcp `ServerHandler`; what must outlive a
//! request is built once, in one [`Elicitation`]: the key that seals `requestState`, who the user
//! is, the tools that run as tasks, URL mode, the limits of a call. It serves the handler, and
//! every session (or 2026-07-28 request) gets a handle to that one value, so nothing can be built
//! per session by mistake. A server over stdio, used by the person who started it, needs:
//!
//! ```toml
//! [dependencies]
//! elicit-mcp = { version = "0.1", features = ["rmcp"] }
//! rmcp = { version = "3.11", features = ["server", "macros", "transport-io"] }
//! tokio = { version = "1", features = ["macros", "rt-multi-thread", "io-std"] }
//! serde = { version = "1", features = ["derive"] }
//! ```
//!
//! ```no_run
//! use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal};
//! use elicit_mcp::server::UserId;
//! use elicit_mcp::{Elicit, ElicitOutcome};
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::handler::server::wrapper::Parameters;
//! use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
//! use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
//!
//! #[derive(Elicit, Debug)]
//! #[elicit(message = "Where and when would you like to stay?", rename_all = "camelCase")]
//! struct Stay {
//!     #[elicit(format = "date")]
//!     check_in: String,
//!     #[elicit(minimum = 1, maximum = 30, default = 1)]
//!     nights: u8,
//! }
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct Hotel {
//!     /// Which hotel
//!     name: String,
//! }
//!
//! #[derive(Clone)]
//! struct Bookings {
//!     tool_router: ToolRouter<Bookings>,
//! }
//!
//! #[tool_router]
//! impl Bookings {
//!     #[tool(description = "Books a stay; asks the user for the dates")]
//!     async fn book(
//!         &self,
//!         Parameters(hotel): Parameters<Hotel>,
//!         ask: Ask,
//!     ) -> Result<CallToolResult, ErrorData> {
//!         // A wrong answer is asked again by itself (the errors in the message, the right answers
//!         // kept); a client that cannot show forms gets -32021; the rest goes to the model.
//!         let stay = match ask.form::<Stay>().await {
//!             Ok(ElicitOutcome::Accepted(stay)) => stay,
//!             Ok(_) => return Ok(CallToolResult::success(vec![ContentBlock::text("no booking")])),
//!             Err(error) => return error.into_call_result(),
//!         };
//!         let reply = format!("{} nights at {} from {}", stay.nights, hotel.name, stay.check_in);
//!         Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
//!     }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Bookings {}
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // One process: a sealing key of its own (replicas: `RequestStateSeal::from_keyring`),
//!     // and over stdio the local user, said once.
//!     let elicitation = Elicitation::new(RequestStateSeal::generated()?)
//!         .with_local_user(UserId::from_verified_subject("local")?);
//!     let server = Bookings { tool_router: Bookings::tool_router() };
//!     elicitation.serve(server, rmcp::transport::stdio()).await?.waiting().await?;
//!     Ok(())
//! }
//! ```
//!
//! [`examples/stdio_server.rs`](https://github.com/elicit-rs/elicit/blob/main/examples/stdio_server.rs)
//! is a whole server written this way. Prompts work the same (`#[prompt]` methods take an `Ask`,
//! with rmcp's `#[prompt_handler]`), and a hand-written `call_tool`, `get_prompt` or
//! `read_resource` finds its call's ask with [`Ask::current`]. Code that holds a 2025-11-25
//! session's peer rather than running in a call gets an `Ask` from [`ElicitPeer::ask`]. Over
//! streamable HTTP, the `http` module's `Guard` serves the same `Elicitation` (feature `http`;
//! its module page has a whole server).
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
//! What the same method does on each revision:
//!
//! | | 2025-11-25 session | 2026-07-28 request |
//! |---|---|---|
//! | a form goes out as | `elicitation/create`, answered within the call | an entry of the `InputRequiredResult`'s `inputRequests`, under the form's `Elicit::INPUT_KEY`: the type's name in snake case (`Stay`: `stay`), computed at compile time, or its `#[elicit(key = "..")]` |
//! | the method | runs once | runs again from the start on each retry; answered asks return at once, so it must ask in the same order each run; work before an ask goes in `ask.step(..)` (below) |
//! | `ask.forms::<A, B>()` | two requests, sent together | both in one round |
//! | a wrong answer | asked again by itself: the errors in the message, the right answers shown as defaults (`FormAsk::with_reask(false)` or `Elicitation::with_reask(false)` to get `ElicitError::InvalidContent` instead); at most `Elicitation::with_max_asks` times, then `ElicitError::TooManyAsks` | the same; each re-ask in a round of its own, under `KEY-2`, `KEY-3`, … |
//! | a field left out of an answer | takes the default the form showed: the type's `#[elicit(default = ..)]`, a run-time default, or the user's own earlier answer that a re-ask kept | the same, whenever the answer comes back |
//! | a boolean left out (hosts draw a box, and some leave an unticked box out, as HTML forms do) | its default, when the form showed one; `None` for an `Option<bool>`; otherwise the form is asked again, naming it in words ("Newsletter was left out: tick it for yes, or leave it unticked for no") and showing it with a default of `false`, so that a host that leaves the box out again answers `false` | the same, and inside tasks |
//! | a method that answers with its own `InputRequiredResult` | its input requests go out as requests on the session, and it runs again with the answers | goes to the client as it is |
//! | between rounds | nothing to keep | the answers so far (only the action and the fields each form reads), the steps' results, the keys asked in order, in `requestState`, sealed by `RequestStateSeal` |
//! | input keys | none on the wire; the same checks | unique in the call: two asks under one key are `ElicitError::DuplicateKey`, before the second is sent; a retry that asks in another order than the run before is `ElicitError::AskedOutOfOrder`, the handler's mistake |
//! | a client without form mode | `ElicitError::ModeNotSupported` to the method, nothing sent | the same; let through (`?`, `into_call_result`) it is -32021 with `requiredCapabilities` |
//! | `ask.url(message, url)` | `elicitation/create` in URL mode with its `elicitationId`; on consent the call waits until the tracker completes it (`Elicitation::notify_completed` sends the notification) | the URL request with the tracker's `elicitationId`; after consent each retry waits up to `Elicitation::with_url_hold` and answers a state-only `InputRequiredResult` until the tracker completes it, then the method goes on; no notification. The step waits by time (`Elicitation::with_url_wait`, 5 minutes), not by a count of rounds |
//! | `ask.sample` / `ask.roots` without `sampling` / `roots` declared | `ElicitError::CapabilityNotDeclared`, nothing sent | the same (-32021 when let through) |
//! | `pattern` of a string field | sent (elicit writes the request) | not sent: the input request goes through rmcp's model, which has no `pattern`; the server still checks it in the answer |
//! | how long a form waits | `Elicitation::with_timeout` (10 minutes by default), or `.with_timeout(..)` on the ask; then `ElicitError::TimedOut`, and rmcp cancels the request. While it waits, a call with a `progressToken` hears every 10 seconds that the server waits for the user; the client's `notifications/cancelled` withdraws the ask (`ElicitError::CallCancelled`) | the client holds the form; the state's TTL bounds the wait |
//!
//! What one call may cost is bounded: one form is asked at most `Elicitation::with_max_asks` times
//! (5; then `ElicitError::TooManyAsks`), a call takes at most `Elicitation::with_max_rounds` rounds
//! (16; then -32600 naming what it still waits for; rounds that only wait for a URL-mode step do
//! not count), and a sealed state at most `Elicitation::with_max_state_bytes` (64 KiB).
//!
//! `requestState` comes back from the client, so it is attacker input, and it carries the user's
//! earlier answers, which the client must not read. [`RequestStateSeal`] encrypts and
//! authenticates it with XChaCha20-Poly1305 (a random nonce per state, its expiry inside: 10
//! minutes unless `with_ttl` says otherwise, under the sealing key of a keyring for rotation) and
//! binds it, as associated data, to the method, the tool, prompt or resource, its arguments and
//! the request's user; `single_use()` refuses a state opened before in this process, and
//! `with_replay_guard(redis_store)` one opened before on any replica sharing that Redis. Forged,
//! tampered, expired, foreign or replayed state gets -32602. For replicas,
//! `RequestStateSeal::from_keyring(signing, keys)` with the same keys everywhere, read from
//! configuration by `RequestStateSeal::parse_keyring("new:HEX,old:HEX")`; `key_ids()` names them
//! (never the keys) for a start-up line.
//!
//! **Work before an ask runs once.** On 2026-07-28 the retry runs the method again from the start,
//! so an order placed before the first ask would be placed on every round. Put such work in a step:
//! `let reservation: u64 = ask.step(|| async { reserve().await }).await?;` runs `reserve` on the
//! first run, seals its result (`Serialize + DeserializeOwned`, counted against the state's size
//! limit) into the round's state, and hands it back on the retries without running it again. A
//! replay whose asks and steps differ from the recorded ones is `ElicitError::AskedOutOfOrder`; on
//! 2025-11-25 and inside a task the step simply runs.
//!
//! # Asking inside a task
//!
//! A tool whose work takes minutes runs as a task (the extension `io.modelcontextprotocol/tasks`,
//! SEP-2663): `tools/call` answers a `CreateTaskResult` at once, the method runs in the
//! background, and the client polls `tasks/get`. Name the tools in [`Tasks`] (rmcp's
//! `TaskManager` underneath) and give it to the `Elicitation` (`with_tasks`, as in the `http`
//! module's server): it then declares the extension, answers `tasks/get`, `tasks/update` and
//! `tasks/cancel` itself, and only for the user who created the task (another user's `tasks/*`
//! is "unknown task"). The method asks through the same `Ask`, with the same typed outcomes and
//! errors as in a call; inside a task each ask is an input request of the task, on either
//! protocol revision:
//!
//! | | in a call | inside a task |
//! |---|---|---|
//! | an ask goes out as | `elicitation/create` (2025-11-25) or an input request of the round (2026-07-28) | an entry of the task's `inputRequests` in `tasks/get`, under its input key; the task is `input_required` exactly while an ask waits, `working` otherwise |
//! | the answer comes back | in the call, or on the retry | by `tasks/update`, to the method's live future: no replay, nothing sealed |
//! | `ask.forms::<A, B>()` | together | both keys pending at once; a `tasks/update` with one answer keeps the other pending |
//! | a wrong answer | asked again, the right answers kept as defaults | the same, under a fresh key (`KEY-2`, …) |
//! | `.with_timeout(..)` on an ask | `ElicitError::TimedOut`, the request cancelled | the same; the ask is withdrawn from `inputRequests` |
//! | how long an ask waits | `Elicitation::with_timeout` (2025-11-25) or the state's TTL (2026-07-28) | the task's TTL (`Tasks::with_options`, rmcp's default 5 minutes): give a task that asks a TTL that covers the user |
//! | `tasks/cancel` while an ask waits | – | the ask gives `ElicitError::TaskCancelled`, the method's future is dropped, the task settles `cancelled` |
//! | `ask.url(..)` | see above | the consent is an input request (with its `elicitationId`); after it the task is `working`, its status message saying it waits for the user's step, until the tracker completes the elicitation or it expires |
//!
//! A client that did not declare the extension (for its session, or for the one request in
//! `_meta`) never gets a task: a plain call from an `optional` tool, and -32021 naming the
//! extension from a `required` one and from `tasks/*`. A method may also ask in input-required
//! rounds first and continue as a task once it has what it needs: declare the tool with
//! `Tasks::required_after_asks` (or `optional_after_asks`) and call `ask.continue_as_task().await?`
//! where the long work starts; the task runs the method again with the answers and steps the rounds
//! gathered.
//!
//! **Several replicas.** A task runs in the replica that answered its `tools/call` (rmcp's
//! `TaskManager` is in-process). Without more, only that replica knows it: another answers -32602
//! (unknown task). `Tasks::shared(redis_store, replica)` (feature `redis`) shares them: the running
//! replica writes each task's state to Redis as it changes (at most 50 ms behind, at once for an
//! update or a cancellation), so any replica answers `tasks/get`, result included; a
//! `tasks/update` or `tasks/cancel` that reaches another replica is published to the running one
//! and acknowledged once the state it led to is in Redis (else a retryable error, never an
//! answer acknowledged and lost); each replica beats in Redis, and a task whose
//! replica missed its lease (`Tasks::with_lease`, 15 s by default) is failed by the next replica
//! asked, its status message saying which replica stopped. A task is created only once Redis took
//! it: Redis unreachable, the call gets a retryable error within the store's timeout. The load
//! balancer then routes nothing by task id. What still needs a sticky session: a 2025-11-25
//! session (its `Mcp-Session-Id`), whose event stream and pending requests live in the replica
//! that holds it; 2026-07-28 requests carry everything they need. The `server` module's "Running
//! several replicas" shows the set-up.
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
//! A number written into a sealed `requestState` reads as the same number the next round: this
//! crate always turns on serde_json's `float_roundtrip` (by default serde_json reads some of
//! the floats it writes as their neighbour); it too is program-wide, and makes parsing a float
//! about twice as slow.
//! The input-required flow goes through rmcp's model: there, patterns are not sent (the
//! server still checks them in the answer).

pub(crate) mod ask;
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
pub(crate) mod request;
mod requests;
pub(crate) mod rounds;
mod running;
mod served;
mod session;
mod task;
mod tasks;
#[cfg(feature = "url-mode")]
mod tracking;
mod waiting;

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
pub use rounds::{ParsedKeyring, RequestStateSeal, SealKeyError};
#[cfg(feature = "http")]
pub(crate) use served::Serving;
pub use served::{Elicited, ServeError};
pub use tasks::{TaskSetupError, TaskSupport, Tasks};
