//! The protocol revisions a call may speak, and the one place that picks one.
//!
//! A revision is a type implementing [`Revision`]: what it takes from a call's request (the
//! state and the answers a retry brings), whether and how it binds what it seals
//! ([`Binding`](v2026_07_28::Binding)), how it runs the handler, and, in its own folder, its
//! wire code. [`choose`] compares the protocol version once and hands the revision, as a type,
//! to an [`OnRevision`]: nothing else matches on the revision.
//!
//! Why a type and a visitor, and not `&dyn Revision`: running a handler is generic over what
//! the handler answers with (a tool's, a prompt's, a resource's response), and a trait with
//! generic methods has no trait objects. So the chooser matches once and calls the visitor's
//! generic `on::<R: Revision>()`, as rustls picks a protocol version's handler; the call runs
//! `on` (`call/mod.rs`), and the questions the session-only front doors ask (may the server
//! send requests here?) are visitors too ([`server_requests_allowed`]).
//!
//! A revision's folder may import what `revision` may (the rooms below it in `rmcp/`'s
//! ladder, ARCHITECTURE.md's "The rooms of `rmcp/`": [`ask`](crate::rmcp::ask), the running
//! call, the kinds, the conversions, URL tracking) and this module's own files; never the
//! peer, the elicitation, the call or the served handler, which are above it, nor the way
//! inside a task, its peer.

pub(crate) mod params;
pub(crate) mod session;
pub(crate) mod v2025_11_25;
pub(crate) mod v2026_07_28;

use std::future::Future;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};

use self::params::CallRequest;
use self::session::Session;
use self::v2025_11_25::V2025_11_25;
use self::v2026_07_28::{RequestStateSeal, V2026_07_28};
use crate::rmcp::ask::Ask;

use crate::rmcp::running::{Handler, Ran, Response, Start};
use crate::server::UserId;

/// A protocol revision: how a call's asks go on it. Implemented by a unit type per revision,
/// named by its date; [`choose`] picks one.
pub(crate) trait Revision: 'static {
    /// Whether the server may send requests to the client (asked once per call: a constant,
    /// with no refusal's text to build).
    const SERVER_REQUESTS: bool;

    /// Whether the handler may run again within the call, with the request as it came and a
    /// retry's answers (2025-11-25 serving a method's own input requests): then the request
    /// and its context are kept for it, else they move into the handler.
    const RUNS_AGAIN_IN_CALL: bool;

    /// An [`Ask`] on a session of this revision (speaking `version`) for code outside a
    /// call ([`ElicitPeer::ask`](crate::rmcp::ElicitPeer::ask)).
    fn ask_outside_call(peer: Peer<RoleServer>, version: Option<sdk::ProtocolVersion>) -> Ask;

    /// What the revision keeps of a call for its run.
    type Taken: Send;

    /// What the revision takes from the call's request and its context before the handler
    /// takes them: the state and the answers a retry brings, what it binds them to, what it
    /// sends its asks through.
    fn take<P: CallRequest>(arrival: Arrival<'_, P>) -> Self::Taken;

    /// Runs the call's handler with what was taken, to its response or the task it continues
    /// as.
    fn run<R: Response>(
        taken: Self::Taken,
        run: Run<'_, R>,
    ) -> impl Future<Output = Result<Ran<R>, sdk::ErrorData>> + Send;
}

/// A call's request as it arrives, before the handler takes it: what [`Revision::take`]
/// reads.
pub(crate) struct Arrival<'a, P> {
    pub request: &'a mut P,
    pub context: &'a RequestContext<RoleServer>,
    pub user: Option<&'a UserId>,
    /// Whether the handler may ask (unless known not to), so that what its asks seal must be
    /// bound before it takes the request.
    pub may_ask: bool,
}

/// What a call hands its revision to run.
pub(crate) struct Run<'a, R> {
    pub start: Start<'a>,
    /// The elicitation's seal of `requestState`.
    pub seal: &'a RequestStateSeal,
    /// Whether the call may continue as a task (the tool is declared to, and the client
    /// declared the extension).
    pub may_become_task: bool,
    pub handler: Handler<'static, R>,
}

/// What is done once the revision is known: `on::<R>()` with the revision as a type.
pub(crate) trait OnRevision {
    type Output;

    fn on<R: Revision>(self) -> Self::Output;
}

/// The revision a session speaking `version` is on, handed to `visitor`: the one place that
/// compares protocol versions. Before 2026-07-28 (or without a version, as a 2025-11-25
/// session that has not said), the server sends requests; from it on, it may not.
pub(crate) fn choose<V: OnRevision>(
    version: Option<sdk::ProtocolVersion>,
    visitor: V,
) -> V::Output {
    match version {
        Some(version) if version >= sdk::ProtocolVersion::V_2026_07_28 => {
            visitor.on::<V2026_07_28>()
        }
        _ => visitor.on::<V2025_11_25>(),
    }
}

/// Whether the session's protocol lets the server send requests to the client.
pub(crate) fn server_requests_allowed<S: Session + ?Sized>(session: &S) -> bool {
    struct ServerRequests;

    impl OnRevision for ServerRequests {
        type Output = bool;

        fn on<R: Revision>(self) -> bool {
            R::SERVER_REQUESTS
        }
    }

    choose(session.protocol_version(), ServerRequests)
}

/// An [`Ask`] on `session` outside a call, as its revision asks there.
pub(crate) fn ask_outside_call<S: Session + ?Sized>(session: &S) -> Ask {
    struct OutsideCall(Peer<RoleServer>, Option<sdk::ProtocolVersion>);

    impl OnRevision for OutsideCall {
        type Output = Ask;

        fn on<R: Revision>(self) -> Ask {
            R::ask_outside_call(self.0, self.1)
        }
    }

    let version = session.protocol_version();
    choose(
        version.clone(),
        OutsideCall(session.peer().clone(), version),
    )
}

/// [`ElicitError::RequestsNotAllowed`] on a revision where the server may not send requests:
/// what a session-only front door (`ElicitUrlPeer`'s requests) answers there.
#[cfg(feature = "url-mode")]
pub(crate) fn require_server_requests<S: Session + ?Sized>(
    session: &S,
) -> Result<(), crate::rmcp::error::ElicitError> {
    match session.protocol_version() {
        Some(version) if !server_requests_allowed(session) => {
            Err(crate::rmcp::error::ElicitError::RequestsNotAllowed {
                protocol_version: version.to_string(),
            })
        }
        _ => Ok(()),
    }
}
