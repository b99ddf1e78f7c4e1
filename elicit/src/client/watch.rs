//! The client's side of completion notifications: which URL elicitations it is waiting on,
//! which requests to retry once theirs complete, and ignoring everything else.

use std::collections::{HashSet, VecDeque};
use std::fmt;

use crate::wire::{
    ElicitRequestUrlParams, ElicitationCompleteNotification, ElicitationId,
    UrlElicitationRequiredError,
};

/// How many completed ids a watch remembers, to recognise a repeated notification as
/// already completed and to let a late [`retry_after`](UrlElicitationWatch::retry_after) see
/// an elicitation that completed first.
const REMEMBERED_COMPLETIONS: usize = 256;

/// The URL-mode elicitations a client waits on, and the requests that wait on them.
///
/// A completion notification for an id the watch does not know, or knows as completed, is
/// ignored, as the spec requires. The notification is optional for servers, so a client
/// should still let the user retry or cancel by hand: [`abandon`](Self::abandon) gives back
/// the requests that waited on an elicitation the user gave up on.
///
/// `R` is whatever the client needs to retry a request: the request itself, its id, a
/// channel.
///
/// A watch is bounded: it waits on at most [`capacity`](Self::capacity) elicitations and holds
/// at most that many requests, so a server cannot make a client grow without end by sending
/// elicitations. When full, [`track`](Self::track) and [`retry_after`](Self::retry_after)
/// refuse with [`WatchFullError`], which gives the request back: nothing is dropped, and the
/// client tells its user (or retries by hand) instead of waiting.
///
/// ```
/// use elicit_mcp::wire::{
///     ElicitationCompleteNotification, ElicitationId, JsonRpcError, UrlElicitationRequiredError,
/// };
/// use elicit_mcp::client::{Completion, UrlElicitationWatch};
///
/// let error: JsonRpcError = serde_json::from_value(serde_json::json!({
///     "code": -32042, "message": "This request requires more information.",
///     "data": {"elicitations": [{"mode": "url", "elicitationId": "e1",
///         "url": "https://mcp.example.com/connect?elicitationId=e1", "message": "Connect"}]}
/// })).unwrap();
/// let required = UrlElicitationRequiredError::try_from(&error).unwrap();
///
/// let mut watch = UrlElicitationWatch::new();
/// assert_eq!(watch.retry_after("tools/call #7", &required), Ok(None));
///
/// let unknown = ElicitationCompleteNotification::new(ElicitationId::new("nope"));
/// assert_eq!(watch.on_complete(&unknown), Completion::Ignored);
///
/// let done = ElicitationCompleteNotification::new(ElicitationId::new("e1"));
/// assert_eq!(
///     watch.on_complete(&done),
///     Completion::Completed { ready_to_retry: vec!["tools/call #7"] }
/// );
/// assert_eq!(watch.on_complete(&done), Completion::Ignored); // already completed
/// ```
#[derive(Clone, Debug)]
pub struct UrlElicitationWatch<R> {
    pending: HashSet<ElicitationId>,
    completed: VecDeque<ElicitationId>,
    retries: Vec<Retry<R>>,
    capacity: usize,
}

/// A [`UrlElicitationWatch`] is full: waiting on more would pass its capacity. Holds the
/// request that was not queued, so nothing is lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchFullError<R = ()> {
    capacity: usize,
    request: R,
}

impl<R> WatchFullError<R> {
    /// The watch's capacity.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The request that was not queued.
    pub fn into_request(self) -> R {
        self.request
    }
}

impl<R> fmt::Display for WatchFullError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the client already waits on {} URL elicitations or requests, the most it will; \
             finish or abandon one first",
            self.capacity
        )
    }
}

impl<R: fmt::Debug> std::error::Error for WatchFullError<R> {}

#[derive(Clone, Debug)]
struct Retry<R> {
    request: R,
    waiting_for: HashSet<ElicitationId>,
}

/// What a completion notification meant to a [`UrlElicitationWatch`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
#[non_exhaustive]
pub enum Completion<R> {
    /// The id is unknown or already completed: nothing to do.
    Ignored,
    /// A pending elicitation completed.
    Completed {
        /// The requests that now have every elicitation they waited on completed: retry them.
        ready_to_retry: Vec<R>,
    },
}

impl<R> Default for UrlElicitationWatch<R> {
    fn default() -> Self {
        UrlElicitationWatch {
            pending: HashSet::new(),
            completed: VecDeque::new(),
            retries: Vec::new(),
            capacity: Self::DEFAULT_CAPACITY,
        }
    }
}

