//! The client side: `elicit_mcp::client`'s checks and answers, the ratatui widget on
//! ratatui's `TestBackend`, and the terminal examples driven by keystrokes in tmux.
//!
//! One test binary, so that the crates it links are built once.

#[path = "client/helpers.rs"]
mod helpers;
#[path = "client/terminal.rs"]
mod terminal;
#[path = "client/tui_widget.rs"]
mod tui_widget;
