//! A handler served through an [`Elicitation`]: [`Elicited`], the user's `ServerHandler` with
//! the elicitation around it, and the ways to serve one.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use ::rmcp::model as sdk;
use ::rmcp::service::{
    NotificationContext, RequestContext, RoleServer, RunningService, ServerInitializeError,
    serve_directly,
};
use ::rmcp::transport::IntoTransport;
use ::rmcp::{ErrorData, ServerHandler, ServiceExt};

use crate::rmcp::call::{self, Caller};
use crate::rmcp::elicitation::{Elicitation, SetupError, UserSource};
use crate::rmcp::tasks::TaskSetupError;
use crate::server::UserId;

#[cfg(feature = "url-mode")]
use crate::server::ConnectionId;
use crate::server::debug_as_message;

/// The user's handler with an [`Elicitation`] around it: what rmcp serves. Made only by the
/// elicitation's ways to serve ([`Elicitation::serve`], `elicit_mcp::http::Guard::serve`), each
/// of which keeps the one elicitation, so every session of a server shares its state.
///
/// Every request but those below goes to the handler as it is. `tools/call`, `prompts/get`
/// and `resources/read` run the handler with the call's [`Ask`](crate::rmcp::Ask); a tool
/// declared for tasks runs as a task; `tasks/get`, `tasks/update` and `tasks/cancel` are
/// answered from the elicitation's tasks; and the server's capabilities declare the tasks
/// extension when a tool is declared for tasks.
pub struct Elicited<H> {
    server: Arc<H>,
    elicitation: Elicitation,
    /// This session's name for URL mode's completion notifications: each served handler is one
    /// connection (a 2025-11-25 session, a stdio connection, or one 2026-07-28 request).
    #[cfg(feature = "url-mode")]
    connection: ConnectionId,
}

impl<H> fmt::Debug for Elicited<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicited")
            .field("server", &std::any::type_name::<H>())
            .field("elicitation", &self.elicitation)
            .finish_non_exhaustive()
    }
}

/// Why [`Elicitation::serve`] did not start: the elicitation's setup, or rmcp's handshake.
#[non_exhaustive]
pub enum ServeError {
    /// A mistake in the elicitation's setup.
    Setup(SetupError),
    /// The transport or the `initialize` handshake failed (boxed: rmcp's error is large,
    /// and a `Result` of it would be as large on every path).
    Initialize(Box<ServerInitializeError>),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Setup(e) => e.fmt(f),
            ServeError::Initialize(e) => write!(f, "the session did not start: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Setup(e) => Some(e),
            ServeError::Initialize(e) => Some(&**e),
        }
    }
}

debug_as_message!(ServeError);

impl From<SetupError> for ServeError {
    fn from(e: SetupError) -> Self {
        ServeError::Setup(e)
    }
}

/// How a server is about to be served, for what its setup must hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Serving {
    /// One connection (stdio, an in-memory duplex): the local user, if any, is every
    /// request's.
    OneConnection,
    /// Streamable HTTP: each request's own user, as authenticated.
    #[cfg(feature = "http")]
    Http,
}

impl Serving {
    #[cfg(feature = "url-mode")]
    fn name(self) -> &'static str {
        match self {
            Serving::OneConnection => "a transport of one connection (stdio)",
            #[cfg(feature = "http")]
            Serving::Http => "streamable HTTP",
        }
    }
}

impl Elicitation {
    /// Serves `handler` on one `transport` (stdio, a child process's pipes, an in-memory
    /// duplex), over the `initialize` handshake or a first `server/discover`: rmcp's
    /// `ServiceExt::serve`, with this elicitation around the handler.
    ///
    /// # Errors
    ///
    /// [`ServeError::Setup`] before anything is read: a task declaration that does not hold
    /// (a tool declared twice, or one `handler` does not list), or URL mode without a user to
    /// bind to ([`with_local_user`](Self::with_local_user)). [`ServeError::Initialize`] when
    /// the handshake fails.
    pub async fn serve<H, T, E, A>(
        &self,
        handler: H,
        transport: T,
    ) -> Result<RunningService<RoleServer, Elicited<H>>, ServeError>
    where
        H: ServerHandler,
        T: IntoTransport<RoleServer, E, A> + 'static,
        E: std::error::Error + Send + Sync + 'static,
    {
        let served = self.elicited(handler, Serving::OneConnection)?;
        served
            .serve(transport)
            .await
            .map_err(|e| ServeError::Initialize(Box::new(e)))
    }

