//! URL mode through [`Ask`]: one call that sends the user to a URL and goes on once the
//! out-of-band step is done, on either revision.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;
use std::time::{Duration, Instant};

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer};
use serde::{Deserialize, Serialize};

use super::Ask;
use super::ask::{Flow, wait_for_next_round};
use crate::rmcp::error::ElicitError;
use crate::rmcp::session::{client_elicitation, send_url_elicitation};
use crate::server::{
    AwaitedBy, Collected, CompletionError, ElicitationStore, ElicitationTracker, Initiator,
    PendingEntry, PendingUrlElicitation, StartError,
};
use crate::wire::{
    ElicitAction, ElicitMode, ElicitResult, ElicitationCapability, ElicitationId, UrlElicitOutcome,
};

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

/// A URL-mode elicitation asked on 2026-07-28, as the sealed state carries it between rounds.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub(super) struct UrlFlow {
    /// The tracker's id: only here, never in the request the client sees.
    id: String,
    message: String,
    url: String,
    status: Status,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Status {
    /// Sent; the client's answer (consent or not) comes with the retry.
    Asked,
    /// The user consented; the out-of-band step goes on.
    Consented,
    Completed,
    Declined,
    Cancelled,
}

impl UrlFlow {
    fn asked(pending: &PendingUrlElicitation) -> Self {
        let params = pending.params();
        UrlFlow {
            id: pending.id().as_str().to_owned(),
            message: params.message().to_owned(),
            url: params.url().to_owned(),
            status: Status::Asked,
        }
    }

    /// The input request: `elicitation/create` in URL mode, without an id of its own.
    /// (rmcp 3.11's model writes its `elicitationId` field as `""` when it has none.)
    fn request(&self) -> sdk::InputRequest {
        sdk::InputRequest::Elicitation(sdk::ElicitRequest::new(
            sdk::ElicitRequestParams::UrlElicitationParams {
                meta: None,
                message: self.message.clone(),
                url: self.url.clone(),
                elicitation_id: String::new(),
            },
        ))
    }
}

/// What [`Ask::url`] does, decided before its future (so that `url` need not be `Send`).
enum Step {
    /// 2025-11-25: send `elicitation/create`, then wait for the completion.
    Session(
        Peer<RoleServer>,
        Result<(PendingEntry, PendingUrlElicitation), StartError>,
    ),
    /// 2026-07-28, first round: store the elicitation and ask for consent.
    Start(
        String,
        Result<(PendingEntry, PendingUrlElicitation), StartError>,
    ),
    /// Refused before anything is sent: the client did not declare URL mode, or the key is
    /// taken.
    Refused(ElicitError),
    /// 2026-07-28, a later round: the elicitation from the state.
    Going(String, UrlFlow, Duration),
}

