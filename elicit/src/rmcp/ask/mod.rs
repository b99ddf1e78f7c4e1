//! [`Ask`]: the one way a handler asks the user, the same on every way of asking.

use std::fmt;
use std::future::{Future, IntoFuture, poll_fn};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;

use ::rmcp::model as sdk;

mod askable;
pub(crate) mod keys;
pub(crate) mod way;

mod form;
mod sampling;
pub(crate) mod scope;
#[cfg(feature = "page")]
mod secure;
mod step;
#[cfg(feature = "url-mode")]
pub(crate) mod url;
#[cfg(feature = "url-mode")]
pub(crate) mod url_flow;

pub use askable::AskableForm;
pub use form::FormAsk;
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use url::UrlCompleted;

use self::keys::{AskedUnder, Asker, Keys};
use self::way::Way;

use crate::rmcp::error::ElicitError;
use crate::server::UserId;
use crate::{ClientForm, ElicitOutcome, HasMessage};

#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlCall;

/// The handle a handler asks the user through, on either protocol revision.
///
/// A `#[tool]` (or `#[prompt]`) method takes it as a parameter next to its `Parameters<T>`,
/// once the server is served through an [`Elicitation`](crate::rmcp::Elicitation); a
/// hand-written handler gets it with [`Ask::current`]. It asks as if each answer came back at
/// once:
/// - [`form::<T>()`](Ask::form) and [`form_with_message::<T>(message)`](Ask::form_with_message)
///   give a [`FormAsk`] to await, after setting its key, run-time defaults or timeout;
/// - [`forms::<A, B>()`](Ask::forms) asks for two forms at once;
/// - `url` (with `url-mode`) sends the user to a URL and goes on once the out-of-band
///   step is done;
/// - [`sample`](Ask::sample) and [`roots`](Ask::roots) ask the client's model or roots;
/// - [`step`](Ask::step) runs work once, even where a revision runs the method again;
/// - [`continue_as_task`](Ask::continue_as_task) goes on as a task once the asks before it are
///   answered, for a tool declared so on [`Tasks`](crate::rmcp::Tasks).
///
/// On 2025-11-25 each ask is a request to the client (`elicitation/create`); on 2026-07-28 it
/// is an input request of the call's `InputRequiredResult`; in a method that runs as a task it
/// is an input request of the task, answered by `tasks/update`. The outcomes and the errors are
/// the same on all three.
///
/// Cheap to clone; clones ask in the same call.
#[derive(Clone)]
pub struct Ask {
    inner: Arc<AskInner>,
}

struct AskInner {
    way: Arc<dyn Way>,
    keys: Mutex<Keys>,
    /// Whether a method took this ask as its parameter.
    taken: AtomicBool,
    settings: AskSettings,
    /// Who the request's user is, as the elicitation authenticated them.
    user: Option<UserId>,
    /// The URL mode of the elicitation: its tracker, and the connection a 2025-11-25
    /// completion notification goes to.
    #[cfg(feature = "url-mode")]
    url: Option<UrlCall>,
}

/// What an elicitation's settings say of each ask.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AskSettings {
    /// How many times one form may be asked in one call.
    pub max_asks: u32,
    /// Whether an answer with field errors is asked again by default.
    pub reask: bool,
    /// Whether the call's tool is declared to continue as a task.
    pub after_asks: bool,
}

impl AskSettings {
    /// How many times, by default, one form may be asked in one call: the default of
    /// `Elicitation::with_max_asks`, defined here so that the asks need nothing above them.
    pub const DEFAULT_MAX_ASKS: u32 = 5;

    /// The settings of an ask made outside an elicitation: the defaults.
    pub const DEFAULT: AskSettings = AskSettings {
        max_asks: AskSettings::DEFAULT_MAX_ASKS,
        reask: true,
        after_asks: false,
    };
}

impl fmt::Debug for Ask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ask")
            .field("way", &self.inner.way.describe())
            .field("settings", &self.inner.settings)
            .field("user", &self.inner.user)
            .finish_non_exhaustive()
    }
}

/// What an ask is made of, from the call that makes it.
pub(crate) struct AskParts {
    pub way: Arc<dyn Way>,
    pub replayed: Vec<AskedUnder>,
    pub settings: AskSettings,
    pub user: Option<UserId>,
    #[cfg(feature = "url-mode")]
    pub url: Option<UrlCall>,
}

impl Ask {
    pub(crate) fn new(parts: AskParts) -> Self {
        Ask {
            inner: Arc::new(AskInner {
                way: parts.way,
                keys: Mutex::new(Keys::replaying(parts.replayed)),
                taken: AtomicBool::new(false),
                settings: parts.settings,
                user: parts.user,
                #[cfg(feature = "url-mode")]
                url: parts.url,
            }),
        }
    }