    /// As [`serve`](Self::serve), without a handshake: the server starts knowing the client as
    /// `client` says (rmcp's `serve_directly`), as a 2026-07-28 client that sends no
    /// `initialize` is known. For tests and embedders that set the session up themselves.
    ///
    /// # Errors
    ///
    /// As [`serve`](Self::serve)'s [`ServeError::Setup`].
    pub fn serve_directly<H, T, E, A>(
        &self,
        handler: H,
        transport: T,
        client: Option<sdk::ClientConfig>,
    ) -> Result<RunningService<RoleServer, Elicited<H>>, SetupError>
    where
        H: ServerHandler,
        T: IntoTransport<RoleServer, E, A> + 'static,
        E: std::error::Error + Send + Sync + 'static,
    {
        let served = self.elicited(handler, Serving::OneConnection)?;
        Ok(serve_directly(served, transport, client))
    }

    /// `handler` with this elicitation around it, for a transport this crate does not serve
    /// itself: a handler of rmcp's own, say `StreamableHttpService` without
    /// `http::Guard` (feature `http`); no user is then checked: requests are the local
    /// user's, if one was given, or nobody's. Over HTTP prefer `Guard::serve`.
    ///
    /// # Errors
    ///
    /// As [`serve`](Self::serve)'s [`ServeError::Setup`].
    pub fn handler<H: ServerHandler>(&self, handler: H) -> Result<Elicited<H>, SetupError> {
        self.elicited(handler, Serving::OneConnection)
    }

    /// `handler` with this elicitation around it, once the setup holds for how it is served.
    pub(crate) fn elicited<H: ServerHandler>(
        &self,
        handler: H,
        serving: Serving,
    ) -> Result<Elicited<H>, SetupError> {
        self.check(&handler, serving)?;
        Ok(self.wrap(handler))
    }

    /// `handler` with this elicitation around it, the setup already checked.
    pub(crate) fn wrap<H: ServerHandler>(&self, handler: H) -> Elicited<H> {
        Elicited {
            server: Arc::new(handler),
            elicitation: self.clone(),
            #[cfg(feature = "url-mode")]
            connection: self.new_connection(),
        }
    }

    /// What must hold before `handler` is served so.
    #[cfg_attr(not(feature = "url-mode"), allow(unused_variables))]
    pub(crate) fn check<H: ServerHandler>(
        &self,
        handler: &H,
        serving: Serving,
    ) -> Result<(), SetupError> {
        if let Some(tasks) = &self.tasks {
            let runtime = tasks.clone().map_err(SetupError::Tasks)?;
            if let Some(tool) = runtime
                .tools()
                .find(|tool| handler.get_tool(tool).is_none())
            {
                return Err(SetupError::Tasks(TaskSetupError::UnknownTool {
                    tool: tool.to_owned(),
                }));
            }
        }
        #[cfg(feature = "page")]
        if self.secure.is_some() && self.url.is_none() {
            return Err(SetupError::SecurePageWithoutUrlMode);
        }
        #[cfg(feature = "url-mode")]
        if self.url.is_some() && !self.knows_users(serving) {
            return Err(SetupError::UrlModeWithoutUser {
                serving: serving.name(),
            });
        }
        Ok(())
    }

    /// Whether every request, served so, has a user.
    #[cfg(feature = "url-mode")]
    fn knows_users(&self, serving: Serving) -> bool {
        match (&self.user, serving) {
            (UserSource::Nobody, _) => false,
            (UserSource::Local(_), _) => true,
            #[cfg(feature = "http")]
            (UserSource::Authenticated { .. }, Serving::Http) => true,
            #[cfg(feature = "http")]
            (UserSource::Authenticated { local, .. }, Serving::OneConnection) => local.is_some(),
        }
    }