impl Ask {
    /// Sends the user to a URL for an out-of-band step (an OAuth flow, a payment, a secret
    /// typed into the server's own page) and goes on once that step is done: the typed
    /// [`UrlOutcome`], the same on both revisions.
    ///
    /// The elicitation is started with `tracker` as
    /// [`ElicitPeer::send_tracked_url`](crate::rmcp::ElicitPeer::send_tracked_url) starts it: bound to
    /// `initiator`'s user, `url` built from the new id and checked by the tracker's URL policy
    /// (a URL the policy refuses gives [`ElicitError::Start`], and nothing is sent), at most
    /// the tracker's number pending per user, expiring after its time to live. The page the
    /// URL leads to completes it with [`ElicitationTracker::complete`], as on 2025-11-25: only
    /// the user who started it can, once, before it expires.
    ///
    /// - **2025-11-25**: an `elicitation/create` request in URL mode with its `elicitationId`.
    ///   Decline or cancel discards the elicitation. On consent the call waits until the
    ///   tracker completes it (send the completion notification as for any URL elicitation,
    ///   [`ConnectionPeers::notify`](crate::rmcp::ConnectionPeers::notify)), or fails with
    ///   [`ElicitError::NotCompleted`] when it expires first.
    /// - **2026-07-28**: the request goes out in the round's `InputRequiredResult` without an
    ///   id; the tracker's id is in the sealed `requestState` only. The client's `accept` is
    ///   consent, not completion. Each retry then looks at the tracker: while the step is not
    ///   done, it waits up to [`Rounds::url_hold`](crate::rmcp::Rounds::url_hold) and answers
    ///   with a state-only `InputRequiredResult` (no input requests: "still waiting"; rmcp's
    ///   client backs off and retries); once it is done, the retry collects the completion
    ///   (once: an earlier state replayed after that is refused) and the handler goes on.
    ///   There is no completion notification. An elicitation in the state that expired, was
    ///   already collected, or is another user's gets -32602. A client that did not declare
    ///   URL mode gets -32021 with `requiredCapabilities` `{"elicitation": {"url": {}}}`.
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
        let message = message.into();
        let step = match &self.inner.flow {
            Flow::Requests { peer, .. } => {
                let client = client_elicitation(peer);
                Step::Session(
                    peer.clone(),
                    tracker.prepare_awaited(
                        AwaitedBy::Session,
                        initiator,
                        client.as_ref(),
                        message,
                        url,
                    ),
                )
            }
            Flow::Rounds { url_hold, .. } => match self.take_key("url", "URL mode") {
                Err(refused) => Step::Refused(refused),
                Ok(key) => {
                    let known = self.lock().flows.get(&key).cloned();
                    let client = self.client_elicitation();
                    let declared = ElicitationCapability::require(client.as_ref(), ElicitMode::Url);
                    match (known, declared) {
                        (Some(flow), _) => Step::Going(key, flow, *url_hold),
                        // The same error as on 2025-11-25, for the handler to decide on.
                        (None, Err(missing)) => Step::Refused(missing.into()),
                        (None, Ok(())) => Step::Start(
                            key,
                            tracker.prepare_awaited(
                                AwaitedBy::Retry,
                                initiator,
                                client.as_ref(),
                                message,
                                url,
                            ),
                        ),
                    }
                }
            },
        };
        async move {
            match step {
                Step::Session(peer, prepared) => {
                    url_on_session(&peer, tracker, initiator, prepared).await
                }
                Step::Refused(error) => Err(error),
                Step::Start(key, prepared) => {
                    let pending = self.in_store(tracker.store_prepared(prepared)).await?;
                    let flow = UrlFlow::asked(&pending);
                    self.ask_for(&key, flow.request());
                    self.lock().flows.insert(key, flow);
                    wait_for_next_round().await
                }
                Step::Going(key, flow, hold) => {
                    self.url_going(tracker, initiator, key, flow, hold).await
                }
            }
        }
    }

    /// 2026-07-28, a later round: read the consent, then look for the completion.
    async fn url_going<S: ElicitationStore>(
        &self,
        tracker: &ElicitationTracker<S>,
        initiator: &Initiator,
        key: String,
        mut flow: UrlFlow,
        hold: Duration,
    ) -> Result<UrlOutcome, ElicitError> {
        match flow.status {
            Status::Completed => return Ok(UrlOutcome::Completed(ElicitationId::new(flow.id))),
            Status::Declined => return Ok(UrlOutcome::Declined),
            Status::Cancelled => return Ok(UrlOutcome::Cancelled),
            Status::Consented => {}
            Status::Asked => {
                let Some(answer) = self.url_response(&key) else {
                    // No answer, or not an elicitation result: ask again, the same elicitation.
                    self.ask_for(&key, flow.request());
                    return wait_for_next_round().await;
                };
                let outcome = match UrlElicitOutcome::from_result(&answer) {
                    Ok(outcome) => outcome,
                    // Content with a URL-mode answer: a client bug not to act on, and nothing
                    // to wait for.
                    Err(unexpected) => {
                        let _ = tracker.discard(&flow.id, &initiator.user).await;
                        return Err(ElicitError::UnexpectedContent(unexpected));
                    }
                };
                let (status, outcome) = match outcome {
                    UrlElicitOutcome::Consented => (Status::Consented, None),
                    UrlElicitOutcome::Declined => (Status::Declined, Some(UrlOutcome::Declined)),
                    UrlElicitOutcome::Cancelled => (Status::Cancelled, Some(UrlOutcome::Cancelled)),
                };
                flow.status = status;
                self.lock().flows.insert(key.clone(), flow.clone());
                if let Some(outcome) = outcome {
                    let _ = tracker.discard(&flow.id, &initiator.user).await;
                    return Ok(outcome);
                }
            }
        }
        match wait_for_completion(tracker, &flow.id, initiator, Some(hold), Some(self)).await {
            Ok(Collected::Completed(id)) => {
                flow.status = Status::Completed;
                self.lock().flows.insert(key, flow);
                Ok(UrlOutcome::Completed(id))
            }
            Ok(Collected::Waiting) => {
                self.lock().still_waiting = true;
                wait_for_next_round().await
            }
            Err(error) => {
                self.lock().refused = Some(refusal(error));
                wait_for_next_round().await
            }
        }
    }

    /// Runs `call` to the tracker's store with the round held open until it is done.
    async fn in_store<T>(&self, call: impl Future<Output = T>) -> T {
        self.lock().in_store += 1;
        let done = call.await;
        self.lock().in_store -= 1;
        done
    }

    /// The client's answer to the URL request under `key` in this request's `inputResponses`,
    /// when it is an elicitation result.
    fn url_response(&self, key: &str) -> Option<ElicitResult> {
        let run = self.lock();
        ElicitResult::deserialize(run.responses.get(key)?).ok()
    }
}

