//! [`Elicitation`]: what a server that asks its users builds once, at start-up, and serves its
//! handler through.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::rmcp::ask::AskSettings;
use crate::rmcp::revision::v2026_07_28::RequestStateSeal;
use crate::rmcp::running::{AskUse, Settings};
use crate::rmcp::tasks::{TaskRuntime, TaskSetupError, Tasks};
use crate::server::UserId;

#[cfg(feature = "url-mode")]
use crate::rmcp::peer::ConnectionPeers;
#[cfg(feature = "url-mode")]
use crate::rmcp::error::ElicitError;
#[cfg(feature = "url-mode")]
use crate::rmcp::running::UrlWait;
#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::SharedTracker;
#[cfg(feature = "page")]
use crate::server::SecureForms;
#[cfg(feature = "url-mode")]
use crate::server::{CompletedElicitation, ElicitationStore, ElicitationTracker};

#[cfg(feature = "http")]
use crate::rmcp::authenticate::{Authenticate, SharedAuthenticate};
use crate::server::debug_as_message;

/// What a server that asks its users builds once, at start-up: the seal of 2026-07-28's
/// `requestState`, the tools that run as tasks and their runtime, URL mode's tracker, who the
/// user of a request is, and the limits of a call. Every session, request and task of the
/// server goes through the one value (clones are handles to it), so none of it can be built
/// per session by mistake: the only ways to serve a handler are this value's
/// ([`serve`](Self::serve), and over streamable HTTP `elicit_mcp::http::Guard::serve`), and each
/// takes the handler (or its per-session factory) and keeps the state itself.
///
/// The handler is a plain rmcp server: `#[tool_router]` and `#[tool_handler]`, methods that
/// take an [`Ask`](crate::rmcp::Ask). Served through an elicitation, each method that asks does
/// so by `elicitation/create` on 2025-11-25 and by input-required results on 2026-07-28 (the
/// same methods, listed the same on both); a method declared in [`Tasks`] runs as a task for a
/// client that declared the extension, and the server answers `tasks/get`, `tasks/update` and
/// `tasks/cancel` and declares the extension by itself; `prompts/get` and `resources/read` may
/// ask too (a hand-written handler gets its ask with [`Ask::current`](crate::rmcp::Ask::current)).
///
/// ```no_run
/// use elicit_mcp::rmcp::{Ask, Elicitation, RequestStateSeal};
/// use elicit_mcp::{Elicit, ElicitOutcome};
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
/// use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(message = "Who is the booking for?")]
/// struct Guest {
///     #[elicit(min_length = 1)]
///     name: String,
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct BookArgs {
///     room: String,
/// }
///
/// #[derive(Clone)]
/// struct Hotel {
///     tool_router: ToolRouter<Hotel>,
/// }
///
/// #[tool_router]
/// impl Hotel {
///     fn new() -> Self {
///         Hotel { tool_router: Self::tool_router() }
///     }
///
///     #[tool(description = "Book a room")]
///     async fn book(
///         &self,
///         Parameters(args): Parameters<BookArgs>,
///         ask: Ask,
///     ) -> Result<CallToolResult, ErrorData> {
///         let reply = match ask.form::<Guest>().await? {
///             ElicitOutcome::Accepted(guest) => {
///                 format!("{} booked for {}", args.room, guest.name)
///             }
///             ElicitOutcome::Declined | ElicitOutcome::Cancelled => "no booking".to_owned(),
///         };
///         Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
///     }
/// }
///
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Hotel {}
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let elicitation = Elicitation::new(RequestStateSeal::generated()?);
/// elicitation.serve(Hotel::new(), rmcp::transport::stdio()).await?.waiting().await?;
/// # Ok(())
/// # }
/// ```
///
/// # What a call may cost
///
/// A client that keeps answering with an empty or wrong answer does not loop forever: one form
/// is asked at most [`with_max_asks`](Self::with_max_asks) times in a call (then
/// [`ElicitError::TooManyAsks`](crate::rmcp::ElicitError::TooManyAsks)), a call takes at most
/// [`with_max_rounds`](Self::with_max_rounds) input-required rounds, and its sealed state at
/// most [`with_max_state_bytes`](Self::with_max_state_bytes). A 2025-11-25 form waits at most
/// [`with_timeout`](Self::with_timeout) for the client's answer.
#[derive(Clone)]
pub struct Elicitation {
    pub(crate) seal: RequestStateSeal,
    pub(crate) settings: Settings,
    /// The task runtime, or why the declarations do not hold (said at start-up).
    pub(crate) tasks: Option<Result<TaskRuntime, TaskSetupError>>,
    pub(crate) user: UserSource,
    #[cfg(feature = "url-mode")]
    pub(crate) url: Option<UrlMode>,
    /// The server's page for forms with secret fields (`Ask::secure`).
    #[cfg(feature = "page")]
    pub(crate) secure: Option<SecureForms>,
    /// This process's name among the server's replicas, which its connections carry.
    #[cfg(feature = "url-mode")]
    pub(crate) replica: Option<String>,
    /// What each tool is known to do with its ask, by name.
    ask_uses: Arc<Mutex<HashMap<String, Arc<AskUse>>>>,
}

/// Where the user of a request comes from.
#[derive(Clone)]
pub(crate) enum UserSource {
    /// No user: states are bound to the request alone, tasks to nobody, and URL mode refuses.
    Nobody,
    /// Every request is this user's: a server over stdio, used by the person who started it.
    Local(UserId),
    /// Each HTTP request's own, as the server's check found it; a request without HTTP parts
    /// (stdio) is `local`'s, if given.
    #[cfg(feature = "http")]
    Authenticated {
        check: SharedAuthenticate,
        local: Option<UserId>,
    },
}

/// URL mode: the tracker, and the sessions a completion notification goes to.
#[cfg(feature = "url-mode")]
#[derive(Clone)]
pub(crate) struct UrlMode {
    pub tracker: SharedTracker,
    pub connections: Arc<ConnectionPeers>,
}

impl fmt::Debug for Elicitation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let user = match &self.user {
            UserSource::Nobody => "nobody",
            UserSource::Local(_) => "a local user",
            #[cfg(feature = "http")]
            UserSource::Authenticated { .. } => "authenticated",
        };
        let mut debug = f.debug_struct("Elicitation");
        debug
            .field("seal", &self.seal)
            .field("settings", &self.settings)
            .field("tasks", &self.tasks)
            .field("user", &user);
        #[cfg(feature = "url-mode")]
        debug.field("url_mode", &self.url.is_some());
        debug.finish_non_exhaustive()
    }
}