    /// A name for a new connection, unique and unguessable, with this replica's.
    #[cfg(feature = "url-mode")]
    fn new_connection(&self) -> ConnectionId {
        let id = crate::wire::ElicitationId::random()
            .map(|id| id.as_str().to_owned())
            // No randomness: a name still unique in this process.
            .unwrap_or_else(|_| {
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                format!("connection-{n}")
            });
        match self.replica.as_deref() {
            Some(replica) => ConnectionId::on_replica(replica, id),
            None => ConnectionId::new(id),
        }
    }

    /// Who the user of the request `context` belongs to is.
    #[cfg_attr(not(feature = "http"), allow(unused_variables))]
    fn user_of(&self, context: &RequestContext<RoleServer>) -> Result<Option<UserId>, ErrorData> {
        match &self.user {
            UserSource::Nobody => Ok(None),
            UserSource::Local(user) => Ok(Some(user.clone())),
            #[cfg(feature = "http")]
            UserSource::Authenticated { local, .. } => {
                let Some(parts) = context.extensions.get::<http::request::Parts>() else {
                    return Ok(local.clone());
                };
                match parts
                    .extensions
                    .get::<crate::rmcp::authenticate::Authenticated>()
                {
                    Some(authenticated) => Ok(Some(authenticated.0.clone())),
                    None => Err(ErrorData::internal_error(
                        "this request reached the server without its user checked: serve the \
                         elicitation over HTTP with `elicit_mcp::http::Guard::serve`, which \
                         authenticates every request",
                        None,
                    )),
                }
            }
        }
    }
}

impl<H: ServerHandler> Elicited<H> {
    /// Who the call of `context` is.
    fn caller(&self, context: &RequestContext<RoleServer>) -> Result<Caller<'_>, ErrorData> {
        let user = self.elicitation.user_of(context)?;
        #[cfg(feature = "url-mode")]
        if let Some(url) = &self.elicitation.url
            && crate::rmcp::revision::server_requests_allowed(context)
        {
            // Where this session's completion notifications go.
            url.connections
                .register(self.connection.clone(), context.peer.clone());
        }
        Ok(Caller {
            elicitation: &self.elicitation,
            user,
            #[cfg(feature = "url-mode")]
            connection: self.connection.clone(),
        })
    }

    /// The server's capabilities, with the tasks extension when a tool is declared for tasks.
    fn declared(&self, mut capabilities: sdk::ServerCapabilities) -> sdk::ServerCapabilities {
        if self
            .elicitation
            .task_runtime()
            .is_some_and(|tasks| tasks.tools().next().is_some())
            && !capabilities.supports_tasks()
        {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(sdk::TASKS_EXTENSION_ID.to_owned(), Default::default());
        }
        capabilities
    }

    /// The task runtime that answers `tasks/*`, or -32601 as rmcp answers without one.
    fn tasks<M: sdk::ConstString + Default>(
        &self,
    ) -> Result<&crate::rmcp::tasks::TaskRuntime, ErrorData> {
        self.elicitation
            .task_runtime()
            .ok_or_else(ErrorData::method_not_found::<M>)
    }
}

#[cfg(feature = "url-mode")]
impl<H> Drop for Elicited<H> {
    fn drop(&mut self) {
        if let Some(url) = &self.elicitation.url {
            url.connections.remove(&self.connection);
        }
    }
}

