//! [`Ask`] as a parameter of `#[tool]` and `#[prompt]` methods: rmcp's extractors.

use ::rmcp::handler::server::common::{AsRequestContext, FromContextPart};
use ::rmcp::model as sdk;

use super::Ask;

/// The ask [`Rounds`](super::Rounds) puts in the request's extensions before it calls the
/// method. A type of its own, private, so that this extractor is the one way to it: a method
/// that does not take an `Ask` cannot ask, which spares its calls the binding.
#[derive(Clone)]
pub(super) struct Offered(pub Ask);

/// The ask offered to the method, marked as taken, from any context rmcp gives a `#[tool]` or
/// `#[prompt]` method; a router that was not wrapped has none, which is the server's mistake,
/// said so.
impl<C: AsRequestContext> FromContextPart<C> for Ask {
    fn from_context_part(context: &mut C) -> Result<Self, sdk::ErrorData> {
        let offered = context.as_request_context().extensions.get::<Offered>();
        offered.map(|Offered(ask)| ask.taken()).ok_or_else(|| {
            sdk::ErrorData::internal_error(
                "this method takes an `Ask`, but the server's router does not run it through \
                 `elicit_mcp::rmcp::Rounds`: wrap the tool router with `rounds.tools(..)`, or \
                 answer prompts with `rounds.get_prompt(..)`",
                None,
            )
        })
    }
}