impl<R> UrlElicitationWatch<R> {
    /// How many elicitations, and how many requests, a watch made by [`new`](Self::new) waits
    /// on at most: far more than a user follows at once.
    pub const DEFAULT_CAPACITY: usize = 64;

    /// A watch waiting on nothing, with the [default capacity](Self::DEFAULT_CAPACITY).
    pub fn new() -> Self {
        UrlElicitationWatch::default()
    }

    /// A watch waiting on nothing that waits on at most `capacity` elicitations and holds at
    /// most `capacity` requests.
    pub fn with_capacity(capacity: usize) -> Self {
        UrlElicitationWatch {
            capacity,
            ..UrlElicitationWatch::default()
        }
    }

    /// How many elicitations, and how many requests, it waits on at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Waits on the elicitation of a URL-mode request (after the user consented to open it).
    /// Returns `Ok(false)` if it was already pending or completed, and [`WatchFullError`] if it
    /// waits on as many as it may.
    pub fn track(&mut self, params: &ElicitRequestUrlParams) -> Result<bool, WatchFullError> {
        let id = params.elicitation_id();
        if self.completed.contains(id) || self.pending.contains(id) {
            return Ok(false);
        }
        if self.pending.len() >= self.capacity {
            return Err(WatchFullError {
                capacity: self.capacity,
                request: (),
            });
        }
        Ok(self.pending.insert(id.clone()))
    }

    /// Waits on every elicitation of a -32042 error, and remembers `request` to retry once all
    /// of them completed. Returns `Ok(Some(request))` at once if every one already did, and
    /// [`WatchFullError`] with the request if waiting would pass the capacity (then nothing of the
    /// error is tracked).
    pub fn retry_after(
        &mut self,
        request: R,
        error: &UrlElicitationRequiredError,
    ) -> Result<Option<R>, WatchFullError<R>> {
        let waiting_for: HashSet<ElicitationId> = error
            .elicitation_ids()
            .filter(|id| !self.completed.contains(id))
            .cloned()
            .collect();
        if waiting_for.is_empty() {
            return Ok(Some(request));
        }
        let new_ids = waiting_for
            .iter()
            .filter(|id| !self.pending.contains(*id))
            .count();
        if self.pending.len() + new_ids > self.capacity || self.retries.len() >= self.capacity {
            return Err(WatchFullError {
                capacity: self.capacity,
                request,
            });
        }
        self.pending.extend(waiting_for.iter().cloned());
        self.retries.push(Retry {
            request,
            waiting_for,
        });
        Ok(None)
    }

    /// Handles a `notifications/elicitation/complete`.
    pub fn on_complete(&mut self, notification: &ElicitationCompleteNotification) -> Completion<R> {
        let id = notification.elicitation_id();
        if !self.pending.remove(id) {
            return Completion::Ignored;
        }
        self.remember_completed(id.clone());
        let ready_to_retry = self
            .take_retries(|retry| {
                retry.waiting_for.remove(id);
                retry.waiting_for.is_empty()
            })
            .into_iter()
            .map(|retry| retry.request)
            .collect();
        Completion::Completed { ready_to_retry }
    }

    /// Stops waiting on an elicitation the user gave up on (declined, cancelled, or closed by
    /// hand). Returns the requests that waited on it: they will not be retried by the watch.
    pub fn abandon(&mut self, id: &ElicitationId) -> Vec<R> {
        self.pending.remove(id);
        // The other elicitations of those requests stay pending: their completion is still
        // news to the client, just with nothing left to retry.
        let abandoned = self.take_retries(|retry| retry.waiting_for.contains(id));
        abandoned.into_iter().map(|retry| retry.request).collect()
    }

    /// Whether the watch waits on this elicitation.
    pub fn is_pending(&self, id: &ElicitationId) -> bool {
        self.pending.contains(id)
    }

    /// The elicitations waited on, in no order.
    pub fn pending(&self) -> impl Iterator<Item = &ElicitationId> {
        self.pending.iter()
    }

    fn remember_completed(&mut self, id: ElicitationId) {
        if self.completed.len() == REMEMBERED_COMPLETIONS {
            self.completed.pop_front();
        }
        self.completed.push_back(id);
    }

    /// Removes and returns the retries for which `done` says true.
    fn take_retries(&mut self, mut done: impl FnMut(&mut Retry<R>) -> bool) -> Vec<Retry<R>> {
        let mut taken = Vec::new();
        let mut kept = Vec::with_capacity(self.retries.len());
        for mut retry in self.retries.drain(..) {
            if done(&mut retry) {
                taken.push(retry);
            } else {
                kept.push(retry);
            }
        }
        self.retries = kept;
        taken
    }
}
