//! URL mode through [`Ask`]: one call that sends the user to a URL and goes on once the
//! out-of-band step is done, on either revision.

use std::future::Future;
use std::time::Duration;

use ::rmcp::service::ServiceError;

use super::exchange::{Request, UrlWait};
use super::keys::Asker;
use super::sealed::{Answer, UrlFlow, UrlStatus};
use super::{Ask, Rounds};
use crate::UrlElicitOutcome;
use crate::rmcp::error::ElicitError;
use crate::server::{
    ElicitationStore, ElicitationTracker, Initiator, PendingUrlElicitation, PreparedUrlElicitation,
    StartError,
};
use crate::wire::{ElicitAction, ElicitRequestUrlParams, ElicitationCapability, ElicitationId};

/// What came of a URL-mode elicitation asked with [`Ask::url`]: the same on both revisions.
///
/// One of the [family of outcomes](crate::ElicitOutcome#one-family-of-outcomes): `action()`,
/// `completed()`, `is_declined()`, `is_cancelled()`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlOutcome {
    /// The user consented and finished the out-of-band step: the tracker completed the
    /// elicitation with this id for the user who started it. What the step produced (a token,
    /// a key) is the server's, bound to that user by the page that completed it.
    Completed(ElicitationId),
    /// The user declined to open the URL.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

impl UrlOutcome {
    /// What the user did: a completion was an accept.
    pub fn action(&self) -> ElicitAction {
        match self {
            UrlOutcome::Completed(_) => ElicitAction::Accept,
            UrlOutcome::Declined => ElicitAction::Decline,
            UrlOutcome::Cancelled => ElicitAction::Cancel,
        }
    }

    /// The id of the completed elicitation, if it completed.
    pub fn completed(&self) -> Option<&ElicitationId> {
        match self {
            UrlOutcome::Completed(id) => Some(id),
            _ => None,
        }
    }

    /// Whether the user declined to open the URL.
    pub fn is_declined(&self) -> bool {
        self.action() == ElicitAction::Decline
    }

    /// Whether the user dismissed the request without choosing.
    pub fn is_cancelled(&self) -> bool {
        self.action() == ElicitAction::Cancel
    }
}

/// The URL-mode settings of a call's rounds.
impl Rounds {
    /// How long a retry waits, by default, for a URL-mode elicitation's out-of-band step
    /// before it answers "still waiting" ([`with_url_hold`](Self::with_url_hold)).
    pub const DEFAULT_URL_HOLD: Duration = UrlWait::DEFAULT.hold;
    /// How long, by default, a URL-mode elicitation is kept after a retry that found it
    /// waiting ([`with_url_lease`](Self::with_url_lease)).
    pub const DEFAULT_URL_LEASE: Duration = UrlWait::DEFAULT.lease;

    /// On 2026-07-28, how long a retry waits for the out-of-band step of a URL-mode
    /// elicitation ([`Ask::url`]) to complete before it answers with a state-only
    /// `InputRequiredResult` ("still waiting", and the client retries again). The spec lets
    /// the server block; holding the retry a while spares round trips, and makes a client's
    /// limit on rounds (rmcp's is 10 by default, with a back-off of at most 250 ms) last
    /// that many holds rather than a couple of seconds. Zero answers at once.
    pub fn with_url_hold(mut self, hold: Duration) -> Self {
        self.url_wait.hold = hold;
        self
    }

    /// On 2026-07-28, how long a URL-mode elicitation whose out-of-band step is under way is
    /// kept after each retry that found it waiting: a client that stops retrying (it went
    /// away) leaves it, and one lease later it stops counting against the user's
    /// [limit](crate::server::ElicitationTracker::with_max_pending_per_user) and expires; a
    /// retry after that gives [`ElicitError::NotCompleted`](crate::rmcp::ElicitError::NotCompleted).
    /// Never shorter than the [`with_url_hold`](Self::with_url_hold) plus a second; never past the
    /// elicitation's own expiry. Default: [`DEFAULT_URL_LEASE`](Self::DEFAULT_URL_LEASE).
    pub fn with_url_lease(mut self, lease: Duration) -> Self {
        self.url_wait.lease = lease;
        self
    }
}

