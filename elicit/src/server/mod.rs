//! The server side of URL mode: the URL checks before sending, the `ElicitationTracker` that
//! binds each URL elicitation to its user and completes it only for that user, and the lint for
//! links in form-mode requests. All of it but the lint and who a request stands for comes with
//! the feature `url-mode` (a default feature).
//!
//! The tracker keeps pending elicitations in an `ElicitationStore`: `MemoryStore` for one
//! process, or `RedisStore` (feature `redis`) for a server running as several replicas, which
//! also routes each completion to the replica holding the session that started it.
//!
//! The pattern "this tool call needs third-party authorization first":
//!
//! ```
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::wire::{ElicitationCapability, JsonRpcError, UrlElicitationRequiredError};
//! use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let tracker = ElicitationTracker::new(UrlPolicy::production());
//! let client = ElicitationCapability::form_and_url();
//! let initiator = Initiator::new(
//!     UserId::from_verified_subject("alice-sub").unwrap(),
//!     ConnectionId::new("session-1"),
//! );
//!
//! // tools/call arrives; the server holds no Example Co token for this user yet.
//! let pending = tracker
//!     .start(&initiator, Some(&client), "Authorization is required to access your Example Co files.", |id| {
//!         format!("https://mcp.example.com/connect?elicitationId={id}")
//!     })
//!     .await
//!     .unwrap();
//! let error: JsonRpcError = pending.required_error("This request requires more information.").into();
//! assert_eq!(error.code, -32042);
//!
//! // The client reads it back, shows the URL, and retries once the completion notification
//! // for every listed id has come (see `elicit_mcp::client::UrlElicitationWatch`).
//! let required = UrlElicitationRequiredError::try_from(&error).unwrap();
//! assert_eq!(required.elicitations()[0].elicitation_id(), pending.id());
//! # });
//! # }
//! ```
//!
//! # The whole flow, server and client
//!
//! elicit types both sides of URL mode with no SDK attached: the messages in `elicit_mcp::wire`,
//! the server's side here, the client's in `elicit_mcp::client` (all with the feature `url-mode`,
//! on by default). The whole flow runs on loopback in
//! [`examples/url_connect.rs`](https://github.com/elicit-rs/elicit/blob/main/examples/url_connect.rs),
//! with a connect page that refuses any user but the one who started the elicitation.
//!
//! ```
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::client::{Completion, UrlElicitationWatch, UrlReview};
//! use elicit_mcp::server::{ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId};
//! use elicit_mcp::wire::{ElicitationCapability, JsonRpcError, UrlElicitationRequiredError};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! // Server: a tool call needs the user's Example Co account first.
//! let tracker = ElicitationTracker::new(UrlPolicy::production());
//! let alice = Initiator::new(
//!     UserId::from_verified_subject("alice-sub").unwrap(), // from the server's own auth check
//!     ConnectionId::new("session-1"),
//! );
//! let declared = ElicitationCapability::form_and_url(); // what the client said at initialize
//! let pending = tracker
//!     .start(&alice, Some(&declared), "Authorization is required to access your Example Co files.", |id| {
//!         format!("https://mcp.example.com/connect?elicitationId={id}")
//!     })
//!     .await
//!     .unwrap();
//! let error: JsonRpcError = pending.required_error("This request requires more information.").into();
//!
//! // Client: read the error, show the URL, wait for completion.
//! let required = UrlElicitationRequiredError::try_from(&error).unwrap();
//! let review = UrlReview::of(&required.elicitations()[0]).unwrap();
//! assert_eq!(review.registrable_domain(), Some("example.com"));
//! let mut watch = UrlElicitationWatch::new();
//! assert_eq!(watch.retry_after("tools/call #7", &required), Ok(None));
//!
//! // Server, on its connect page: the browser's session says who this is.
//! let done = tracker.complete(pending.id().as_str(), &alice.user).await.unwrap();
//! let (to, notification) = done.notification().into_parts(); // send to `to`, and no one else
//! assert_eq!(to, alice.connection);
//!
//! // Client: the notification arrives; retry the call.
//! let Completion::Completed { ready_to_retry } = watch.on_complete(&notification) else { panic!() };
//! assert_eq!(ready_to_retry, ["tools/call #7"]);
//! # });
//! # }
//! ```
//!
//! On protocol 2026-07-28 there is no `elicitationId`, no notification and no -32042: the
//! request goes out in an `InputRequiredResult`, the client's `accept` only means consent, and
//! the server learns from the retry's `requestState` whether the step is done. With the rmcp
//! integration, `Ask::url` covers both revisions with one call and one outcome (`UrlOutcome`), on
//! the same tracker (see the `rmcp` module's "Protocol versions").
//!
//! # The security rules, and how the types enforce them
//!
//! | The spec | How elicit enforces it |
//! |---|---|
//! | Servers MUST NOT send a mode the client did not declare; `{}` means form only | `ElicitationCapability::supports(mode)` reads the capability as the spec defines it (a declared capability always supports at least one mode). `ElicitRequest::new` and `ElicitationTracker::start` take the client's capability and return an error for an undeclared mode, so such a request cannot be built. |
//! | A URL request MUST carry `message`, `url` and `elicitationId` | `ElicitRequestUrlParams` has all three, always serializes `mode: "url"`, and refuses to parse without them. A request without `mode` is form mode. |
//! | -32042 lists URL-mode elicitations with an `elicitationId`, only when one is required | `UrlElicitationRequiredError` holds a non-empty list of `ElicitRequestUrlParams`: anything else cannot be represented, and parsing a JSON-RPC error refuses it naming the entry. |
//! | The URL MUST be a valid URL; HTTPS outside development | `UrlPolicy::check` parses with the WHATWG parser (as the browser will) and requires https; `UrlPolicy::development()` also allows http on loopback hosts. Only a `CheckedUrl` can become a URL request. |
//! | No credentials, no pre-authenticated URLs, no user PII in the URL | The policy refuses userinfo, parameters named like credentials (`token`, `code`, `api_key`, `X-Amz-Signature`, `jsessionid`, ...) in the query and fragment (split at `&` and `;`) and in the path (`/go;jsessionid=ABC`), JSON Web Tokens anywhere (after a prefix such as `t-` or `Bearer ` too), email addresses, and the user's subject and whole id (the tracker passes both, also for an issuer-qualified `UserId`), in the host too. Values are percent-decoded and searched again up to 4 levels deep, so a URL nested in a parameter (`?next=%2Fcb%3Faccess_token%3Dabc`) gets the same checks; the error names what was found and where. A library cannot prove an opaque path segment harmless; these are the shapes it can tell. |
//! | State MUST be bound to the user (the authorization subject), not to the session id alone | `start` takes an `Initiator`: a `UserId` (from the server's verification of the user's credentials) and, separately, the `ConnectionId`. They are distinct types; the connection only addresses the notification. |
//! | The server MUST verify that the user completing the flow is the user who started it (phishing) | `verify` (for the connect page) and `complete` (for the final callback) take the user the browser's session identifies and refuse anyone else, leaving the elicitation pending for its owner. The repository's `tests/url/server.rs` plays the spec's attack. |
//! | Ids unique and unguessable | 128 bits from the operating system's random source (`getrandom`). |
//! | Completion once; stale links die | `complete` removes the entry atomically (one of two racing completions wins); entries expire after a time to live (10 minutes by default) and are purged. One user has at most 32 elicitations pending (`with_max_pending_per_user`); `start` refuses more with `StartError::TooManyPending`. |
//! | The notification MUST go only to the client that started it, with its `elicitationId` | `complete` returns it as `Addressed<ElicitationCompleteNotification>`, addressed to the starting connection. |
//! | Clients answer an undeclared mode with -32602 | `client::validate_request` returns `InvalidElicitRequestError`, whose `to_jsonrpc_error()` is -32602; a form schema outside the subset is -32602 too, naming the property. |
//! | Clients SHOULD validate responses; defaults SHOULD be used | `client::accept_form` fills in the defaults the user left out (conformance scenario `elicitation-sep1034-client-defaults`) and validates with the same validator as the derive. |
//! | Clients MUST show the full URL, SHOULD highlight the domain and warn about Punycode, MUST NOT pre-fetch | `UrlReview` gives the full URL, the host in Unicode with its registrable domain (from the Public Suffix List) picked out, and warnings for Punycode/IDN hosts, mixed scripts, look-alikes of ASCII hosts (UTS #39), non-https, IP hosts, userinfo and hidden characters. It only parses; nothing is resolved or fetched. |
//! | Clients MUST ignore notifications for unknown or already-completed ids | `UrlElicitationWatch::on_complete` returns `Completion::Ignored` for those, and names the requests that can be retried for the others. The watch is bounded (64 elicitations and 64 requests by default, `with_capacity`); when full, `track` and `retry_after` return `WatchFullError` holding the request, so nothing is dropped. |
//! | Servers SHOULD NOT put clickable URLs in form requests | `links_in_form` lists them (Markdown-emphasised ones such as `*https://…*` too, as GitHub-flavoured Markdown autolinks them), for servers before sending and for clients deciding what not to render as a link. |
//!
//! The policy, before any URL is sent:
//!
//! ```
//! # #[cfg(feature = "url-mode")] {
//! use elicit_mcp::server::{UnsafeUrlError, UrlPolicy};
//!
//! let policy = UrlPolicy::production();
//! assert!(policy.check("https://mcp.example.com/connect?step=1").is_ok());
//! // A pre-authenticated link: whoever sees it could act as the user.
//! let nested = "https://mcp.example.com/go?next=%2Fcb%3Faccess_token%3Dabc";
//! assert!(matches!(policy.check(nested), Err(UnsafeUrlError::CredentialParameter { .. })));
//! // Credentials before the host, and a way to make a link look like another site's.
//! assert!(matches!(policy.check("https://github.com@evil.example/"), Err(UnsafeUrlError::Userinfo)));
//! // http only on loopback, and only in development.
//! assert!(matches!(policy.check("http://mcp.example.com/"), Err(UnsafeUrlError::NotHttps { .. })));
//! assert!(UrlPolicy::development().check("http://127.0.0.1:3000/connect").is_ok());
//! # }
//! ```
//!
//! # Keeping what the user gave
//!
//! What a tool got through URL mode or the secure page (`elicit_mcp::page`), it keeps for the
//! user so the next call does not ask again: `CredentialStore`, by user and name with a time to
//! live, and `forget`; `MemoryCredentials` for one process, and `RedisStore::credentials(AtRestKeys)`
//! (feature `redis`) for replicas, each credential sealed at rest with XChaCha20-Poly1305 under a
//! keyring with rotation, bound to its user and name, expiring with its Redis key.
//!
//! # Running several replicas
//!
//! What a server needs between starting a URL elicitation and the user finishing it depends on
//! the revision it speaks:
//!
//! - **2025-11-25.** The server keeps each pending elicitation (who started it, from which
//!   connection, until when) from the tool call until the browser reaches the connect page, and
//!   then sends `notifications/elicitation/complete` on the stream of the session that started
//!   it. One process: `MemoryStore`, the default. Several replicas behind a load balancer: the
//!   browser may land on another replica than the MCP session, so the store must be shared and
//!   the notification routed. That is `RedisStore` (feature `redis`, Redis 6.2 or later, or
//!   Valkey; or a Redis Cluster, 7.0 or later).
//! - **2026-07-28.** The state travels sealed in `requestState` and comes back with the retried
//!   request, so any replica can finish a form flow and there is no store to share
//!   (`elicit_mcp::rmcp::Elicitation`). URL mode on 2026-07-28 (`Ask::url`) keeps only the
//!   tracker's id in the sealed state; the elicitation itself lives in the tracker's store, so
//!   with several replicas that store is `RedisStore` too, and the completion, written there by
//!   whichever replica serves the connect page, is collected by whichever replica gets the retry.
//!
//! With `RedisStore`, name the replica (`Elicitation::with_replica`: each session's connection
//! carries it), let each replica listen for the completions of its own sessions, and publish each
//! completion where it happens:
//!
//! ```no_run
//! # #[cfg(all(feature = "redis", feature = "rmcp"))]
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use elicit_mcp::rmcp::{Elicitation, RequestStateSeal};
//! use elicit_mcp::server::{ElicitationTracker, RedisStore, Routed, UrlPolicy, UserId};
//!
//! let replica = "pod-7"; // unique per process
//! let store = RedisStore::connect("redis://127.0.0.1:6379/").await?;
//! let tracker = Arc::new(ElicitationTracker::with_store(store, UrlPolicy::production()));
//! // Its sessions are named with the replica (and, over HTTP, `with_authentication` says who
//! // each request's user is).
//! let elicitation = Elicitation::new(RequestStateSeal::generated()?)
//!     .with_url_mode(tracker.clone())
//!     .with_replica(replica);
//!
//! // Completions of this replica's sessions, wherever they happen, go to the session.
//! let mut completions = tracker.store().completions(replica).await?;
//! let serving = elicitation.clone();
//! tokio::spawn(async move {
//!     while let Some(Ok(notification)) = completions.next().await {
//!         if let Some(sessions) = serving.connections() {
//!             let _ = sessions.send(notification).await;
//!         }
//!     }
//! });
//!
//! // On the connect page, on whichever replica the browser reached:
//! # let (id, user) = ("", UserId::from_verified_subject("alice")?);
//! let done = tracker.complete(id, &user).await?;
//! if tracker.store().publish_completion(&done).await? == Routed::ReplicaGone {
//!     // The starting replica is gone: complete all the same; the client's retry still works.
//! }
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "redis", feature = "rmcp")))]
//! # fn main() {}
//! ```
//!
//! | | how `RedisStore` does it |
//! |---|---|
//! | Completion once, across replicas | One Lua script takes the entry (or turns it from pending to completed): of any number of replicas completing one id at once, exactly one gets it. Each call carries a token, so the same call resent by the client crate after a dropped connection answers as the first time, not "not pending". |
//! | Stale links die | Each entry is written with `PX` (its time to live); Redis expires it, no sweeper runs. |
//! | Per-user limit | A sorted set per user, trimmed, counted and reserved in one Lua script on that set, so racing replicas cannot pass it; the entry is written next on its own key, and the place given back if that fails. A replica dying between the two holds a place until the entry's expiry would have passed, and no longer. |
//! | Binding to the user | As with `MemoryStore`: the entry holds the user (issuer and subject), checked on `verify` and `complete`. |
//! | Nothing in the store names a link | Keys are SHA-256 hashes of the elicitation id (and of the user id, for the per-user set); the id itself is stored nowhere, so reading Redis gives no link and no way to build one. |
//! | Notification to the starting session only | `publish_completion` publishes to the channel of the replica named in the connection; only that replica subscribes to it, and `ConnectionPeers::send` sends to that one session. |
//! | Redis unreachable | Every call fails within the timeout (2 s, `connect_with_timeout`) with `StartError::Store` or `CompletionError::Store`: a clear error to the tool or the page (the example answers 503), never a panic, and nothing is completed. redis-rs reconnects on the next command; a subscription, which sends none, pings its way back after a disconnection and re-subscribes. |
//! | The starting replica is gone | `publish_completion` says `Routed::ReplicaGone`: the elicitation is complete, the optional notification is lost, and the client's retry (or its user's) still works. |
//!
//! The rest of a server's state shares the same Redis: tasks (`Tasks::shared`, see the `rmcp`
//! module's "Asking inside a task"), a sealed `requestState` opened once on any replica
//! (`with_replay_guard`), and the secure page's forms (`SecureForms::in_redis`):
//!
//! ```no_run
//! # #[cfg(all(feature = "redis", feature = "rmcp"))]
//! # async fn shared() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use elicit_mcp::rmcp::{Elicitation, RequestStateSeal, Tasks};
//! use elicit_mcp::server::RedisStore;
//!
//! let store = RedisStore::connect("redis://127.0.0.1:6379/").await?;
//! let tasks = Tasks::new()
//!     .optional("build_report")
//!     .shared(store.clone(), "pod-7") // unique per process
//!     .with_lease(Duration::from_secs(10));
//! let seal = RequestStateSeal::generated()?.with_replay_guard(store);
//! let elicitation = Elicitation::new(seal).with_tasks(tasks).with_replica("pod-7");
//! # let _ = elicitation;
//! # Ok(())
//! # }
//! ```
//!
//! What survives a restart of Redis, and what each persistence setting keeps:
//!
//! | Redis restarted | URL-mode links | Tasks (`Tasks::shared`) | `requestState` single use (`with_replay_guard`) | Secure page's held answers, credentials |
//! |---|---|---|---|---|
//! | without persistence (as the repository's `.ci/redis` runs it) | pending links answer "not pending"; the user starts again; none completes twice | a task the restarted Redis forgot is an unknown task (-32602) on the replicas that do not run it; the running replica still answers for it and writes its next state | forgotten: a state opened before the restart opens once more until it expires (5 minutes by default) | gone: the page says the link can no longer be used; the user connects again |
//! | RDB snapshots | what the last snapshot held, each key with its absolute expiry: writes after it are undone (a link completed again, a task's later state, a state opened again) | as left | as left | as left |
//! | AOF, `appendfsync everysec` | all but the last second of writes | as left | as left | as left |
//! | AOF, `appendfsync always` | everything acknowledged | everything acknowledged | everything acknowledged | everything acknowledged |
//!
//! Where a state opening twice or a link completing twice matters, run AOF with `appendfsync
//! always`. Messages in flight on pub/sub (a completion notification, a `tasks/update` relayed to
//! the running replica) are lost on a restart: the notification is optional and the client's retry
//! covers it; a relayed update that found no listener was answered with a retryable error, never
//! acknowledged. While Redis is unreachable, a request that needs it gets a retryable error within
//! the store's timeout, and the replicas recover by themselves when it returns; a replica cut off
//! for longer than its task lease beats again before the others fail its tasks (they wait half a
//! lease more after first seeing its heartbeat missing).
//!
//! ## On a Redis Cluster
//!
//! `RedisStore::connect_cluster` takes the URLs of some of the cluster's nodes (give several, so
//! that a replica starts while one is down) and gives the same store, through redis-rs's cluster
//! client, which follows slot moves and failovers by itself:
//!
//! ```no_run
//! # #[cfg(feature = "redis")]
//! # async fn run() -> Result<(), elicit_mcp::server::StoreError> {
//! use elicit_mcp::server::RedisStore;
//!
//! let store = RedisStore::connect_cluster(["redis://10.0.0.1:7000", "redis://10.0.0.2:7000"])
//!     .await?
//!     .with_prefix("my-server");
//! # Ok(()) }
//! ```
//!
//! Every key is `PREFIX:KIND:{TAG}…`; the braces hold its hash tag, which alone decides its slot:
//!
//! | keys | hash tag |
//! |---|---|
//! | an elicitation's entry (`e`) and what its removal took, kept a minute for a resent call (`x`) | SHA-256 of the elicitation id |
//! | a user's pending set (`u`) and kept credentials (`c`) | SHA-256 of the user id |
//! | a page form (`p`) and its answer once taken, still sealed, kept a minute for a resent call (`q`) | SHA-256 of the elicitation id |
//! | a task's record (`t`), an opened `requestState` (`s`) | SHA-256 of the task id, of the nonce |
//! | a replica's heartbeat (`alive`), its missing note (`missing`), its channels (`replica`, `tasks`) | the replica's name |
//!
//! So every script and transaction touches one slot, and is as atomic on a cluster as on one
//! server. The one step over two tags is an elicitation's start (its user's set, then its entry),
//! made two atomic steps as the table above says. A prefix with braces of its own (`{app}`) would
//! be every key's tag: one slot for all, which works and spreads nothing. The channels are sharded
//! on a cluster (`SPUBLISH`/`SSUBSCRIBE`, Redis 7.0 or later): a message stays in its replica's
//! shard, and the count of receivers (which tells `publish_completion` whether the replica
//! listened, and lets a `tasks/update` be acknowledged only once delivered) is exact, where a plain
//! `PUBLISH` on a cluster counts only the subscribers of the node it reached.
//!
//! A master that dies: its replica takes over after the cluster's `cluster-node-timeout`.
//! Meanwhile the steps on its slots fail within the store's timeout with a `StoreError`
//! (`CompletionError::Store`, a retryable JSON-RPC error for tasks, 503 on the pages), the other
//! masters' slots go on (with `cluster-require-full-coverage no`), and once the replica is master
//! the same requests succeed: a flow in progress finishes, once. Subscriptions follow their slot to
//! the new master by themselves (messages published in the gap are lost, as on a restart). Redis
//! replicates asynchronously, so a write a master acknowledged in the instant before it died, not
//! yet on its replica, is lost with it: Redis Cluster's own window, a replication round trip.
//!
//! The example servers take `--redis-cluster URL,URL…` in place of `--redis URL`
//! (`conformance_server`, `secure_page`; `url_mode_server`'s demo keeps its own tokens with plain
//! commands on one Redis, so it asks for `--redis`). The repository's tests run all of this
//! against a real `redis-server`, and against a real 6-node cluster (3 masters, 3 replicas) with
//! a master killed mid-flow; its `CONTRIBUTING.md` says how to run them, and `benches/README.md`
//! gives their figures.

