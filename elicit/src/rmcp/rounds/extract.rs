//! [`Ask`] as a parameter of `#[tool]` and `#[prompt]` methods: rmcp's extractors.

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::prompt::PromptContext;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model as sdk;
use ::rmcp::service::{RequestContext, RoleServer};

use super::Ask;

/// The ask [`Rounds`](super::Rounds) puts in the request's extensions before it calls the
/// method. A type of its own, private, so that this extractor is the one way to it: a method
/// that does not take an `Ask` cannot ask, which spares its calls the binding.
#[derive(Clone)]
pub(super) struct Offered(pub Ask);

/// The ask offered to the method, marked as taken; a router that was not wrapped has none,
/// which is the server's mistake, said so.
fn ask_of(context: &RequestContext<RoleServer>, method: &str) -> Result<Ask, sdk::ErrorData> {
    let offered = context.extensions.get::<Offered>();
    offered.map(|Offered(ask)| ask.taken()).ok_or_else(|| {
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
