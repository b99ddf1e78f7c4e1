//! [`Ask::step`]: work that runs once in a call, even where the revision runs the method again.

use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Ask;
use super::way::Hold;
use crate::rmcp::error::ElicitError;

impl Ask {
    /// Runs `work` once in this call and gives its result, also where the method runs again.
    ///
    /// On 2026-07-28 a method runs again from the start on each retry, so what it does before an
    /// ask (an order placed, an email sent) would happen on every round. A step runs on the first
    /// run that reaches it; its result is recorded in the round's sealed `requestState` (counted
    /// against
    /// [`Elicitation::with_max_state_bytes`](crate::rmcp::Elicitation::with_max_state_bytes), and
    /// sealed like the answers) and handed back, without running `work`, on every later run. A
    /// round does not end while a step runs, so its work is never cut short by an ask beside it. On
    /// 2025-11-25 the method runs once, and the step simply runs; inside a task it runs once too,
    /// and a task that continues a call's rounds ([`continue_as_task`](Self::continue_as_task))
    /// gets the steps those rounds recorded.
    ///
    /// Steps are ordered among the asks: a run that reaches a step where its earlier run asked
    /// (or an ask where it took a step) is [`ElicitError::AskedOutOfOrder`], the handler's
    /// mistake. A result that cannot be written as JSON, or a recorded one that no longer
    /// reads as `T` (a deploy changed its type), is [`ElicitError::Step`].
    ///
    /// ```no_run
    /// use elicit_mcp::rmcp::{Ask, ElicitError};
    /// use elicit_mcp::{Elicit, ElicitOutcome};
    ///
    /// #[derive(Elicit)]
    /// #[elicit(message = "Confirm the order?")]
    /// struct Confirm {
    ///     confirmed: bool,
    /// }
    ///
    /// async fn reserve() -> u64 {
    ///     // ... hold the stock, once ...
    ///     # 17
    /// }
    ///
    /// async fn order(ask: &Ask) -> Result<String, ElicitError> {
    ///     let reservation: u64 = ask.step(|| async { reserve().await }).await?;
    ///     Ok(match ask.form::<Confirm>().await? {
    ///         ElicitOutcome::Accepted(Confirm { confirmed: true }) => {
    ///             format!("ordered ({reservation})")
    ///         }
    ///         _ => format!("reservation {reservation} released"),
    ///     })
    /// }
    /// ```
    pub async fn step<T, W, F>(&self, work: W) -> Result<T, ElicitError>
    where
        T: Serialize + DeserializeOwned,
        W: FnOnce() -> F,
        F: Future<Output = T>,
    {
        let key = self.take_step_key()?;
        let way = self.way();
        if let Some(recorded) = way.recorded_step(&key) {
            return serde_json::from_value(recorded).map_err(|e| ElicitError::Step {
                step: step_number(&key),
                problem: format!(
                    "its recorded result does not read as `{}`: {e}",
                    std::any::type_name::<T>()
                ),
            });
        }
        let hold = Hold::new(way);
        let result = work().await;
        let recorded = serde_json::to_value(&result).map_err(|e| ElicitError::Step {
            step: step_number(&key),
            problem: format!("its result cannot be written as JSON: {e}"),
        })?;
        way.record_step(&key, recorded);
        drop(hold);
        Ok(result)
    }
}

/// The step's number, from its key (`#2`: 2).
fn step_number(key: &str) -> u32 {
    key.trim_start_matches('#').parse().unwrap_or(0)
}