impl<H: ServerHandler> ServerHandler for Elicited<H> {
    async fn call_tool(
        &self,
        request: sdk::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::CallToolResponse, ErrorData> {
        // Boxed, as are the prompt's and the resource's below: rmcp moves each request's
        // future whole, several times, as it spawns and completes it; a call's future is
        // kilobytes (the ways, the rounds, the handler's replay), a box is a pointer.
        Box::pin(call::call_tool(
            self.caller(&context)?,
            &self.server,
            request,
            context,
        ))
        .await
    }

    async fn get_prompt(
        &self,
        request: sdk::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::GetPromptResponse, ErrorData> {
        Box::pin(call::get_prompt(
            self.caller(&context)?,
            &self.server,
            request,
            context,
        ))
        .await
    }

    async fn read_resource(
        &self,
        request: sdk::ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ReadResourceResponse, ErrorData> {
        Box::pin(call::read_resource(
            self.caller(&context)?,
            &self.server,
            request,
            context,
        ))
        .await
    }

    async fn get_task(
        &self,
        request: sdk::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::GetTaskResult, ErrorData> {
        let Ok(tasks) = self.tasks::<sdk::GetTaskMethod>() else {
            return self.server.get_task(request, context).await;
        };
        let user = self.elicitation.user_of(&context)?;
        tasks.get(&request, user.as_ref()).await
    }

    async fn update_task(
        &self,
        request: sdk::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Ok(tasks) = self.tasks::<sdk::UpdateTaskMethod>() else {
            return self.server.update_task(request, context).await;
        };
        let user = self.elicitation.user_of(&context)?;
        tasks.update(request, user.as_ref()).await
    }

    async fn cancel_task(
        &self,
        request: sdk::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Ok(tasks) = self.tasks::<sdk::CancelTaskMethod>() else {
            return self.server.cancel_task(request, context).await;
        };
        let user = self.elicitation.user_of(&context)?;
        tasks.cancel(&request, user.as_ref()).await
    }

    fn get_info(&self) -> sdk::ServerConfig {
        let mut info = self.server.get_info();
        info.capabilities = self.declared(info.capabilities);
        info
    }

    async fn initialize(
        &self,
        request: sdk::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::InitializeResult, ErrorData> {
        let mut result = self.server.initialize(request, context).await?;
        result.capabilities = self.declared(result.capabilities);
        Ok(result)
    }

    fn negotiate_initialize(
        &self,
        request: &sdk::InitializeRequestParams,
    ) -> Result<sdk::InitializeResult, ErrorData> {
        let mut result = self.server.negotiate_initialize(request)?;
        result.capabilities = self.declared(result.capabilities);
        Ok(result)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [sdk::ProtocolVersion]> {
        self.server.supported_protocol_versions()
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::DiscoverResult, ErrorData> {
        let mut result = self.server.discover(context).await?;
        result.capabilities = self.declared(result.capabilities);
        Ok(result)
    }

    // Everything else is the handler's own.

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.server.ping(context).await
    }

    async fn complete(
        &self,
        request: sdk::CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::CompleteResult, ErrorData> {
        self.server.complete(request, context).await
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: sdk::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.set_level(request, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<sdk::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ListPromptsResult, ErrorData> {
        self.server.list_prompts(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<sdk::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ListResourcesResult, ErrorData> {
        self.server.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<sdk::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ListResourceTemplatesResult, ErrorData> {
        self.server.list_resource_templates(request, context).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &sdk::SubscriptionFilter,
    ) -> Option<sdk::SubscriptionFilter> {
        self.server.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: ::rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        self.server.listen(context).await
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: sdk::SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.subscribe(request, context).await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: sdk::UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.server.unsubscribe(request, context).await
    }

    async fn list_tools(
        &self,
        request: Option<sdk::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ListToolsResult, ErrorData> {
        self.server.list_tools(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<sdk::Tool> {
        self.server.get_tool(name)
    }

    async fn on_custom_request(
        &self,
        request: sdk::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::CustomResult, ErrorData> {
        self.server.on_custom_request(request, context).await
    }

    async fn on_cancelled(
        &self,
        notification: sdk::CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.server.on_cancelled(notification, context).await
    }

    async fn on_progress(
        &self,
        notification: sdk::ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.server.on_progress(notification, context).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.server.on_initialized(context).await
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.server.on_roots_list_changed(context).await
    }

    async fn on_custom_notification(
        &self,
        notification: sdk::CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.server
            .on_custom_notification(notification, context)
            .await
    }

    async fn list_skills(
        &self,
        request: Option<sdk::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ListSkillsResult, ErrorData> {
        self.server.list_skills(request, context).await
    }

    async fn get_skill(
        &self,
        request: sdk::GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::GetSkillResult, ErrorData> {
        self.server.get_skill(request, context).await
    }

    async fn read_resource_directory(
        &self,
        request: sdk::ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::ReadResourceDirectoryResult, ErrorData> {
        self.server.read_resource_directory(request, context).await
    }
}
