//! URL mode through [`Ask`]: one call that sends the user to a URL and goes on once the
//! out-of-band step is done, on either revision.

use std::future::Future;
use std::time::{Duration, Instant, SystemTime};

use ::rmcp::service::ServiceError;

use super::Ask;
use super::keys::{AskKind, Asker};
use super::url_flow::{UrlFlow, UrlStatus};
use super::way::Hold;
use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::Answer;
use crate::rmcp::kind::url::Url;
use crate::rmcp::tracking::UrlTracking;
use crate::server::{
    Collected, CompletionError, Initiator, PreparedUrlElicitation, StartError, UserId,
};
use crate::wire::{ElicitRequestUrlParams, ElicitationCapability, ElicitationId};
use crate::{ElicitOutcome, UrlConsent};

/// What an accept means for [`Ask::url`]: the user consented and finished the out-of-band
/// step, and the tracker completed the elicitation for the user who started it. What the step
/// produced (a token, a key) is the server's, bound to that user by the page that completed it.
///
/// One of the [family of outcomes](crate::ElicitOutcome#one-family-of-outcomes): `Ask::url`
/// gives `ElicitOutcome<UrlCompleted>`, the same on both revisions and inside a task.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UrlCompleted {
    id: ElicitationId,
}

impl UrlCompleted {
    /// The id of the completed elicitation.
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }
}

/// What [`Ask::url`] does, decided before its future (so that `url` need not be `Send`).
enum Step {
    /// Refused before anything is sent.
    Refused(ElicitError),
    /// Store the elicitation (checked and built already), then ask for consent.
    Start(String, Box<Result<PreparedUrlElicitation, StartError>>),
    /// A later run of the call (2026-07-28): the elicitation it asked.
    Going(String, UrlFlow),
}

