//! [`Way`]: how a call's asks reach the client and their answers come back. The one interface
//! an [`Ask`](super::Ask) knows; each way of asking implements it in a module of its own
//! (`revision/v2025_11_25`'s `Requests`: `elicitation/create` on a 2025-11-25 session;
//! `revision/v2026_07_28`'s `Round`: the input-required rounds of 2026-07-28; `task_inputs`: a
//! task's input requests), and the call decides once which one a request gets. A new
//! revision's way implements this trait in the revision's folder.

use std::time::Duration;

use ::rmcp::model as sdk;
use serde_json::Value;

use crate::rmcp::error::ElicitError;
use crate::rmcp::kind::{Answer, Request};

#[cfg(feature = "url-mode")]
use super::url_flow::UrlFlow;
#[cfg(feature = "url-mode")]
use crate::rmcp::tracking::UrlTracking;
#[cfg(feature = "url-mode")]
use crate::server::{AwaitedBy, UserId};
#[cfg(feature = "url-mode")]
use crate::wire::ElicitationId;

pub(crate) use crate::rmcp::waiting::Waiting;

/// How the asks of one call are delivered and answered.
pub(crate) trait Way: Send + Sync {
    /// What the ask's `Debug` says it asks through.
    fn describe(&self) -> &'static str;

    /// The capabilities the client declared for this call.
    fn client_capabilities(&self) -> Option<sdk::ClientCapabilities>;

    /// The client's answer to `request`, asked under `key`, waiting at most `timeout` (where
    /// the way waits at all; a round ends instead, and its run never resumes).
    fn answer<'a>(
        &'a self,
        key: &'a str,
        request: Request,
        timeout: Option<Duration>,
    ) -> Waiting<'a, Result<Answer, ElicitError>>;

    /// The result of the step under `key` that an earlier run of the call recorded.
    fn recorded_step(&self, _key: &str) -> Option<Value> {
        None
    }

    /// Records the result of the step under `key` for the runs to come.
    fn record_step(&self, _key: &str, _result: Value) {}

    /// Work starts that the run must not be dropped in the middle of (a step, a call to a
    /// store): a round does not end until it is done. See [`Hold`].
    fn enter_work(&self) {}

    /// That work is done.
    fn leave_work(&self) {}

    /// Goes on as a task from here, for a tool declared to (see
    /// [`Ask::continue_as_task`](super::Ask::continue_as_task)): at once where the call cannot
    /// or need not become one.
    fn continue_as_task(&self) -> Waiting<'_, Result<(), ElicitError>> {
        Box::pin(async { Ok(()) })
    }

    /// Who collects a URL-mode elicitation's completion: the session's request, which the
    /// notification may reach too, or the handler itself on a later look.
    #[cfg(feature = "url-mode")]
    fn awaited_by(&self) -> AwaitedBy;

    /// The URL-mode elicitation asked under `key` on an earlier run of the call.
    #[cfg(feature = "url-mode")]
    fn flow(&self, _key: &str) -> Option<UrlFlow> {
        None
    }

    /// Remembers the URL-mode elicitation under `key` for the runs to come.
    #[cfg(feature = "url-mode")]
    fn keep_flow(&self, _key: &str, _flow: &UrlFlow) {}

    /// Waits for `tracker` to complete elicitation `id` for `user`, as this way waits.
    #[cfg(feature = "url-mode")]
    fn completion<'a>(
        &'a self,
        tracker: &'a dyn UrlTracking,
        user: &'a UserId,
        flow: &'a UrlFlow,
    ) -> Waiting<'a, Result<ElicitationId, ElicitError>>;
}

/// Work in flight on a way: entered when made, left when dropped, whatever way the work ends
/// (a panic, a `select!` that dropped it).
pub(crate) struct Hold<'a> {
    way: &'a dyn Way,
}

impl<'a> Hold<'a> {
    pub fn new(way: &'a dyn Way) -> Self {
        way.enter_work();
        Hold { way }
    }
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        self.way.leave_work();
    }
}
