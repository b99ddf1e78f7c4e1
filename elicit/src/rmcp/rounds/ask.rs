//! [`Ask`]: the one way a handler asks the user, the same on both revisions.

use std::future::{Future, IntoFuture, poll_fn};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, RoleServer};

use super::exchange::Exchange;
use super::exchange::next_round;
use super::form::FormAsk;
use super::in_task::{Escalation, Gathered};
use super::keys::Asker;
use super::keys::Keys;
use super::state::{RoundLeft, RoundState};
use crate::ElicitOutcome;
use crate::rmcp::AskableForm;
use crate::rmcp::error::ElicitError;
use crate::{Elicit, HasMessage};

/// The handle a handler asks the user through, on either protocol revision.
///
/// A `#[tool]` (or `#[prompt]`) method takes it as a parameter next to its `Parameters<T>`,
/// once the server's router is wrapped by [`Rounds::tools`](super::Rounds::tools) (see
/// [`Rounds`](super::Rounds)). It asks as if each answer came back at once:
/// - [`form::<T>()`](Ask::form) and [`form_with_message::<T>(message)`](Ask::form_with_message)
///   give a [`FormAsk`] to await, after setting its key, run-time defaults or timeout;
/// - [`forms::<A, B>()`](Ask::forms) asks for two forms at once;
/// - `url` (with `url-mode`) sends the user to a URL and goes on once the out-of-band
///   step is done;
/// - [`sample`](Ask::sample) and [`roots`](Ask::roots) ask the client's model or roots;
/// - [`continue_as_task`](Ask::continue_as_task) goes on as a task once the asks before it are
///   answered, for a tool declared so on [`Tasks`](crate::rmcp::Tasks).
///
/// On 2025-11-25 each ask is a request to the client (`elicitation/create`); on 2026-07-28 it
/// is an input request of the call's `InputRequiredResult`; in a method that runs as a task
/// ([`Tasks`](crate::rmcp::Tasks)) it is an input request of the task, answered by
/// `tasks/update`. The outcomes and the errors are the same on all three.
///
/// Cheap to clone; clones ask in the same call.
#[derive(Clone)]
pub struct Ask {
    inner: Arc<AskInner>,
}

struct AskInner {
    exchange: Exchange,
    keys: Mutex<Keys>,
    /// Whether a method took this ask as its parameter.
    taken: AtomicBool,
    /// How many times one form may be asked in one call.
    most_asks: u32,
    /// Whether an answer with field errors is asked again by default.
    reask: bool,
    /// Whether this call may continue as a task, from [`Tasks`](crate::rmcp::Tasks).
    escalation: Option<Escalation>,
}

impl std::fmt::Debug for Ask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let exchange = match &self.inner.exchange {
            Exchange::Session { .. } => "requests (2025-11-25)",
            Exchange::Round { .. } => "rounds (2026-07-28)",
            Exchange::Task { .. } => "a task's input requests",
        };
        f.debug_struct("Ask")
            .field("exchange", &exchange)
            .field("most_asks", &self.inner.most_asks)
            .field("reask", &self.inner.reask)
            .finish()
    }
}

impl Ask {
    /// An ask on a 2025-11-25 session, outside [`Rounds`](super::Rounds).
    pub(crate) fn on_session(peer: Peer<RoleServer>) -> Self {
        let exchange = Exchange::Session {
            peer,
            timeout: None,
        };
        Self::new(
            exchange,
            Keys::default(),
            super::Rounds::DEFAULT_MOST_ASKS,
            true,
            None,
        )
    }

    pub(super) fn new(
        exchange: Exchange,
        keys: Keys,
        most_asks: u32,
        reask: bool,
        escalation: Option<Escalation>,
    ) -> Self {
        Ask {
            inner: Arc::new(AskInner {
                exchange,
                keys: Mutex::new(keys),
                taken: AtomicBool::new(false),
                most_asks,
                reask,
                escalation,
            }),
        }
    }

    /// Leaves what the call gathered for the task that continues it.
    pub(super) fn escalate(&self, gathered: Gathered) {
        if let Some(escalation) = &self.inner.escalation {
            escalation.fill(gathered);
        }
    }

