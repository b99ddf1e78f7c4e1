//! One handler for both protocol revisions: [`Rounds`] runs the `#[tool]` and `#[prompt]`
//! methods (or any handler) that ask through [`Ask`]. On a 2025-11-25 session each ask goes out
//! as a request (`elicitation/create`); on a 2026-07-28 request the handler is replayed, round
//! after round, with the answers so far, and what it still waits for goes out as an
//! `InputRequiredResult` whose `requestState` is sealed by [`RequestStateSeal`].

use std::fmt;
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model as sdk;
use ::rmcp::service::{MaybeSend, RequestContext, RoleServer};

use crate::rmcp::session::server_requests_allowed;

use crate::server::UserId;

mod ask;
mod binding;
mod bridge;
mod exchange;
mod extract;
mod form;
mod handlers;
mod in_task;
mod keys;
mod replay;
mod sampling;
mod seal;
mod sealed;
mod state;
#[cfg(feature = "url-mode")]
mod url;

pub use ask::Ask;
use binding::{AskUse, Binding, Call};
use exchange::Exchange;
#[cfg(feature = "url-mode")]
use exchange::UrlWait;
use extract::Offered;
pub use form::FormAsk;
pub(crate) use in_task::{Escalation, Gathered, InTask};
use keys::Keys;
pub use replay::{MemoryReplayGuard, ReplayGuard};
pub use seal::{RequestStateSeal, SealKeyError};
use sealed::{SealedState, nonce};
use state::{RoundEnd, RoundLeft, RoundState};
#[cfg(feature = "url-mode")]
#[cfg_attr(docsrs, doc(cfg(feature = "url-mode")))]
pub use url::UrlOutcome;

/// Who the request's user is, from its context: the server's own check of their
/// credentials (an HTTP header it verified, a session it knows).
type UserBinding = dyn Fn(&RequestContext<RoleServer>) -> Option<UserId> + Send + Sync;

/// Runs handlers written once for both protocol revisions, set up once per server.
///
/// A handler gets an [`Ask`] and asks as if each answer came back at once. On a 2025-11-25
/// session that is what happens: each ask is a request to the client. On a 2026-07-28 request
/// the server may not send requests, so the handler runs until it waits for an answer it does
/// not have; that run is dropped, and the request is answered with an `InputRequiredResult`
/// holding everything it waits for (each form under its [`INPUT_KEY`](crate::Elicit::INPUT_KEY))
/// and a sealed `requestState` with the answers of the earlier rounds. The client's retry
/// brings the answers; the handler runs again from the start, the answered asks return at
/// once, and it goes one round further. So a handler asks for the same things in the same
/// order on each run (as with any replay), and does its side effects after its last ask; a
/// run that asks in another order is told so
/// ([`ElicitError::AskedOutOfOrder`](crate::rmcp::ElicitError::AskedOutOfOrder)). Asks awaited
/// together (`tokio::join!`, or [`Ask::forms`]) go out in the same round.
///
/// # Methods written in the 2026-07-28 style
///
/// A method that answers with an `InputRequiredResult` of its own (reading the answers with
/// rmcp's `InputResponses` and `RequestState` extractors) serves 2025-11-25 clients too: there
/// its input requests go out as requests on the session (`elicitation/create`,
/// `sampling/createMessage`, `roots/list`), one after the other, and the method runs again with
/// the answers and its own `requestState`, as a 2026-07-28 client's retry would bring them, at
/// most [`with_most_rounds`](Self::with_most_rounds) times. No 2026-07-28 result reaches a 2025-11-25
/// client.
///
/// # `#[tool]` methods
///
/// Wrap the router once with [`tools`](Self::tools), keep it in the server, and give the
/// methods that ask an [`Ask`] parameter. The tools are listed the same on both revisions, and
/// nothing else changes: `#[tool_handler]` writes `call_tool` as usual.
///
/// ```no_run
/// use elicit_mcp::rmcp::{Ask, RequestStateSeal, Rounds};
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
///     fn new(rounds: &Rounds) -> Self {
///         Hotel { tool_router: rounds.tools(Self::tool_router()) }
///     }
///
///     #[tool(description = "Book a room")]
///     async fn book(&self, Parameters(args): Parameters<BookArgs>, ask: Ask) -> Result<CallToolResult, ErrorData> {
///         let reply = match ask.form::<Guest>().await? {
///             ElicitOutcome::Accepted(guest) => format!("{} booked for {}", args.room, guest.name),
///             ElicitOutcome::Declined | ElicitOutcome::Cancelled => "no booking".to_owned(),
///         };
///         Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
///     }
/// }
///
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Hotel {}
///
/// let rounds = Rounds::new(RequestStateSeal::generated().unwrap());
/// let hotel = Hotel::new(&rounds);
/// # let _ = hotel;
/// ```
///
/// # What a call may cost
///
/// A client that keeps answering with an empty or wrong answer does not loop forever: one form
/// is asked at most [`with_most_asks`](Self::with_most_asks) times in a call (then
/// [`ElicitError::TooManyAsks`](crate::rmcp::ElicitError::TooManyAsks)), a call takes at most
/// [`with_most_rounds`](Self::with_most_rounds) input-required rounds, and its sealed state at most
/// [`with_most_state_bytes`](Self::with_most_state_bytes). A 2025-11-25 form waits at most
/// [`with_timeout`](Self::with_timeout) for the client's answer.
#[derive(Clone)]
pub struct Rounds {
    seal: RequestStateSeal,
    #[cfg(feature = "url-mode")]
    url_wait: UrlWait,
    user: Option<Arc<UserBinding>>,
    timeout: Option<Duration>,
    most_asks: u32,
    most_rounds: u32,
    most_state_bytes: usize,
    reask: bool,
}