impl Elicitation {
    /// How long, by default, a 2025-11-25 ask waits for the client's answer
    /// ([`with_timeout`](Self::with_timeout)).
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10 * 60);
    /// How many times, by default, one form may be asked in one call
    /// ([`with_max_asks`](Self::with_max_asks)).
    pub const DEFAULT_MAX_ASKS: u32 = AskSettings::DEFAULT_MAX_ASKS;
    /// How many input-required rounds, by default, one call may take
    /// ([`with_max_rounds`](Self::with_max_rounds)).
    pub const DEFAULT_MAX_ROUNDS: u32 = 16;
    /// How large, by default, a sealed `requestState` may grow
    /// ([`with_max_state_bytes`](Self::with_max_state_bytes)).
    pub const DEFAULT_MAX_STATE_BYTES: usize = 64 * 1024;

    /// An elicitation whose 2026-07-28 states `seal` protects, with the defaults above,
    /// re-asks on, no tasks, no URL mode and no user.
    pub fn new(seal: RequestStateSeal) -> Self {
        Elicitation {
            seal,
            settings: Settings {
                ask: AskSettings::DEFAULT,
                timeout: Some(Self::DEFAULT_TIMEOUT),
                max_rounds: Self::DEFAULT_MAX_ROUNDS,
                max_state_bytes: Self::DEFAULT_MAX_STATE_BYTES,
                #[cfg(feature = "url-mode")]
                url_wait: UrlWait::DEFAULT,
            },
            tasks: None,
            user: UserSource::Nobody,
            #[cfg(feature = "url-mode")]
            url: None,
            #[cfg(feature = "page")]
            secure: None,
            #[cfg(feature = "url-mode")]
            replica: None,
            ask_uses: Arc::default(),
        }
    }

    /// The tools that run as tasks ([`Tasks`]); the server then declares the tasks extension
    /// and answers `tasks/get`, `tasks/update` and `tasks/cancel` by itself. A declaration that
    /// does not hold (a tool declared twice, or one the server does not list) stops the server
    /// at start-up with a [`SetupError`].
    pub fn with_tasks(mut self, tasks: Tasks) -> Self {
        self.tasks = Some(tasks.into_runtime());
        self
    }

    /// Every request is `user`'s: a server over stdio, which the person who started it uses.
    /// Binds states, tasks and URL-mode elicitations to them.
    pub fn with_local_user(mut self, user: UserId) -> Self {
        self.user = match self.user {
            #[cfg(feature = "http")]
            UserSource::Authenticated { check, .. } => UserSource::Authenticated {
                check,
                local: Some(user),
            },
            _ => UserSource::Local(user),
        };
        self
    }

    /// How the user of an HTTP request is verified: the server's own check of the credentials
    /// the request carries ([`Authenticate`], a closure from the request's parts to a
    /// [`UserId`] or a refusal). The guard runs it on every request before rmcp reads it: a
    /// refusal is answered with its status and `WWW-Authenticate` challenge, and the user binds
    /// every ask of the request on both revisions and inside tasks (states, tasks, URL-mode
    /// elicitations). See `elicit_mcp::http::Guard::serve`.
    ///
    /// ```
    /// use elicit_mcp::http::Unauthenticated;
    /// use elicit_mcp::rmcp::{Elicitation, RequestStateSeal};
    /// use elicit_mcp::server::UserId;
    ///
    /// /// The server's own check of a bearer token (here, a fixed table).
    /// fn verify(token: &str) -> Option<&'static str> {
    ///     match token {
    ///         "alice-token" => Some("alice"),
    ///         _ => None,
    ///     }
    /// }
    ///
    /// let elicitation = Elicitation::new(RequestStateSeal::generated().unwrap())
    ///     .with_authentication(|request: &http::request::Parts| {
    ///         let token = Unauthenticated::bearer_token(request)?;
    ///         let invalid = || Unauthenticated::bearer("invalid_token");
    ///         let subject = verify(token).ok_or_else(invalid)?;
    ///         UserId::from_verified_subject(subject).map_err(|_| invalid())
    ///     });
    /// # let _ = elicitation;
    /// ```
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn with_authentication(mut self, check: impl Authenticate) -> Self {
        let local = match self.user {
            UserSource::Local(user) => Some(user),
            UserSource::Authenticated { local, .. } => local,
            UserSource::Nobody => None,
        };
        self.user = UserSource::Authenticated {
            check: Arc::new(check),
            local,
        };
        self
    }

    /// URL mode ([`Ask::url`](crate::rmcp::Ask::url)) on `tracker`: the elicitations are bound
    /// to the request's user (so a server that asks in URL mode needs one: over HTTP it refuses
    /// to start without [`with_authentication`](Self::with_authentication), over stdio without
    /// [`with_local_user`](Self::with_local_user)). The server keeps its own handle to the
    /// tracker for its connect page, which completes the elicitations
    /// ([`ElicitationTracker::complete`]) and then sends the notification with
    /// [`notify_completed`](Self::notify_completed).
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn with_url_mode<S: ElicitationStore + 'static>(
        mut self,
        tracker: Arc<ElicitationTracker<S>>,
    ) -> Self {
        self.url = Some(UrlMode {
            tracker,
            connections: Arc::new(ConnectionPeers::new()),
        });
        self
    }

    /// The server's own page for forms with a secret field
    /// ([`Ask::secure`](crate::rmcp::Ask::secure)): the asks put their forms on `forms`, and
    /// the page (`elicit_mcp::page::SecurePage`, feature `page`) mounted at its address shows
    /// them to the user the elicitation was made for. The forms go through URL mode, so the
    /// elicitation needs a tracker ([`with_url_mode`](Self::with_url_mode)) too.
    #[cfg(feature = "page")]
    #[cfg_attr(docsrs, doc(cfg(feature = "page")))]
    pub fn with_secure_page(mut self, forms: SecureForms) -> Self {
        self.secure = Some(forms);
        self
    }

    /// Names this process among the replicas of a server sharing one store
    /// (`RedisStore`, feature `redis`): every connection's id says the replica that holds it,
    /// so that a completion made on another replica is routed here (`RedisStore::completions`
    /// then [`connections`](Self::connections)'s `send`).
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn with_replica(mut self, replica: impl Into<String>) -> Self {
        self.replica = Some(replica.into());
        self
    }

    /// This process's name among the replicas, as [`with_replica`](Self::with_replica) gave it.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn replica(&self) -> Option<&str> {
        self.replica.as_deref()
    }

    /// The 2025-11-25 sessions of this server, by the connection id URL mode names them with:
    /// where a completion notification routed from another replica is sent
    /// ([`ConnectionPeers::send`]). `None` without URL mode.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn connections(&self) -> Option<&ConnectionPeers> {
        self.url.as_ref().map(|url| &*url.connections)
    }

    /// Sends the completion notification of an elicitation the connect page completed to the
    /// 2025-11-25 session that started it, and to no other: `Ok(false)` when that session is
    /// not here (gone, or held by another replica) or the elicitation was asked on 2026-07-28
    /// or in a task, which collect the completion themselves and have no notification.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub async fn notify_completed(
        &self,
        completed: &CompletedElicitation,
    ) -> Result<bool, ElicitError> {
        match &self.url {
            Some(url) => url.connections.notify(completed).await,
            None => Ok(false),
        }
    }

    /// On 2025-11-25, how long an ask (a form, a sampling or roots request, a URL-mode
    /// elicitation's consent) waits for the client's answer unless it says otherwise
    /// ([`FormAsk::with_timeout`](crate::rmcp::FormAsk::with_timeout));
    /// [`without_timeout`](Self::without_timeout) waits as long as the session lasts. When it
    /// runs out the ask gives
    /// [`ElicitError::TimedOut`](crate::rmcp::ElicitError::TimedOut) and rmcp cancels the
    /// request (`notifications/cancelled`); when the session ends first,
    /// [`ElicitError::SessionEnded`](crate::rmcp::ElicitError::SessionEnded). While an ask
    /// waits, a call that came with a `progressToken` hears every 10 seconds that the server
    /// waits for the user, so a client that resets its timeout on progress waits as long as
    /// the user takes. Default: [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.settings.timeout = Some(timeout);
        self
    }

    /// On 2025-11-25, an ask waits for the client's answer as long as the session lasts,
    /// unless it says otherwise ([`FormAsk::with_timeout`](crate::rmcp::FormAsk::with_timeout)).
    pub fn without_timeout(mut self) -> Self {
        self.settings.timeout = None;
        self
    }

    /// How many times one form may be asked in one call, re-asks included.
    pub fn with_max_asks(mut self, asks: u32) -> Self {
        self.settings.ask.max_asks = asks.max(1);
        self
    }

    /// Whether a form whose answer has field errors is asked again by itself (the default), or
    /// gives the handler [`ElicitError::InvalidContent`](crate::rmcp::ElicitError::InvalidContent);
    /// one ask can say otherwise with [`FormAsk::with_reask`](crate::rmcp::FormAsk::with_reask).
    pub fn with_reask(mut self, reask: bool) -> Self {
        self.settings.ask.reask = reask;
        self
    }

    /// How many rounds that ask the client for input one call may take before it is refused.
    /// Rounds that only wait for a URL-mode elicitation's out-of-band step do not count: the
    /// elicitation's expiry bounds them.
    pub fn with_max_rounds(mut self, rounds: u32) -> Self {
        self.settings.max_rounds = rounds.max(1);
        self
    }

    /// How large a sealed `requestState` may grow: a call whose answers would seal a larger
    /// one is refused, rather than handing the client a state its transport may not carry
    /// back.
    pub fn with_max_state_bytes(mut self, bytes: usize) -> Self {
        self.settings.max_state_bytes = bytes;
        self
    }

    /// On 2026-07-28, how long the user may take over a URL-mode step
    /// ([`Ask::url`](crate::rmcp::Ask::url)) after consenting, within a client's limit on rounds:
    /// each retry waits up to an eighth of it for the step (unless
    /// [`with_url_hold`](Self::with_url_hold) says otherwise) before it answers "still waiting", so
    /// the official clients' default of 10 rounds lasts the whole wait. The elicitation's own
    /// expiry (the tracker's time to live) still bounds it. Default:
    /// [`DEFAULT_URL_WAIT`](Self::DEFAULT_URL_WAIT), 5 minutes.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn with_url_wait(mut self, wait: Duration) -> Self {
        self.settings.url_wait.wait = wait;
        self
    }

    /// How long, by default, the user may take over a URL-mode step on 2026-07-28
    /// ([`with_url_wait`](Self::with_url_wait)).
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub const DEFAULT_URL_WAIT: Duration = UrlWait::DEFAULT.wait;

    /// On 2026-07-28, how long each retry waits for a URL-mode step to complete before it
    /// answers with a state-only `InputRequiredResult` ("still waiting", and the client
    /// retries again), instead of an eighth of [`with_url_wait`](Self::with_url_wait). Zero
    /// answers at once.
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn with_url_hold(mut self, hold: Duration) -> Self {
        self.settings.url_wait.hold = Some(hold);
        self
    }

    /// On 2026-07-28, how long a URL-mode elicitation whose step is under way is kept after each
    /// retry that found it waiting: a client that stops retrying (it went away) leaves it, and one
    /// lease later it stops counting against the user's
    /// [limit](crate::server::ElicitationTracker::with_max_pending_per_user) and expires; a retry
    /// after that gives [`ElicitError::NotCompleted`](crate::rmcp::ElicitError::NotCompleted).
    /// Never shorter than the hold plus a second; never past the elicitation's own expiry. Default:
    /// [`DEFAULT_URL_LEASE`](Self::DEFAULT_URL_LEASE).
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub fn with_url_lease(mut self, lease: Duration) -> Self {
        self.settings.url_wait.lease = lease;
        self
    }

    /// How long, by default, a URL-mode elicitation is kept after a retry that found it
    /// waiting ([`with_url_lease`](Self::with_url_lease)).
    #[cfg(feature = "url-mode")]
    #[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
    pub const DEFAULT_URL_LEASE: Duration = UrlWait::DEFAULT.lease;

    /// What the tool `name` is known to do with its ask, shared by every session.
    pub(crate) fn ask_use(&self, name: &str) -> Arc<AskUse> {
        let mut uses = self.ask_uses.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = uses.get(name) {
            return known.clone();
        }
        uses.entry(name.to_owned()).or_default().clone()
    }

    /// Forgets what a call to `name` taught, for a tool name that does not exist (so that
    /// the map holds only the server's own tools).
    pub(crate) fn forget_ask_use(&self, name: &str) {
        let mut uses = self.ask_uses.lock().unwrap_or_else(PoisonError::into_inner);
        uses.remove(name);
    }

    /// The check of who an HTTP request's user is, if the elicitation has one.
    #[cfg(feature = "http")]
    pub(crate) fn authentication(&self) -> Option<SharedAuthenticate> {
        match &self.user {
            UserSource::Authenticated { check, .. } => Some(check.clone()),
            _ => None,
        }
    }

    /// The task runtime, once the declarations hold.
    pub(crate) fn task_runtime(&self) -> Option<&TaskRuntime> {
        self.tasks.as_ref().and_then(|tasks| tasks.as_ref().ok())
    }
}