/// What [`Ask::url`] does, decided before its future (so that `url` need not be `Send`).
enum Step {
    /// Refused before anything is sent: the key is taken.
    Refused(ElicitError),
    /// Store the elicitation (checked and built already), then ask for consent.
    Start(String, Box<Result<PreparedUrlElicitation, StartError>>),
    /// A later round (2026-07-28): the elicitation from the state.
    Going(String, UrlFlow),
}

impl Ask {
    /// Sends the user to a URL for an out-of-band step (an OAuth flow, a payment, a secret
    /// typed into the server's own page) and goes on once that step is done: the typed
    /// [`UrlOutcome`], the same on both revisions.
    ///
    /// The elicitation is started with `tracker` as
    /// [`ElicitUrlPeer::send_tracked_url`](crate::rmcp::ElicitUrlPeer::send_tracked_url) starts it: bound to
    /// `initiator`'s user, `url` built from the new id and checked by the tracker's URL policy
    /// (a URL the policy refuses gives [`ElicitError::Start`], and nothing is sent), at most
    /// the tracker's number pending per user, expiring after its time to live. The page the
    /// URL leads to completes it with [`ElicitationTracker::complete`], as on 2025-11-25: only
    /// the user who started it can, once, before it expires.
    ///
    /// How the user's step is waited for, side by side:
    ///
    /// | | 2025-11-25 | 2026-07-28 |
    /// |---|---|---|
    /// | the request | `elicitation/create` in URL mode, with its `elicitationId` | an input request of the round's `InputRequiredResult`, without an id (the tracker's id is in the sealed `requestState` only) |
    /// | decline, cancel | the outcome; the elicitation is discarded | the same, on the retry that brings the answer |
    /// | while the step goes on | the call waits | each retry waits up to [`Rounds::with_url_hold`](crate::rmcp::Rounds::with_url_hold), then answers with a state-only `InputRequiredResult` ("still waiting": no input requests; the client retries with the state). These rounds do not count toward [`Rounds::with_most_rounds`](crate::rmcp::Rounds::with_most_rounds) |
    /// | the step done | the call goes on (send the completion notification as for any URL elicitation, [`ConnectionPeers::notify`](crate::rmcp::ConnectionPeers::notify)) | the retry collects the completion, once (an earlier state replayed after that is refused with -32602), and the handler goes on; there is no notification |
    /// | how long at most | until the elicitation expires (the tracker's time to live): [`ElicitError::NotCompleted`] | the same: the first retry after it expired gives [`ElicitError::NotCompleted`] |
    /// | the client goes away | [`ElicitError::SessionEnded`], and the elicitation is discarded | once the user consented, each retry keeps the elicitation for [`Rounds::with_url_lease`](crate::rmcp::Rounds::with_url_lease) (a minute) more: a client that stops retrying leaves it, and it stops counting against the user's limit one lease later |
    ///
    /// A client that did not declare URL mode gets [`ElicitError::ModeNotSupported`] (which a
    /// handler that lets it through answers with -32021 and `requiredCapabilities`
    /// `{"elicitation": {"url": {}}}`). An elicitation in the state that is another user's is
    /// refused with -32602.
    ///
    /// The URL request is answered under the input key `url` (`url-2` for the second, and so
    /// on).
    ///
    /// ```no_run
    /// use elicit_mcp::rmcp::{Ask, UrlOutcome};
    /// use elicit_mcp::server::{ElicitationTracker, Initiator};
    /// use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
    ///
    /// async fn connect(
    ///     ask: Ask,
    ///     tracker: &ElicitationTracker,
    ///     initiator: &Initiator,
    /// ) -> Result<CallToolResult, ErrorData> {
    ///     let outcome = ask
    ///         .url(tracker, initiator, "Connect your Example Co account.", |id| {
    ///             format!("https://mcp.example.com/connect?elicitationId={id}")
    ///         })
    ///         .await;
    ///     let reply = match outcome {
    ///         Ok(UrlOutcome::Completed(id)) => format!("connected ({id})"),
    ///         Ok(_) => "not connected".to_owned(),
    ///         Err(error) => return Ok(error.to_tool_result()),
    ///     };
    ///     Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
    /// }
    /// ```
    pub fn url<'a, S>(
        &'a self,
        tracker: &'a ElicitationTracker<S>,
        initiator: &'a Initiator,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> impl Future<Output = Result<UrlOutcome, ElicitError>> + Send + 'a
    where
        S: ElicitationStore,
    {
        let exchange = self.exchange();
        let step = match self.take_key("url", Asker::Url) {
            Err(refused) => Step::Refused(refused),
            Ok(key) => match exchange.flow(&key) {
                Some(flow) => Step::Going(key, flow),
                None => {
                    let client = self
                        .client_capabilities()
                        .as_ref()
                        .and_then(|client| client.elicitation.as_ref())
                        .map(ElicitationCapability::from);
                    let by = exchange.awaited_by();
                    let prepared = tracker
                        .prepare(initiator, client.as_ref(), message, url)
                        .map(|prepared| prepared.with_awaited_by(by));
                    Step::Start(key, Box::new(prepared))
                }
            },
        };
        async move {
            let (key, flow) = match step {
                Step::Refused(error) => return Err(error),
                Step::Going(key, flow) => (key, flow),
                Step::Start(key, prepared) => {
                    let pending = exchange
                        .in_store(async { tracker.store_prepared((*prepared)?).await })
                        .await?;
                    let flow = UrlFlow::asked(&pending);
                    exchange.keep_flow(&key, &flow);
                    (key, flow)
                }
            };
            let id = flow.id.clone();
            let outcome = self.go_on(tracker, initiator, &key, flow).await;
            match &outcome {
                // Still going (a later round looks again), or done for good.
                Ok(UrlOutcome::Completed(_)) => {}
                // Nothing will complete it now. If the store fails, the entry lingers until it
                // expires, bound to its user.
                _ => {
                    let _ = tracker.discard(&id, &initiator.user).await;
                }
            }
            outcome
        }
    }

