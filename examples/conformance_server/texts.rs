//! What the conformance server's tools send to the client's model and answer with: the
//! sampling params, and the texts of outcomes the suite's scenarios check.

use elicit_mcp::ElicitOutcome;
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;

#[allow(deprecated)] // rmcp deprecates sampling (SEP-2577); 2026-07-28 still has it.
pub(super) fn sampling(text: &str, max_tokens: u32) -> rmcp::model::CreateMessageRequestParams {
    serde_json::from_value(serde_json::json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        "maxTokens": max_tokens
    }))
    .expect("valid sampling params")
}

#[allow(deprecated)]
pub(super) fn sampled_text(result: &rmcp::model::CreateMessageResult) -> String {
    let json = serde_json::to_value(result).unwrap_or_default();
    json["content"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

pub(super) fn outcome_text<T: Serialize>(outcome: &ElicitOutcome<T>) -> String {
    match outcome {
        ElicitOutcome::Accepted(value) => format!(
            "accepted: {}",
            serde_json::to_string(value).unwrap_or_default()
        ),
        ElicitOutcome::Declined => "declined".to_owned(),
        ElicitOutcome::Cancelled => "cancelled".to_owned(),
    }
}

pub(super) fn completed<T: Serialize>(outcome: &ElicitOutcome<T>) -> CallToolResult {
    text_result(format!(
        "Elicitation completed: action={}, content={}",
        action_name(outcome),
        content_json(outcome)
    ))
}

pub(super) fn action_name<T>(outcome: &ElicitOutcome<T>) -> &'static str {
    match outcome {
        ElicitOutcome::Accepted(_) => "accept",
        ElicitOutcome::Declined => "decline",
        ElicitOutcome::Cancelled => "cancel",
    }
}

/// The accepted value as JSON, with its wire names; `{}` when nothing was accepted.
pub(super) fn content_json<T: Serialize>(outcome: &ElicitOutcome<T>) -> String {
    match outcome {
        ElicitOutcome::Accepted(value) => {
            serde_json::to_string(value).unwrap_or_else(|e| format!("<unprintable: {e}>"))
        }
        ElicitOutcome::Declined | ElicitOutcome::Cancelled => "{}".to_owned(),
    }
}

pub(super) fn text_result(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}
