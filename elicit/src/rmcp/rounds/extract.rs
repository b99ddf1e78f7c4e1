//! [`Ask`] as a parameter of `#[tool]` and `#[prompt]` methods: rmcp's extractors.

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::prompt::PromptContext;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};

use super::Ask;

/// The ask [`Rounds`](super::Rounds) put in the request's extensions before it called the
/// method; a router that was not wrapped has none, which is the server's mistake, said so.
fn ask_of(context: &RequestContext<RoleServer>, method: &str) -> Result<Ask, sdk::ErrorData> {
    context.extensions.get::<Ask>().cloned().ok_or_else(|| {
        sdk::ErrorData::internal_error(
            format!(
                "this {method} takes an `Ask`, but the server's router does not run it through \
                 `elicit_mcp::rmcp::Rounds`: wrap the tool router with `rounds.tools(..)`, or \
                 answer prompts with `rounds.get_prompt(..)`"
            ),
            None,
        )
    })
}

impl<S> FromContextPart<ToolCallContext<'_, S>> for Ask {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, sdk::ErrorData> {
        ask_of(&context.request_context, "tool")
    }
}

impl<S> FromContextPart<PromptContext<'_, S>> for Ask {
    fn from_context_part(context: &mut PromptContext<'_, S>) -> Result<Self, sdk::ErrorData> {
        ask_of(&context.context, "prompt")
    }
}