impl Ask {
    /// Sends the user to a URL for an out-of-band step (an OAuth flow, a payment, a secret
    /// typed into the server's own page) and goes on once that step is done: an
    /// [`ElicitOutcome`] whose accept is [`UrlCompleted`], the same on both revisions and inside
    /// a task.
    ///
    /// The elicitation is started with the tracker of the [`Elicitation`](crate::rmcp::Elicitation)
    /// ([`with_url_mode`](crate::rmcp::Elicitation::with_url_mode)), bound to the request's
    /// authenticated user: `url` builds the link from the new id, and the tracker's policy checks
    /// it (a URL it refuses gives [`ElicitError::Start`], and nothing is sent); at most the
    /// tracker's number pending per user; expiring after its time to live. The page the URL leads
    /// to completes it with
    /// [`ElicitationTracker::complete`](crate::server::ElicitationTracker::complete): only the user
    /// who started it can, once, before it expires.
    ///
    /// How the user's step is waited for, side by side:
    ///
    /// - **the request**
    ///   - 2025-11-25: `elicitation/create` in URL mode, with its `elicitationId`
    ///   - 2026-07-28: an input request of the round's `InputRequiredResult`, with the same
    ///     `elicitationId` (the state carries the rest, sealed)
    /// - **decline, cancel**
    ///   - 2025-11-25: the outcome; the elicitation is discarded
    ///   - 2026-07-28: the same, on the retry that brings the answer
    /// - **while the step goes on**
    ///   - 2025-11-25: the call waits (progress notifications on the call's `progressToken` say so)
    ///   - 2026-07-28: each retry waits up to
    ///     [`Elicitation::with_url_hold`](crate::rmcp::Elicitation::with_url_hold) (by default an
    ///     eighth of [`with_url_wait`](crate::rmcp::Elicitation::with_url_wait), 5 minutes: a
    ///     client's default limit of 10 rounds covers it), then answers with a state-only
    ///     `InputRequiredResult` ("still waiting"); these rounds do not count toward
    ///     [`Elicitation::with_max_rounds`](crate::rmcp::Elicitation::with_max_rounds)
    /// - **the step done**
    ///   - 2025-11-25: the call goes on; the elicitation's owner sends the completion notification
    ///     ([`Elicitation::notify_completed`](crate::rmcp::Elicitation::notify_completed))
    ///   - 2026-07-28: the retry collects the completion, once (an earlier state replayed after
    ///     that is refused with -32602), and the handler goes on; there is no notification
    /// - **how long at most**
    ///   - 2025-11-25: until the elicitation expires (the tracker's time to live):
    ///     [`ElicitError::NotCompleted`]
    ///   - 2026-07-28: the same
    /// - **the client goes away**
    ///   - 2025-11-25: [`ElicitError::SessionEnded`], and the elicitation is discarded
    ///   - 2026-07-28: each retry keeps the elicitation for
    ///     [`Elicitation::with_url_lease`](crate::rmcp::Elicitation::with_url_lease) (a minute)
    ///     more: a client that stops retrying leaves it, and it stops counting against the user's
    ///     limit one lease later
    ///
    /// A client that did not declare URL mode gets [`ElicitError::ModeNotSupported`] (which a
    /// handler that lets it through answers with -32021 and `requiredCapabilities`
    /// `{"elicitation": {"url": {}}}`). An elicitation in the state that is another user's is
    /// refused with -32602. The request is answered under the input key `url` (`url-2` for the
    /// second, and so on).
    ///
    /// ```no_run
    /// use elicit_mcp::ElicitOutcome;
    /// use elicit_mcp::rmcp::Ask;
    /// use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
    ///
    /// async fn connect(ask: Ask) -> Result<CallToolResult, ErrorData> {
    ///     let outcome = ask
    ///         .url("Connect your Example Co account.", |id| {
    ///             format!("https://mcp.example.com/connect?elicitationId={id}")
    ///         })
    ///         .await;
    ///     let reply = match outcome {
    ///         Ok(ElicitOutcome::Accepted(done)) => format!("connected ({})", done.id()),
    ///         Ok(_) => "not connected".to_owned(),
    ///         Err(error) => return Ok(error.to_tool_result()),
    ///     };
    ///     Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// Besides the above: [`ElicitError::UrlModeNotConfigured`] when the elicitation has no
    /// tracker, [`ElicitError::NoUser`] when it knows no user to bind the elicitation to.
    pub fn url<'a>(
        &'a self,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
    ) -> impl Future<Output = Result<ElicitOutcome<UrlCompleted>, ElicitError>> + Send + 'a {
        self.url_made(message, url, |_| std::future::ready(Ok(())))
    }

    /// [`url`](Self::url), running `made` once the elicitation is stored and before the client
    /// is given its link (on the round that starts it): what the link leads to is ready before
    /// anyone can open it.
    pub(crate) fn url_made<'a, Made>(
        &'a self,
        message: impl Into<String>,
        url: impl FnOnce(&ElicitationId) -> String,
        made: impl FnOnce(ElicitationId) -> Made + Send + 'a,
    ) -> impl Future<Output = Result<ElicitOutcome<UrlCompleted>, ElicitError>> + Send + 'a
    where
        Made: Future<Output = Result<(), ElicitError>> + Send + 'a,
    {
        let step = self.url_step(message.into(), url);
        async move {
            let (key, flow) = match step {
                Step::Refused(error) => return Err(error),
                Step::Going(key, flow) => (key, flow),
                Step::Start(key, prepared) => {
                    let (tracker, initiator) = self.url_mode()?;
                    let hold = Hold::new(self.way());
                    let pending = tracker.store_prepared((*prepared)?).await?;
                    if let Err(error) = made(pending.id().clone()).await {
                        let _ = tracker
                            .discard(pending.id().as_str(), &initiator.user)
                            .await;
                        return Err(error);
                    }
                    let flow = UrlFlow::asked(&pending);
                    self.way().keep_flow(&key, &flow);
                    drop(hold);
                    (key, flow)
                }
            };
            let id = flow.id.clone();
            let outcome = self.go_on(&key, flow).await;
            match &outcome {
                // Still going (a later round looks again), or done for good.
                Ok(ElicitOutcome::Accepted(_)) => {}
                // Nothing will complete it now. If the store fails, the entry lingers until it
                // expires, bound to its user.
                _ => {
                    if let Ok((tracker, initiator)) = self.url_mode() {
                        let _ = tracker.discard(&id, &initiator.user).await;
                    }
                }
            }
            outcome
        }
    }

    /// Who starts a URL-mode elicitation of this call, and the tracker it goes to.
    pub(crate) fn url_mode(&self) -> Result<(&dyn UrlTracking, Initiator), ElicitError> {
        let Some(url) = &self.inner.url else {
            return Err(ElicitError::UrlModeNotConfigured);
        };
        let user = self.user().ok_or(ElicitError::NoUser)?;
        Ok((
            &*url.tracker,
            Initiator::new(user.clone(), url.connection.clone()),
        ))
    }

    /// The user this call stands for and the connection it came on, for URL-mode calls made
    /// outside an ask (the -32042 error of `ElicitUrlPeer::url_elicitation_required`).
    ///
    /// # Errors
    ///
    /// [`ElicitError::UrlModeNotConfigured`] or [`ElicitError::NoUser`], as for [`url`](Self::url).
    pub fn initiator(&self) -> Result<Initiator, ElicitError> {
        self.url_mode().map(|(_, initiator)| initiator)
    }

    fn url_step(&self, message: String, url: impl FnOnce(&ElicitationId) -> String) -> Step {
        let key = match self.take_key("url", Asker::Of(AskKind::Url)) {
            Ok(key) => key,
            Err(refused) => return Step::Refused(refused),
        };
        if let Some(flow) = self.way().flow(&key) {
            return Step::Going(key, flow);
        }
        let (tracker, initiator) = match self.url_mode() {
            Ok(mode) => mode,
            Err(refused) => return Step::Refused(refused),
        };
        let client = self
            .client_capabilities()
            .as_ref()
            .and_then(|client| client.elicitation.as_ref())
            .map(ElicitationCapability::from);
        let by = self.way().awaited_by();
        let mut url = Some(url);
        let mut build = |id: &ElicitationId| url.take().map(|url| url(id)).unwrap_or_default();
        let prepared = tracker
            .prepare(&initiator, client.as_ref(), message, &mut build)
            .map(|prepared| prepared.with_awaited_by(by));
        Step::Start(key, Box::new(prepared))
    }

    /// Asks for consent (unless an earlier round has it), then waits for the completion.
    async fn go_on(
        &self,
        key: &str,
        mut flow: UrlFlow,
    ) -> Result<ElicitOutcome<UrlCompleted>, ElicitError> {
        let way = self.way();
        if flow.status == UrlStatus::Asked {
            let params = ElicitRequestUrlParams::from_parts(
                flow.message.clone(),
                flow.url.clone(),
                ElicitationId::new(flow.id.clone()),
                None,
            );
            let answer = way.answer(key, Box::new(Url(params)), None).await?;
            let Answer::Elicitation(result) = answer else {
                return Err(ElicitError::Service(ServiceError::UnexpectedResponse));
            };
            // Content with a URL-mode answer: a client bug not to act on.
            flow.status =
                match UrlConsent::from_result(&result).map_err(ElicitError::UnexpectedContent)? {
                    ElicitOutcome::Accepted(UrlConsent) => UrlStatus::Consented,
                    ElicitOutcome::Declined => UrlStatus::Declined,
                    ElicitOutcome::Cancelled => UrlStatus::Cancelled,
                };
            way.keep_flow(key, &flow);
        }
        match flow.status {
            UrlStatus::Asked | UrlStatus::Consented => {}
            UrlStatus::Completed => {
                let id = ElicitationId::new(flow.id);
                return Ok(ElicitOutcome::Accepted(UrlCompleted { id }));
            }
            UrlStatus::Declined => return Ok(ElicitOutcome::Declined),
            UrlStatus::Cancelled => return Ok(ElicitOutcome::Cancelled),
        }
        let (tracker, initiator) = self.url_mode()?;
        let id = way.completion(tracker, &initiator.user, &flow).await?;
        flow.status = UrlStatus::Completed;
        way.keep_flow(key, &flow);
        Ok(ElicitOutcome::Accepted(UrlCompleted { id }))
    }
}