    /// This ask, given to a method as its parameter.
    pub(crate) fn taken(&self) -> Ask {
        self.inner.taken.store(true, Ordering::Relaxed);
        self.clone()
    }

    pub(crate) fn was_taken(&self) -> bool {
        self.inner.taken.load(Ordering::Relaxed)
    }

    pub(crate) fn way(&self) -> &dyn Way {
        &*self.inner.way
    }

    pub(crate) fn reasks(&self) -> bool {
        self.inner.settings.reask
    }

    /// The key for `asker`'s next ask under `base` (see [`Keys::take`]).
    pub(crate) fn take_key(&self, base: &str, asker: Asker) -> Result<String, ElicitError> {
        self.keys().take(base, asker, self.inner.settings.max_asks)
    }

    /// The key of the next step (see [`Keys::take_step`]).
    pub(crate) fn take_step_key(&self) -> Result<String, ElicitError> {
        self.keys().take_step()
    }

    /// Every ask of the call so far, in order, for the state the call carries on: this run's,
    /// or the earlier runs' where they went further.
    pub(crate) fn take_asked(&self) -> Vec<AskedUnder> {
        std::mem::take(&mut *self.keys()).into_asked()
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, Keys> {
        self.inner
            .keys
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The user this call stands for, as the elicitation authenticated them
    /// (`Elicitation::with_authentication` over HTTP, feature `http`;
    /// [`with_local_user`](crate::rmcp::Elicitation::with_local_user) over stdio); `None`
    /// when the elicitation knows no user.
    pub fn user(&self) -> Option<&UserId> {
        self.inner.user.as_ref()
    }

    /// Goes on as a task from here, for a tool declared with
    /// [`Tasks::optional_after_asks`](crate::rmcp::Tasks::optional_after_asks) or
    /// [`required_after_asks`](crate::rmcp::Tasks::required_after_asks): what the method asked
    /// so far in input-required rounds is answered, the call is answered with a
    /// `CreateTaskResult`, and the method continues in the task, where its later asks are the
    /// task's input requests. The task runs the method again from the start with the answers
    /// and [steps](Self::step) gathered (as a round does: the same asks in the same order), and
    /// there `continue_as_task` returns at once.
    ///
    /// Returns at once, the whole method staying a plain call, for a client that did not
    /// declare the tasks extension (an `optional_after_asks` tool; a `required_after_asks` one
    /// is refused with -32021 before it runs), and on a 2025-11-25 session, whose asks were
    /// requests inside the call. URL-mode asks before it are not carried into the task.
    ///
    /// # Errors
    ///
    /// [`ElicitError::NotDeclaredForTasks`] when the tool is not declared for tasks after asks.
    pub async fn continue_as_task(&self) -> Result<(), ElicitError> {
        if !self.inner.settings.after_asks {
            return Err(ElicitError::NotDeclaredForTasks);
        }
        self.inner.way.continue_as_task().await
    }

    /// Asks for form `T` with the message of its `#[elicit(message = "..")]`; await it, or
    /// set options on it first.
    ///
    /// Gives the typed outcome. An answer with field errors is asked again, the errors in the
    /// message and the right answers kept, up to
    /// [`Elicitation::with_max_asks`](crate::rmcp::Elicitation::with_max_asks) times
    /// ([`ElicitError::TooManyAsks`] after that), unless the ask or the elicitation says not to
    /// ([`FormAsk::with_reask`]); then the field errors come back as
    /// [`ElicitError::InvalidContent`].
    ///
    /// `T` must be a [`ClientForm`], a form without a [`Secret`](crate::Secret) field: the
    /// client sees every answer, and the spec forbids asking for secrets in form mode. A form
    /// with one does not compile here; it is asked on the server's own page, through URL mode.
    pub fn form<T>(&self) -> FormAsk<'_, T>
    where
        T: AskableForm + ClientForm + Send,
    {
        self.form_with_message::<T>(<T as HasMessage>::MESSAGE)
    }

    /// Asks for form `T` with `message`, for a message known only at run time. `T` must be a
    /// [`ClientForm`], as for [`form`](Self::form).
    pub fn form_with_message<T>(&self, message: impl Into<String>) -> FormAsk<'_, T>
    where
        T: ClientForm + Send,
    {
        FormAsk::new(self, message.into())
    }

    /// Asks for forms `A` and `B` at once: on 2026-07-28 both go out in one round (and come
    /// back on one retry); on 2025-11-25 both requests go out together. Their keys must
    /// differ, and both must be [`ClientForm`]s, as for [`form`](Self::form).
    pub async fn forms<A, B>(&self) -> Result<(ElicitOutcome<A>, ElicitOutcome<B>), ElicitError>
    where
        A: AskableForm + ClientForm + Send,
        B: AskableForm + ClientForm + Send,
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
        self.inner.way.client_capabilities()
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
