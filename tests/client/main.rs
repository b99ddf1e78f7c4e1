//! The client side: `elicit_mcp::client`'s checks and answers, the ratatui widget on
//! ratatui's `TestBackend`, and the terminal examples driven by keystrokes in tmux.
//!
//! One test binary, so that the crates it links are built once.

mod helpers;
mod terminal;
mod tui_widget;
