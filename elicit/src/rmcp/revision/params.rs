//! The params of a call whose handler may ask (`tools/call`, `prompts/get`,
//! `resources/read`): what they call, the state and answers they carry, the handler that
//! serves them. What a revision takes of them is the revision's own.

use std::future::Future;
use std::sync::Arc;

use ::rmcp::ServerHandler;
use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};

use crate::rmcp::running::{Response, Retry};

/// What a request is, for binding its state: the method, the tool, prompt or resource, and
/// its arguments.
pub(crate) struct Call<'a> {
    pub method: &'static str,
    pub name: &'a str,
    pub arguments: Option<&'a sdk::JsonObject>,
}

/// The members of a request that carry a 2026-07-28 retry's state and answers.
pub(crate) struct Carried<'a> {
    pub request_state: &'a mut Option<String>,
    pub input_responses: &'a mut Option<sdk::InputResponses>,
}

/// The params of a request whose handler may ask, and run again with a retry's answers.
pub(crate) trait CallRequest: Clone + Send + 'static {
    /// What the server answers it with.
    type Response: Response;

    /// What it calls, for the binding of its state.
    fn called(&self) -> Call<'_>;

    /// The state and the answers it carries, for its revision to take.
    fn carried(&mut self) -> Carried<'_>;

    /// The same request, carrying a retry's answers.
    fn retried(&mut self, retry: Retry);

    /// The server's own handler of it.
    fn handle<H: ServerHandler>(
        self,
        server: Arc<H>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<Self::Response, sdk::ErrorData>> + Send;
}

/// `CallRequest` for the params of a method: the same members carry the state and the answers
/// in each, so only what it calls and which handler serves it differ.
macro_rules! call_request {
    ($($params:ty => $response:ty, $method:literal, |$request:ident| ($name:expr, $arguments:expr), $handle:ident;)*) => {$(
        impl CallRequest for $params {
            type Response = $response;

            fn called(&self) -> Call<'_> {
                let $request = self;
                Call {
                    method: $method,
                    name: $name,
                    arguments: $arguments,
                }
            }

            fn carried(&mut self) -> Carried<'_> {
                Carried {
                    request_state: &mut self.request_state,
                    input_responses: &mut self.input_responses,
                }
            }

            fn retried(&mut self, retry: Retry) {
                self.input_responses = retry.responses;
                self.request_state = retry.request_state;
            }

            async fn handle<H: ServerHandler>(
                self,
                server: Arc<H>,
                context: RequestContext<RoleServer>,
            ) -> Result<Self::Response, sdk::ErrorData> {
                server.$handle(self, context).await
            }
        }
    )*};
}

call_request! {
    sdk::CallToolRequestParams => sdk::CallToolResponse, "tools/call",
        |request| (&request.name, request.arguments.as_ref()), call_tool;
    sdk::GetPromptRequestParams => sdk::GetPromptResponse, "prompts/get",
        |request| (&request.name, request.arguments.as_ref()), get_prompt;
    sdk::ReadResourceRequestParams => sdk::ReadResourceResponse, "resources/read",
        |request| (&request.uri, None), read_resource;
}