/// When [`look_until`] takes its first look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FirstLook {
    /// At once.
    Now,
    /// After the first wait: the caller has just seen the elicitation pending (a retry that
    /// renewed it, whose store checked its state in the same step), so a look at once would
    /// only cost the store a read.
    AfterFirstWait,
}

/// Looks for the completion of `id` until it is collected, or `hold` has passed (`None`: until
/// the elicitation ends one way or another), less and less often: how every way of asking waits
/// for the out-of-band step.
pub(crate) async fn look_until(
    tracker: &dyn UrlTracking,
    way: &dyn crate::rmcp::ask::way::Way,
    user: &UserId,
    id: &str,
    hold: Option<Duration>,
    first: FirstLook,
) -> Result<Collected, CompletionError> {
    const FIRST_WAIT: Duration = Duration::from_millis(25);
    const MAX_BETWEEN_LOOKS: Duration = Duration::from_secs(1);
    let started = Instant::now();
    let mut between = FIRST_WAIT;
    let mut look = first == FirstLook::Now;
    loop {
        if look {
            let looked = {
                let _hold = Hold::new(way);
                tracker.collect(id, user).await
            };
            if let Collected::Completed(id) = looked? {
                return Ok(Collected::Completed(id));
            }
        }
        look = true;
        if let Some(hold) = hold {
            let left = hold.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Ok(Collected::Waiting);
            }
            between = between.min(left);
        }
        tokio::time::sleep(between).await;
        between = (between * 2).min(MAX_BETWEEN_LOOKS);
    }
}

/// What a wait that ended without a completion means for an elicitation that expires at
/// `expires_at`: a store that drops expired entries by itself says "not pending" for them.
pub(crate) fn not_completed(
    error: CompletionError,
    tracker: &dyn UrlTracking,
    expires_at: SystemTime,
) -> ElicitError {
    match error {
        CompletionError::NotPending if tracker.now() >= expires_at => {
            ElicitError::NotCompleted(CompletionError::Expired)
        }
        other => ElicitError::NotCompleted(other),
    }
}
