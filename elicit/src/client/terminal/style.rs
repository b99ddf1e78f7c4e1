//! The few text styles the renderer prints around inquire's prompts, as ANSI sequences on
//! stderr. `NO_COLOR` (<https://no-color.org>) turns them off, as it does inquire's colors.

use std::fmt::Display;

const RESET: &str = "\x1b[0m";

fn styled(text: impl Display, sequence: &str) -> String {
    if colors_off() {
        text.to_string()
    } else {
        format!("{sequence}{text}{RESET}")
    }
}

fn colors_off() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty())
}

/// The server's message and headings.
pub(super) fn heading(text: impl Display) -> String {
    styled(text, "\x1b[1m")
}

/// The server's identity: who is asking is the first thing read.
pub(super) fn server(text: impl Display) -> String {
    styled(text, "\x1b[1;35m")
}

/// The registrable domain: whoever owns it controls the page, so it stands out.
pub(super) fn domain(text: impl Display) -> String {
    styled(text, "\x1b[1;4;36m")
}

/// Warnings about a URL, and field errors of the final check.
pub(super) fn warning(text: impl Display) -> String {
    styled(text, "\x1b[1;33m")
}

/// Secondary text: hints and notes.
pub(super) fn dim(text: impl Display) -> String {
    styled(text, "\x1b[2m")
}
