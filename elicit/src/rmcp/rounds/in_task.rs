//! What a call that runs as a task, or is about to, carries in its request's extensions for
//! its [`Ask`](super::Ask): put there by [`Tasks`](crate::rmcp::Tasks), read when the ask is
//! prepared. Here rather than in `tasks.rs`, so that `tasks` uses `rounds` and not the other
//! way round.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use ::rmcp::task_manager::{TaskContext, TaskManager};

use super::sealed::{Answer, AskedUnder};

/// The task a method runs in: where its asks go. The manager withdraws an ask whose waiting
/// was dropped (rmcp 3.11 leaves it pending otherwise).
#[derive(Clone)]
pub(crate) struct InTask {
    pub context: TaskContext,
    pub manager: TaskManager,
}

/// For a tool that asks in rounds and then continues as a task
/// ([`Ask::continue_as_task`](super::Ask::continue_as_task)): whether this call may become a
/// task, and where the round that reaches `continue_as_task` leaves what it gathered.
#[derive(Clone)]
pub(crate) enum Escalation {
    /// The client did not declare the extension and the tool's task support is optional: the
    /// whole method stays a plain call.
    Plain,
    /// The client declared the extension: filled when the run reaches `continue_as_task`.
    Slot(Arc<Mutex<Option<Gathered>>>),
}

impl Escalation {
    pub fn slot() -> Self {
        Escalation::Slot(Arc::default())
    }

    /// What the run gathered before it continued as a task, once.
    pub fn take(&self) -> Option<Gathered> {
        match self {
            Escalation::Plain => None,
            Escalation::Slot(slot) => slot.lock().unwrap_or_else(PoisonError::into_inner).take(),
        }
    }

    pub(super) fn fill(&self, gathered: Gathered) {
        if let Escalation::Slot(slot) = self {
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(gathered);
        }
    }
}

/// The answers a call gathered in its rounds, and its asks in order: the task replays the
/// method with them, so its earlier asks return at once and their keys stay used.
#[derive(Clone, Default)]
pub(crate) struct Gathered {
    pub(super) answers: BTreeMap<String, Answer>,
    pub(super) asked: Vec<AskedUnder>,
}
