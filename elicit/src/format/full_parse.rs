//! The full parsers behind the fast paths (`email_address`, `fluent-uri`, `time`), called out of
//! line: they decide what a fast path leaves and word the refusal.

/// Whether `parse` accepts `value`, with its error as the reason when not. Out of line
/// (`#[cold]`): inlined into a check, a full parser would make every call save and restore the
/// registers it uses, though most values pass on the fast path.
#[cold]
#[inline(never)]
pub(super) fn decided_by<T, E: std::fmt::Display>(
    parse: impl FnOnce(&str) -> Result<T, E>,
    value: &str,
) -> Result<(), String> {
    parse(value).map(drop).map_err(|e| e.to_string())
}