/// 2025-11-25: the request, then the wait for the completion.
async fn url_on_session<S: ElicitationStore>(
    peer: &Peer<RoleServer>,
    tracker: &ElicitationTracker<S>,
    initiator: &Initiator,
    prepared: Result<(PendingEntry, PendingUrlElicitation), StartError>,
) -> Result<UrlOutcome, ElicitError> {
    let pending = tracker.store_prepared(prepared).await?;
    let id = pending.id().as_str();
    let outcome = match send_url_elicitation(peer, &pending).await {
        Ok(UrlElicitOutcome::Consented) => {
            let waiting = wait_for_completion(tracker, id, initiator, None, None);
            match unless_session_ends(peer, waiting).await {
                Some(Ok(Collected::Completed(id))) => return Ok(UrlOutcome::Completed(id)),
                Some(Ok(Collected::Waiting)) => {
                    return Err(ElicitError::NotCompleted(CompletionError::NotPending));
                }
                Some(Err(error)) => return Err(ElicitError::NotCompleted(error)),
                // Nobody is left to tell: the elicitation is discarded below.
                None => Err(ElicitError::SessionEnded),
            }
        }
        Ok(UrlElicitOutcome::Declined) => Ok(UrlOutcome::Declined),
        Ok(UrlElicitOutcome::Cancelled) => Ok(UrlOutcome::Cancelled),
        Err(error) => Err(error),
    };
    // Nothing will complete it now. If the store fails, the entry lingers until it
    // expires, bound to its user.
    let _ = tracker.discard(id, &initiator.user).await;
    outcome
}

/// Runs `work` until it ends, or `None` once the session has ended (looked at every second):
/// a wait for an out-of-band step would otherwise last until the elicitation expires.
async fn unless_session_ends<T>(
    peer: &Peer<RoleServer>,
    work: impl Future<Output = T>,
) -> Option<T> {
    const BETWEEN_LOOKS: Duration = Duration::from_secs(1);
    let ended = async {
        while !peer.is_transport_closed() {
            tokio::time::sleep(BETWEEN_LOOKS).await;
        }
    };
    let (mut work, mut ended) = (pin!(work), pin!(ended));
    poll_fn(|cx| {
        if let Poll::Ready(done) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(done));
        }
        ended.as_mut().poll(cx).map(|()| None)
    })
    .await
}

/// Looks for the completion until it is collected, or `hold` has passed (`None`: until the
/// elicitation ends one way or another), less and less often. On 2026-07-28 (`round`), each
/// look holds the round open: a completion collected must reach the state.
async fn wait_for_completion<S: ElicitationStore>(
    tracker: &ElicitationTracker<S>,
    id: &str,
    initiator: &Initiator,
    hold: Option<Duration>,
    round: Option<&Ask>,
) -> Result<Collected, CompletionError> {
    const FIRST_LOOK: Duration = Duration::from_millis(25);
    const MOST_BETWEEN_LOOKS: Duration = Duration::from_secs(1);
    let started = Instant::now();
    let mut between = FIRST_LOOK;
    loop {
        let look = tracker.collect(id, &initiator.user);
        let looked = match round {
            Some(ask) => ask.in_store(look).await,
            None => look.await,
        };
        if let Collected::Completed(id) = looked? {
            return Ok(Collected::Completed(id));
        }
        if let Some(hold) = hold {
            let left = hold.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Ok(Collected::Waiting);
            }
            between = between.min(left);
        }
        tokio::time::sleep(between).await;
        between = (between * 2).min(MOST_BETWEEN_LOOKS);
    }
}

/// The error for a retry whose URL elicitation cannot complete: -32602 as for any state that
/// no longer holds (one message whatever the cause, as for the seal), -32603 when the store
/// failed.
fn refusal(error: CompletionError) -> sdk::ErrorData {
    match error {
        CompletionError::Store(e) => sdk::ErrorData::internal_error(e.to_string(), None),
        _ => sdk::ErrorData::invalid_params(
            "the URL elicitation in requestState is not pending: it expired, its completion \
             was already used, or it belongs to another user",
            None,
        ),
    }
}
