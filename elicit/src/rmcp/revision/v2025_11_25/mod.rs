//! Protocol 2025-11-25: each ask is a request on the session (`elicitation/create`,
//! `sampling/createMessage`, `roots/list`), answered while the method waits. The method runs
//! once; one that answers with an `InputRequiredResult` of its own is served by
//! [`bridge`].

// rmcp deprecates sampling and roots (SEP-2577); 2026-07-28 still has them.
#![allow(deprecated)]

mod bridge;
pub(crate) mod send;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RequestContext, RoleServer};

use self::send::CallWatch;
use crate::rmcp::ask::scope::run_with;
use crate::rmcp::ask::way::{Waiting, Way};
use crate::rmcp::ask::{Ask, AskParts, AskSettings};
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::{Answer, KindOfAsk, Request, as_session_request};
use crate::rmcp::revision::params::CallRequest;
use crate::rmcp::revision::{Arrival, Revision, Run};
use crate::rmcp::running::{Handler, Ran, Response, Retry, Start};

#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url::{FirstLook, look_until, not_completed};
#[cfg(feature = "url-mode")]
use crate::rmcp::ask::url_flow::UrlFlow;
#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlTracking;
#[cfg(feature = "url-mode")]
use crate::server::{AwaitedBy, Collected, CompletionError, UserId};
#[cfg(feature = "url-mode")]
use crate::wire::ElicitationId;

/// The asks of one call on a 2025-11-25 session.
pub(crate) struct Requests {
    peer: Peer<RoleServer>,
    /// How long an ask waits for the client unless it says otherwise.
    timeout: Option<Duration>,
    /// The call the asks are made in (none for an ask on a bare peer).
    watch: Option<CallWatch>,
}

impl Requests {
    /// The asks of the call `context` belongs to.
    pub fn of_call(context: &RequestContext<RoleServer>, timeout: Option<Duration>) -> Self {
        Requests {
            peer: context.peer.clone(),
            timeout,
            watch: Some(CallWatch::of(context)),
        }
    }

    /// Asks on a session's peer, outside any call (`ElicitPeer::ask`): no default timeout.
    pub fn bare(peer: Peer<RoleServer>) -> Self {
        Requests {
            peer,
            timeout: None,
            watch: None,
        }
    }

    /// An ask on a 2025-11-25 session, outside an elicitation: the defaults, no user.
    pub fn ask_on_session(peer: Peer<RoleServer>) -> Ask {
        Ask::new(AskParts {
            way: Arc::new(Requests::bare(peer)),
            replayed: Vec::new(),
            settings: AskSettings::DEFAULT,
            user: None,
            #[cfg(feature = "url-mode")]
            url: None,
        })
    }

    /// Sends `request` and reads the client's answer.
    async fn send(
        &self,
        request: &dyn KindOfAsk,
        timeout: Option<Duration>,
    ) -> Result<Answer, ElicitError> {
        let sent = request.session_request()?;
        let result = send::request(&self.peer, sent, timeout, self.watch.as_ref()).await?;
        request.read_session_result(result)
    }

    /// Answers a handler's own input requests, one request each, in order.
    async fn answer_all(
        &self,
        requests: sdk::InputRequests,
    ) -> Result<sdk::InputResponses, ElicitError> {
        let watch = self.watch.as_ref();
        let mut responses = sdk::InputResponses::new();
        for (key, request) in requests {
            let request = as_session_request(&key, request)?;
            let result = send::request(&self.peer, request, self.timeout, watch).await?;
            let value = serde_json::to_value(result).map_err(|e| {
                ElicitError::InvalidResult(crate::rmcp::InvalidResultError::new(format!(
                    "the answer under `{key}` cannot be read: {e}"
                )))
            })?;
            responses.insert(key, value);
        }
        Ok(responses)
    }

    /// Ends when the session does (looked at every second): a wait for an out-of-band step
    /// would otherwise last until the elicitation expires.
    #[cfg(feature = "url-mode")]
    async fn session_ends(&self) {
        const BETWEEN_LOOKS: Duration = Duration::from_secs(1);
        while !self.peer.is_transport_closed() {
            tokio::time::sleep(BETWEEN_LOOKS).await;
        }
    }
}

