//! How a handler gets its [`Ask`]: the call runs the handler inside the ask's scope, and a
//! `#[tool]` or `#[prompt]` method's `Ask` parameter (rmcp's extractor) or a hand-written
//! handler's [`Ask::current`] reads it there. Nothing is left in the request for anyone else to
//! find, and a handler that is not run by an elicitation gets a clear error instead of an ask.

use std::future::Future;

use ::rmcp::handler::server::common::{AsRequestContext, FromContextPart};
use ::rmcp::model as sdk;

use super::Ask;
use crate::rmcp::error::ElicitError;

tokio::task_local! {
    /// The ask of the call whose handler runs in this task.
    static CURRENT: Ask;
}

/// Runs `handler` with `ask` as the call's ask.
pub(crate) async fn run_with<F: Future>(ask: Ask, handler: F) -> F::Output {
    CURRENT.scope(ask, handler).await
}

impl Ask {
    /// The ask of the call whose handler runs here: for a hand-written `call_tool`,
    /// `get_prompt` or `read_resource` of a server served through an
    /// [`Elicitation`](crate::rmcp::Elicitation). A `#[tool]` or `#[prompt]` method takes its
    /// `Ask` as a parameter instead.
    ///
    /// ```no_run
    /// use elicit_mcp::rmcp::Ask;
    /// use elicit_mcp::{Elicit, ElicitOutcome};
    /// use rmcp::model::{
    ///     ErrorData, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
    /// };
    ///
    /// #[derive(Elicit)]
    /// #[elicit(message = "Which year?")]
    /// struct Year {
    ///     #[elicit(minimum = 2000, maximum = 2100)]
    ///     year: u16,
    /// }
    ///
    /// // In `impl ServerHandler`: `async fn read_resource(&self, request, _context)`.
    /// async fn read_resource(
    ///     request: ReadResourceRequestParams,
    /// ) -> Result<ReadResourceResult, ErrorData> {
    ///     let ask = Ask::current()?;
    ///     let text = match ask.form::<Year>().await? {
    ///         ElicitOutcome::Accepted(Year { year }) => format!("the report of {year}"),
    ///         _ => "no report".to_owned(),
    ///     };
    ///     Ok(ReadResourceResult::new(vec![ResourceContents::text(text, request.uri)]))
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`ElicitError::NotInCall`] outside a call an elicitation runs: a server that is not
    /// served through one, or a task the handler spawned itself.
    pub fn current() -> Result<Ask, ElicitError> {
        CURRENT
            .try_with(Ask::taken)
            .map_err(|_| ElicitError::NotInCall)
    }
}

/// The call's ask, marked as taken, from any context rmcp gives a `#[tool]` or `#[prompt]`
/// method; outside a call an elicitation runs, the server's mistake, said so.
impl<C: AsRequestContext> FromContextPart<C> for Ask {
    fn from_context_part(_context: &mut C) -> Result<Self, sdk::ErrorData> {
        Ask::current().map_err(sdk::ErrorData::from)
    }
}