    /// Goes on as a task from here, for a tool declared with
    /// [`Tasks::optional_after_asks`](crate::rmcp::Tasks::optional_after_asks) or
    /// [`required_after_asks`](crate::rmcp::Tasks::required_after_asks): what the method asked
    /// so far in input-required rounds is answered, the call is answered with a
    /// `CreateTaskResult`, and the method continues in the task, where its later asks are the
    /// task's input requests. The task runs the method again from the start with the answers
    /// gathered (as a round does: the same asks in the same order, side effects after them),
    /// and there `continue_as_task` returns at once.
    ///
    /// Returns at once, the whole method staying a plain call, for a client that did not
    /// declare the tasks extension (an `optional_after_asks` tool; a `required_after_asks` one
    /// is refused with -32021 before it runs), and on a 2025-11-25 session, whose asks were
    /// requests inside the call. URL-mode asks before it are not carried into the task.
    ///
    /// # Errors
    ///
    /// An internal error naming the mistake when the tool is not declared for tasks after
    /// asks.
    pub async fn continue_as_task(&self) -> Result<(), ElicitError> {
        match (&self.inner.exchange, &self.inner.escalation) {
            (Exchange::Task { .. }, _) => Ok(()),
            (Exchange::Round { .. }, Some(Escalation::Slot(_))) => {
                self.inner.exchange.on_round(RoundState::escalate);
                next_round().await
            }
            (_, Some(_)) => Ok(()),
            (_, None) => Err(ElicitError::Service(
                ::rmcp::service::ServiceError::McpError(sdk::ErrorData::internal_error(
                    "the handler calls `Ask::continue_as_task`, but its tool is not declared \
                     with `Tasks::optional_after_asks` or `Tasks::required_after_asks`",
                    None,
                )),
            )),
        }
    }

    /// This ask, given to a method as its parameter.
    pub(super) fn taken(&self) -> Ask {
        self.inner.taken.store(true, Ordering::Relaxed);
        self.clone()
    }

    pub(super) fn was_taken(&self) -> bool {
        self.inner.taken.load(Ordering::Relaxed)
    }

    pub(super) fn exchange(&self) -> &Exchange {
        &self.inner.exchange
    }

    pub(super) fn reasks(&self) -> bool {
        self.inner.reask
    }

    /// The key for `asker`'s next ask under `base` (see [`Keys::take`]).
    pub(super) fn take_key(&self, base: &str, asker: Asker) -> Result<String, ElicitError> {
        let mut keys = self
            .inner
            .keys
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        keys.take(base, asker, self.inner.most_asks)
    }

    /// Ends the round (2026-07-28): what the handler waits for, and the state to seal; `None`
    /// on 2025-11-25.
    pub(super) fn end_round(&self, nonce: String) -> Option<RoundLeft> {
        let asked = {
            let mut keys = self
                .inner
                .keys
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            std::mem::take(&mut *keys).into_asked()
        };
        self.inner
            .exchange
            .on_round(|state| std::mem::take(state).end(asked, nonce))
    }

    /// Asks for form `T` with the message of its `#[elicit(message = "..")]`; await it, or
    /// set options on it first.
    ///
    /// Gives the typed outcome. An answer with field errors is asked again, the errors in the
    /// message and the right answers kept, up to [`Rounds::with_most_asks`](super::Rounds::with_most_asks)
    /// times ([`ElicitError::TooManyAsks`] after that), unless the ask or the
    /// [`Rounds`](super::Rounds) says not to ([`FormAsk::with_reask`]); then the field errors
    /// come back as [`ElicitError::InvalidContent`].
    pub fn form<T>(&self) -> FormAsk<'_, T>
    where
        T: AskableForm + Send,
    {
        self.form_with_message::<T>(<T as HasMessage>::MESSAGE)
    }

    /// Asks for form `T` with `message`, for a message known only at run time.
    pub fn form_with_message<T>(&self, message: impl Into<String>) -> FormAsk<'_, T>
    where
        T: Elicit + Send,
    {
        FormAsk::new(self, message.into())
    }

    /// Asks for forms `A` and `B` at once: on 2026-07-28 both go out in one round (and come
    /// back on one retry); on 2025-11-25 both requests go out together. Their keys must
    /// differ.
    pub async fn forms<A, B>(&self) -> Result<(ElicitOutcome<A>, ElicitOutcome<B>), ElicitError>
    where
        A: AskableForm + Send,
        B: AskableForm + Send,
    {
        let (a, b) = both(
            self.form::<A>().into_future(),
            self.form::<B>().into_future(),
        )
        .await;
        Ok((a?, b?))
    }

    /// The capabilities the client declared (at `initialize` on 2025-11-25, in this
    /// request's `_meta` on 2026-07-28), for a tool that adapts what it asks to what the
    /// client can answer.
    pub fn client_capabilities(&self) -> Option<sdk::ClientCapabilities> {
        self.inner.exchange.client_capabilities()
    }
}

/// Both futures to their end, polled in turn (so that `a` asks first, the same on every run).
async fn both<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let (mut a, mut b) = (pin!(a), pin!(b));
    let (mut done_a, mut done_b) = (None, None);
    poll_fn(|cx| {
        if done_a.is_none()
            && let Poll::Ready(output) = a.as_mut().poll(cx)
        {
            done_a = Some(output);
        }
        if done_b.is_none()
            && let Poll::Ready(output) = b.as_mut().poll(cx)
        {
            done_b = Some(output);
        }
        match (done_a.take(), done_b.take()) {
            (Some(a), Some(b)) => Poll::Ready((a, b)),
            (a, b) => {
                done_a = a;
                done_b = b;
                Poll::Pending
            }
        }
    })
    .await
}