impl Way for Requests {
    fn describe(&self) -> &'static str {
        "requests on a 2025-11-25 session"
    }

    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        self.peer.peer_info().map(|info| info.capabilities.clone())
    }

    fn answer<'a>(
        &'a self,
        _key: &'a str,
        request: Request,
        timeout: Option<Duration>,
    ) -> Waiting<'a, Result<Answer, ElicitError>> {
        Box::pin(async move {
            request.check(self.client_capabilities().as_ref())?;
            let answer = self.send(&*request, timeout.or(self.timeout)).await?;
            Ok(request.keep(answer, None))
        })
    }

    #[cfg(feature = "url-mode")]
    fn awaited_by(&self) -> AwaitedBy {
        AwaitedBy::Session
    }

    /// Until it completes, or it expires ([`ElicitError::NotCompleted`]), or the session ends
    /// ([`ElicitError::SessionEnded`]), or the call is cancelled.
    #[cfg(feature = "url-mode")]
    fn completion<'a>(
        &'a self,
        tracker: &'a dyn UrlTracking,
        user: &'a UserId,
        flow: &'a UrlFlow,
    ) -> Waiting<'a, Result<ElicitationId, ElicitError>> {
        Box::pin(async move {
            let looking = look_until(tracker, self, user, &flow.id, None, FirstLook::Now);
            let ended = self.session_ends();
            let cancelled = async {
                match &self.watch {
                    Some(watch) => watch.cancelled.cancelled().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                looked = looking => match looked {
                    Ok(Collected::Completed(id)) => Ok(id),
                    Ok(Collected::Waiting) => Err(ElicitError::NotCompleted(CompletionError::NotPending)),
                    Err(error) => Err(not_completed(error, tracker, flow.expires_at)),
                },
                () = ended => Err(ElicitError::SessionEnded),
                () = cancelled => Err(ElicitError::CallCancelled),
            }
        })
    }
}

/// Protocol 2025-11-25: requests on the session.
pub(crate) struct V2025_11_25;

impl Revision for V2025_11_25 {
    const SERVER_REQUESTS: bool = true;
    const RUNS_AGAIN_IN_CALL: bool = true;

    /// The session, to send the call's requests on.
    type Taken = RequestContext<RoleServer>;

    /// Nothing of the request: a state and answers in it are the method's own, a bridged
    /// method's retry ([`bridge`]); nothing is sealed, so nothing is bound.
    /// Each ask a request on the session, as in a call but with the defaults and no user.
    fn ask_outside_call(peer: Peer<RoleServer>, _version: Option<sdk::ProtocolVersion>) -> Ask {
        Requests::ask_on_session(peer)
    }

    fn take<P: CallRequest>(arrival: Arrival<'_, P>) -> Self::Taken {
        arrival.context.clone()
    }

    async fn run<R: Response>(
        context: RequestContext<RoleServer>,
        run: Run<'_, R>,
    ) -> Result<Ran<R>, sdk::ErrorData> {
        run_on_session(run.start, &context, run.handler)
            .await
            .map(Ran::Answered)
    }
}

/// Runs a call on a 2025-11-25 session: the handler once with its ask; again, with the answers,
/// as long as it answers with input requests of its own (at most `max_rounds` times).
async fn run_on_session<R: Response>(
    start: Start<'_>,
    context: &RequestContext<RoleServer>,
    mut handler: Handler<'_, R>,
) -> Result<R, sdk::ErrorData> {
    let way = Arc::new(Requests::of_call(context, start.settings.timeout));
    let ask = Ask::new(AskParts {
        way: way.clone(),
        replayed: Vec::new(),
        settings: start.settings.ask,
        user: start.user.clone(),
        #[cfg(feature = "url-mode")]
        url: start.url.clone(),
    });
    let mut bridge = bridge::Bridge::new(start.settings.max_rounds);
    let mut retry = None;
    loop {
        let response = run_with(ask.clone(), handler(retry.take())).await;
        start.learn(&ask, response.is_ok());
        let asking = match response?.into_input_required() {
            Ok(asking) => asking,
            Err(done) => return Ok(done),
        };
        // Boxed: a method answering with input requests of its own is rare, and the bridge's
        // future, held inline, would make every call's future (moved whole when rmcp spawns
        // it) ten kilobytes larger.
        retry = Some(Box::pin(bridge.answer(&way, asking)).await?);
    }
}

/// The next run of a method answering its own input requests: what a 2026-07-28 client's retry
/// would bring.
fn retry(responses: Option<sdk::InputResponses>, request_state: Option<String>) -> Retry {
    Retry {
        responses,
        request_state,
    }
}

/// Answers `asking`'s requests on the session: what [`bridge`] needs of this way.
async fn answer_all(
    way: &Requests,
    requests: sdk::InputRequests,
) -> Result<sdk::InputResponses, ElicitError> {
    way.answer_all(requests).await
}

/// How long to pause before running again a method that waits for nothing the session can
/// ask ("still waiting"), as a client's retry would.
fn pause_before(round: u32) -> impl Future<Output = ()> {
    const FIRST_PAUSE: Duration = Duration::from_millis(50);
    const LONGEST_PAUSE: Duration = Duration::from_secs(1);
    let pause = FIRST_PAUSE
        .saturating_mul(1 << round.min(5))
        .min(LONGEST_PAUSE);
    tokio::time::sleep(pause)
}