impl fmt::Debug for Rounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rounds = f.debug_struct("Rounds");
        rounds.field("seal", &self.seal);
        #[cfg(feature = "url-mode")]
        rounds.field("url_wait", &self.url_wait);
        rounds
            .field("user", &self.user.as_ref().map(|_| "binding"))
            .field("timeout", &self.timeout)
            .field("most_asks", &self.most_asks)
            .field("most_rounds", &self.most_rounds)
            .field("most_state_bytes", &self.most_state_bytes)
            .field("reask", &self.reask)
            .finish()
    }
}

impl Rounds {
    /// How long, by default, a 2025-11-25 ask waits for the client's answer
    /// ([`with_timeout`](Self::with_timeout)).
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10 * 60);
    /// How many times, by default, one form may be asked in one call ([`with_most_asks`](Self::with_most_asks)).
    pub const DEFAULT_MOST_ASKS: u32 = 5;
    /// How many input-required rounds, by default, one call may take
    /// ([`with_most_rounds`](Self::with_most_rounds)).
    pub const DEFAULT_MOST_ROUNDS: u32 = 16;
    /// How large, by default, a sealed `requestState` may grow
    /// ([`with_most_state_bytes`](Self::with_most_state_bytes)).
    pub const DEFAULT_MOST_STATE_BYTES: usize = 64 * 1024;

    /// Rounds whose state `seal` protects, with the defaults above, re-asks on, and no user
    /// binding.
    pub fn new(seal: RequestStateSeal) -> Self {
        Rounds {
            seal,
            #[cfg(feature = "url-mode")]
            url_wait: UrlWait::DEFAULT,
            user: None,
            timeout: Some(Self::DEFAULT_TIMEOUT),
            most_asks: Self::DEFAULT_MOST_ASKS,
            most_rounds: Self::DEFAULT_MOST_ROUNDS,
            most_state_bytes: Self::DEFAULT_MOST_STATE_BYTES,
            reask: true,
        }
    }

    /// Binds each state to the request's user: `user` reads who they are from the request's
    /// context (the server's own check of their credentials), and a state opens only for the
    /// user it was sealed for. `None` means no authenticated user, and binds to nobody.
    ///
    /// ```
    /// use elicit_mcp::rmcp::{RequestStateSeal, Rounds};
    /// use elicit_mcp::server::UserId;
    ///
    /// // Over streamable HTTP, rmcp puts the HTTP request's parts in the context: here a
    /// // header that the server's authentication layer set after checking the credentials.
    /// let rounds = Rounds::new(RequestStateSeal::generated().unwrap()).with_user(|context| {
    ///     let parts = context.extensions.get::<http::request::Parts>()?;
    ///     let subject = parts.headers.get("x-verified-subject")?.to_str().ok()?;
    ///     UserId::from_verified_subject(subject).ok()
    /// });
    /// # let _ = rounds;
    /// ```
    pub fn with_user(
        mut self,
        user: impl Fn(&RequestContext<RoleServer>) -> Option<UserId> + Send + Sync + 'static,
    ) -> Self {
        self.user = Some(Arc::new(user));
        self
    }

    /// On 2025-11-25, how long an ask (a form, [`Ask::sample`], [`Ask::roots`], a URL-mode
    /// elicitation's consent) waits for the client's answer unless it says otherwise
    /// ([`FormAsk::with_timeout`]); `None` waits as long as the session lasts. When it runs out the
    /// ask gives [`ElicitError::TimedOut`](crate::rmcp::ElicitError::TimedOut) and rmcp
    /// cancels the request (`notifications/cancelled`); when the session ends first, it gives
    /// [`ElicitError::SessionEnded`](crate::rmcp::ElicitError::SessionEnded) (rmcp ends the
    /// requests still pending once it has let in-flight handlers finish, 5 s after the
    /// transport closed). Default: [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many times one form may be asked in one call, re-asks included.
    pub fn with_most_asks(mut self, asks: u32) -> Self {
        self.most_asks = asks.max(1);
        self
    }

    /// Whether a form whose answer has field errors is asked again by itself (the default),
    /// or gives the handler [`ElicitError::InvalidContent`](crate::rmcp::ElicitError::InvalidContent);
    /// one ask can say otherwise with [`FormAsk::with_reask`].
    pub fn with_reask(mut self, reask: bool) -> Self {
        self.reask = reask;
        self
    }

    /// How many rounds that ask the client for input one call may take before it is refused.
    /// Rounds that only wait for a URL-mode elicitation's out-of-band step do not count: the
    /// elicitation's expiry bounds them.
    pub fn with_most_rounds(mut self, rounds: u32) -> Self {
        self.most_rounds = rounds.max(1);
        self
    }

    /// How large a sealed `requestState` may grow: a call whose answers would seal a larger
    /// one is refused, rather than handing the client a state its transport may not carry
    /// back.
    pub fn with_most_state_bytes(mut self, bytes: usize) -> Self {
        self.most_state_bytes = bytes;
        self
    }

    /// Wraps every route of `router` so that its methods may take an [`Ask`]: the router to
    /// keep in the server and name in `#[tool_handler(router = ..)]`. Disabled routes stay
    /// disabled; the tools' list is unchanged.
    pub fn tools<S>(&self, mut router: ToolRouter<S>) -> ToolRouter<S>
    where
        S: MaybeSend + Sync + 'static,
    {
        for route in router.map.values_mut() {
            let rounds = self.clone();
            let inner = route.call.clone();
            let ask_use = Arc::new(AskUse::default());
            route.call = Arc::new(move |context: ToolCallContext<'_, S>| {
                let rounds = rounds.clone();
                let inner = inner.clone();
                let ask_use = ask_use.clone();
                Box::pin(async move { rounds.run_tool_route(context, &*inner, &ask_use).await })
            });
        }
        router
    }

    /// One `tools/call` through a wrapped route; on 2025-11-25, again with the answers to the
    /// input requests of a method that answers with them itself.
    async fn run_tool_route<S>(
        &self,
        context: ToolCallContext<'_, S>,
        inner: &::rmcp::handler::server::tool::DynCallToolHandler<S>,
        ask_use: &AskUse,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        // Inside a task the method's own input requests have nowhere to go: the call that
        // created the task is over (its asks through `Ask` go to the task).
        let in_task = context.request_context.extensions.get::<InTask>().is_some();
        if in_task || !server_requests_allowed(&context.request_context) {
            return self.run_tool_once(context, inner, ask_use).await;
        }
        let (service, name) = (context.service, context.name.clone());
        let (arguments, request_context) =
            (context.arguments.clone(), context.request_context.clone());
        let mut bridge = bridge::Bridge::new(self, &request_context);
        let mut context = context;
        loop {
            let response = self.run_tool_once(context, inner, ask_use).await?;
            let sdk::CallToolResponse::InputRequired(asking) = response else {
                return Ok(response);
            };
            let (responses, request_state) = bridge.answer(asking).await?;
            let params = sdk::CallToolRequestParams::new(name.clone());
            context = ToolCallContext::new(service, params, request_context.clone());
            context.arguments = arguments.clone();
            context.input_responses = responses;
            context.request_state = request_state;
        }
    }

    async fn run_tool_once<S>(
        &self,
        mut context: ToolCallContext<'_, S>,
        inner: &::rmcp::handler::server::tool::DynCallToolHandler<S>,
        ask_use: &AskUse,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData> {
        let call = Call {
            method: "tools/call",
            name: &context.name,
            arguments: context.arguments.as_ref(),
        };
        // Left in the context too, for a method that reads them with rmcp's own extractors.
        let request_state = context.request_state.clone();
        let responses = context.input_responses.clone();
        let prepared = self
            .prepare(
                call,
                ask_use.may_ask(),
                &context.request_context,
                request_state.as_deref(),
                responses,
            )
            .await?
            // The method takes the arguments: a state its asks seal is bound before it runs.
            .detach();
        let ask = prepared.ask.clone();
        context
            .request_context
            .extensions
            .insert(Offered(ask.clone()));
        let result = self.finish(prepared, inner(context)).await;
        ask_use.learn(ask.was_taken(), result.is_ok());
        result
    }

    /// The [`Ask`] of one request: inside a task (on either revision) one that asks through
    /// the task; on 2025-11-25 one that sends requests on the session; on 2026-07-28 one that
    /// resumes from the state the request brings (opened, so refused if it is not this
    /// request's) with its `inputResponses`.
    async fn prepare<'a>(
        &self,
        call: Call<'a>,
        may_ask: bool,
        context: &RequestContext<RoleServer>,
        request_state: Option<&str>,
        responses: Option<sdk::InputResponses>,
    ) -> Result<Prepared<'a>, sdk::ErrorData> {
        let escalation = context.extensions.get::<Escalation>().cloned();
        if let Some(task) = context.extensions.get::<InTask>() {
            // A call that asked in rounds first: its answers, and its keys still used.
            let gathered = context
                .extensions
                .get::<Gathered>()
                .cloned()
                .unwrap_or_default();
            let exchange = Exchange::Task {
                task: task.clone(),
                client: context.client_capabilities(),
                carried: gathered.answers,
            };
            return Ok(Prepared {
                ask: self.ask(exchange, Keys::replaying(gathered.asked), None),
                bound: None,
            });
        }
        if server_requests_allowed(context) {
            let exchange = Exchange::Session {
                peer: context.peer.clone(),
                timeout: self.timeout,
            };
            return Ok(Prepared {
                ask: self.ask(exchange, Keys::default(), escalation),
                bound: None,
            });
        }
        let user = self.user.as_ref().and_then(|user| user(context));
        let (bound, opened) = match request_state {
            Some(sealed) => {
                let binding = Binding::of(&call, user.as_ref());
                let opened = self.seal.open(sealed, &binding).await?;
                (Some(Bound::Known(binding)), opened)
            }
            None => {
                // Bound when a state is sealed, if ever.
                let bound = may_ask.then_some(Bound::Later(call, user));
                (bound, SealedState::default())
            }
        };
        let (state, asked) = RoundState::resumed(opened, responses.unwrap_or_default());
        let exchange = Exchange::Round {
            client: context.client_capabilities(),
            #[cfg(feature = "url-mode")]
            url_wait: self.url_wait,
            state: Box::new(Mutex::new(state)),
        };
        Ok(Prepared {
            ask: self.ask(exchange, Keys::replaying(asked), escalation),
            bound,
        })
    }

    fn ask(&self, exchange: Exchange, keys: Keys, escalation: Option<Escalation>) -> Ask {
        Ask::new(exchange, keys, self.most_asks, self.reask, escalation)
    }

    /// Runs `handler` with the prepared ask: its response when it ends, or the next round's
    /// `InputRequiredResult` (`Response` is the method's response, which is either).
    async fn finish<Response>(
        &self,
        prepared: Prepared<'_>,
        handler: impl Future<Output = Result<Response, sdk::ErrorData>>,
    ) -> Result<Response, sdk::ErrorData>
    where
        Response: From<sdk::InputRequiredResult>,
    {
        let Prepared { ask, bound } = prepared;
        let Some(bound) = bound else {
            return handler.await;
        };
        let mut running = pin!(handler);
        let finished = poll_fn(|cx| match running.as_mut().poll(cx) {
            Poll::Ready(result) => Poll::Ready(Some(result)),
            Poll::Pending if ask.exchange().round_ends() => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        })
        .await;
        if let Some(result) = finished {
            return result;
        }
        let Some(RoundLeft {
            end,
            state,
            asking_rounds,
        }) = ask.end_round(nonce()?)
        else {
            unreachable!("only a 2026-07-28 round ends before its handler")
        };
        let asking = match end {
            RoundEnd::Refused(refused) => return Err(refused),
            RoundEnd::Asking(asking) if asking_rounds > self.most_rounds => {
                return Err(too_many_rounds(asking_rounds - 1, &asking));
            }
            RoundEnd::Asking(asking) => Some(asking),
            // No input requests: a URL-mode elicitation is still waiting, and the state alone
            // says so (the client retries with it).
            RoundEnd::StillWaiting => None,
            // `Tasks` answers with the task it creates, which replays the method with what
            // the rounds gathered; no state goes back to the client.
            RoundEnd::Escalate => {
                ask.escalate(Gathered {
                    answers: state.answers,
                    asked: state.asked,
                });
                return Ok(sdk::InputRequiredResult::new(Default::default(), None).into());
            }
        };
        let bound_to = match bound {
            Bound::Known(binding) => binding,
            Bound::Later(call, user) => Binding::of(&call, user.as_ref()),
        };
        let sealed = self.seal.seal(&state, &bound_to)?;
        if sealed.len() > self.most_state_bytes {
            return Err(sdk::ErrorData::invalid_params(
                format!(
                    "the answers so far would make requestState {} bytes, over this server's \
                     limit of {} bytes: answer with less text",
                    sealed.len(),
                    self.most_state_bytes
                ),
                None,
            ));
        }
        Ok(sdk::InputRequiredResult::new(asking, Some(sealed)).into())
    }
}