    /// Asks for consent (unless an earlier round has it), then waits for the completion.
    async fn go_on<S: ElicitationStore>(
        &self,
        tracker: &ElicitationTracker<S>,
        initiator: &Initiator,
        key: &str,
        mut flow: UrlFlow,
    ) -> Result<UrlOutcome, ElicitError> {
        let exchange = self.exchange();
        if flow.status == UrlStatus::Asked {
            let params = ElicitRequestUrlParams::from_parts(
                flow.message.clone(),
                flow.url.clone(),
                ElicitationId::new(flow.id.clone()),
                None,
            );
            let answer = exchange.answer(key, Request::Url(params), None).await?;
            let Answer::Elicitation(result) = answer else {
                return Err(ElicitError::Service(ServiceError::UnexpectedResponse));
            };
            // Content with a URL-mode answer: a client bug not to act on.
            flow.status = match UrlElicitOutcome::from_result(&result)
                .map_err(ElicitError::UnexpectedContent)?
            {
                UrlElicitOutcome::Consented => UrlStatus::Consented,
                UrlElicitOutcome::Declined => UrlStatus::Declined,
                UrlElicitOutcome::Cancelled => UrlStatus::Cancelled,
            };
            exchange.keep_flow(key, &flow);
        }
        match flow.status {
            UrlStatus::Asked | UrlStatus::Consented => {}
            UrlStatus::Completed => return Ok(UrlOutcome::Completed(ElicitationId::new(flow.id))),
            UrlStatus::Declined => return Ok(UrlOutcome::Declined),
            UrlStatus::Cancelled => return Ok(UrlOutcome::Cancelled),
        }
        let id = exchange
            .completion(tracker, initiator, &flow.id, flow.expires_at)
            .await?;
        flow.status = UrlStatus::Completed;
        exchange.keep_flow(key, &flow);
        Ok(UrlOutcome::Completed(id))
    }
}

impl UrlFlow {
    fn asked(pending: &PendingUrlElicitation) -> Self {
        let params = pending.params();
        UrlFlow {
            id: pending.id().as_str().to_owned(),
            message: params.message().to_owned(),
            url: params.url().to_owned(),
            expires_at: pending.expires_at(),
            status: UrlStatus::Asked,
        }
    }
}
