//! What else [`Rounds`] answers besides wrapped `#[tool]` routes: `prompts/get` through a
//! prompt router, and `tools/call` or `resources/read` written by hand.

use std::future::Future;

use ::rmcp::handler::server::prompt::PromptContext;
use ::rmcp::handler::server::router::prompt::PromptRouter;
use ::rmcp::model as sdk;
use ::rmcp::service::{MaybeSend, RequestContext, RoleServer};

use super::binding::Call;
use super::extract::Offered;
use super::{Ask, Rounds, bridge};
use crate::rmcp::session::server_requests_allowed;

impl Rounds {
    /// Answers `prompts/get` through `router`, whose `#[prompt]` methods may take an [`Ask`].
    /// rmcp's `#[prompt_handler]` drops the request's `inputResponses` and `requestState`, so
    /// `get_prompt` is written by hand, as this one line:
    ///
    /// ```no_run
    /// # use elicit_mcp::rmcp::Rounds;
    /// # use rmcp::handler::server::router::prompt::PromptRouter;
    /// # use rmcp::model::{GetPromptRequestParams, GetPromptResponse, ErrorData};
    /// # use rmcp::service::{RequestContext, RoleServer};
    /// # struct Server { rounds: Rounds, prompt_router: PromptRouter<Server> }
    /// # impl Server {
    /// async fn get_prompt(
    ///     &self,
    ///     request: GetPromptRequestParams,
    ///     context: RequestContext<RoleServer>,
    /// ) -> Result<GetPromptResponse, ErrorData> {
    ///     self.rounds.get_prompt(&self.prompt_router, self, request, context).await
    /// }
    /// # }
    /// ```
    pub async fn get_prompt<S>(
        &self,
        router: &PromptRouter<S>,
        server: &S,
        request: sdk::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<sdk::GetPromptResponse, sdk::ErrorData>
    where
        S: MaybeSend + Sync + 'static,
    {
        if !server_requests_allowed(&context) {
            return self.get_prompt_once(router, server, request, context).await;
        }
        let mut bridge = bridge::Bridge::new(self, &context);
        let mut request = request;
        loop {
            let again = request.clone();
            let response = self
                .get_prompt_once(router, server, request, context.clone())
                .await?;
            let sdk::GetPromptResponse::InputRequired(asking) = response else {
                return Ok(response);
            };
            let (responses, request_state) = bridge.answer(asking).await?;
            request = again;
            request.input_responses = responses;
            request.request_state = request_state;
        }
    }

    async fn get_prompt_once<S>(
        &self,
        router: &PromptRouter<S>,
        server: &S,
        request: sdk::GetPromptRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<sdk::GetPromptResponse, sdk::ErrorData>
    where
        S: MaybeSend + Sync + 'static,
    {
        let call = Call {
            method: "prompts/get",
            name: &request.name,
            arguments: request.arguments.as_ref(),
        };
        let prepared = self
            .prepare(
                call,
                true,
                &context,
                request.request_state.as_deref(),
                request.input_responses,
            )
            .await?
            // The prompt takes the arguments: a state its asks seal is bound before it runs.
            .detach();
        context.extensions.insert(Offered(prepared.ask.clone()));
        let prompt = PromptContext::new(server, request.name, request.arguments, context);
        self.finish(prepared, router.get_prompt(prompt)).await
    }

    /// Answers `tools/call` with `handler`, on either revision: for a server that writes
    /// `call_tool` itself rather than with `#[tool]` methods ([`tools`](Self::tools)).
    pub async fn call_tool<F, Fut>(
        &self,
        request: &sdk::CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        handler: F,
    ) -> Result<sdk::CallToolResponse, sdk::ErrorData>
    where
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<sdk::CallToolResult, sdk::ErrorData>>,
    {
        let call = Call {
            method: "tools/call",
            name: &request.name,
            arguments: request.arguments.as_ref(),
        };
        let (state, responses) = (request.request_state.as_deref(), &request.input_responses);
        self.run_handler(call, context, state, responses, handler)
            .await
    }

    /// Answers `resources/read` with `handler`, on either revision (rmcp has no resource
    /// router to wrap).
    pub async fn read_resource<F, Fut>(
        &self,
        request: &sdk::ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
        handler: F,
    ) -> Result<sdk::ReadResourceResponse, sdk::ErrorData>
    where
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<sdk::ReadResourceResult, sdk::ErrorData>>,
    {
        let call = Call {
            method: "resources/read",
            name: &request.uri,
            arguments: None,
        };
        let (state, responses) = (request.request_state.as_deref(), &request.input_responses);
        self.run_handler(call, context, state, responses, handler)
            .await
    }

    /// Runs a handler given as a function of its [`Ask`].
    async fn run_handler<R, Response, F, Fut>(
        &self,
        call: Call<'_>,
        context: &RequestContext<RoleServer>,
        request_state: Option<&str>,
        responses: &Option<sdk::InputResponses>,
        handler: F,
    ) -> Result<Response, sdk::ErrorData>
    where
        Response: From<R> + From<sdk::InputRequiredResult>,
        F: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<R, sdk::ErrorData>>,
    {
        // The request outlives the handler: its binding waits until a state is sealed.
        let prepared = self
            .prepare(call, true, context, request_state, responses.clone())
            .await?;
        let ask = prepared.ask.clone();
        self.finish(prepared, async move { handler(ask).await.map(Into::into) })
            .await
    }
}