/// Why an elicitation cannot serve: a mistake in how it was set up, found at start-up.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// The task declarations do not fit the server.
    Tasks(TaskSetupError),
    /// URL mode binds each elicitation to its user, and this server would serve without
    /// knowing who its users are: over HTTP without
    /// `Elicitation::with_authentication` (feature `http`), over stdio without
    /// [`Elicitation::with_local_user`]. Every elicitation would be nobody's, or one user's
    /// for everyone.
    UrlModeWithoutUser {
        /// How the server was about to serve: `"streamable HTTP"` or `"a transport of one
        /// connection (stdio)"`.
        serving: &'static str,
    },
    /// The secure page's forms ([`Elicitation::with_secure_page`]) go through URL mode, and
    /// the elicitation has none ([`Elicitation::with_url_mode`]): every `Ask::secure` would
    /// fail when a user asks.
    #[cfg(feature = "page")]
    #[cfg_attr(docsrs, doc(cfg(feature = "page")))]
    SecurePageWithoutUrlMode,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Tasks(e) => write!(f, "cannot serve the tasks: {e}"),
            SetupError::UrlModeWithoutUser { serving } => write!(
                f,
                "the elicitation asks in URL mode, which binds each elicitation to its user, \
                 but it serves {serving} without knowing who the user is: give \
                 `Elicitation::with_authentication` (HTTP) or `Elicitation::with_local_user` \
                 (stdio)"
            ),
            #[cfg(feature = "page")]
            SetupError::SecurePageWithoutUrlMode => f.write_str(
                "the elicitation has a secure page (`Elicitation::with_secure_page`), whose \
                 forms go through URL mode, but no URL mode: give \
                 `Elicitation::with_url_mode` the tracker the page completes",
            ),
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Tasks(e) => Some(e),
            SetupError::UrlModeWithoutUser { .. } => None,
            #[cfg(feature = "page")]
            SetupError::SecurePageWithoutUrlMode => None,
        }
    }
}

debug_as_message!(SetupError);