/// A request's ask, and on 2026-07-28 what its state is bound to (`None`: nothing to seal, on
/// 2025-11-25 where asks are requests, or for a method that cannot ask).
struct Prepared<'a> {
    ask: Ask,
    bound: Option<Bound<'a>>,
}

impl Prepared<'_> {
    /// For a handler that takes the request: a binding left for later is computed now.
    fn detach(self) -> Prepared<'static> {
        let bound = self.bound.map(|bound| match bound {
            Bound::Known(binding) => Bound::Known(binding),
            Bound::Later(call, user) => Bound::Known(Binding::of(&call, user.as_ref())),
        });
        Prepared {
            ask: self.ask,
            bound,
        }
    }
}

/// What the state a request's handler leaves is sealed with: a binding computed when the
/// state was opened, or the request to bind when a state is sealed.
enum Bound<'a> {
    Known(Binding),
    Later(Call<'a>, Option<UserId>),
}

fn too_many_rounds(rounds: u32, asking: &sdk::InputRequests) -> sdk::ErrorData {
    let keys: Vec<String> = asking.keys().map(|k| format!("`{k}`")).collect();
    sdk::ErrorData::invalid_request(
        format!(
            "this call asked for input {rounds} times without finishing, the most one call may: \
             the client's answers never completed what it asks (still waiting for: {})",
            keys.join(", ")
        ),
        None,
    )
}

#[cfg(test)]
mod tests;