#[cfg(any(feature = "rmcp", feature = "redis"))]
mod cipher;
#[cfg(feature = "url-mode")]
mod clock;
mod credentials;
#[cfg(any(feature = "rmcp", feature = "redis"))]
mod hex;
mod identity;
mod links;
#[cfg(feature = "url-mode")]
mod memory_store;
#[cfg(feature = "url-mode")]
mod policy;
#[cfg(feature = "redis")]
pub(crate) mod redis_store;
mod replay;
#[cfg(feature = "page")]
pub(crate) mod secure_forms;
#[cfg(feature = "url-mode")]
mod store;
mod store_error;
#[cfg(feature = "url-mode")]
mod tracker;
mod ttl;

#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use clock::{Clock, SystemClock};
pub use credentials::{CredentialStore, MemoryCredentials};
pub use identity::{ConnectionId, EmptyUserIdError, Initiator, UserId};
pub use links::{LinkInForm, links_in_form};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use memory_store::MemoryStore;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use policy::{CheckedUrl, Environment, UnsafeUrlError, UrlNotice, UrlPolicy};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use redis_store::{
    AtRestKeyError, AtRestKeys, Completions, RedisCredentials, RedisStore, Routed,
};
#[cfg(all(feature = "redis", feature = "rmcp"))]
pub(crate) use redis_store::{TaskMessages, TaskRecord};
pub use replay::{MemoryReplayGuard, ReplayGuard};
#[cfg(feature = "page")]
pub(crate) use secure_forms::{FormCheck, NotTaken, PageAnswer, PageForm, Showing, wipe_content};
#[cfg(feature = "page")]
#[cfg_attr(docsrs, doc(cfg(feature = "page")))]
pub use secure_forms::{PageUrlError, SecureForms};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use store::{AwaitedBy, ElicitationStore, EntryState, Inserted, PendingEntry};
pub use store_error::StoreError;
pub use ttl::TtlTooLarge;
#[cfg(any(feature = "rmcp", feature = "page"))]
pub(crate) use ttl::checked_ttl;
pub(crate) use ttl::ends_at;

#[cfg(any(feature = "rmcp", feature = "redis"))]
pub(crate) use cipher::Keyring;
#[cfg(feature = "rmcp")]
pub(crate) use cipher::MIN_KEY_BYTES;
#[cfg(feature = "redis")]
pub(crate) use cipher::bound_to;
#[cfg(any(feature = "rmcp", feature = "redis"))]
pub(crate) use hex::lower_hex;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use tracker::{
    Addressed, Collected, CompletedElicitation, CompletionError, ElicitationTracker,
    PendingUrlElicitation, PreparedUrlElicitation, StartError, StartUrl,
};
