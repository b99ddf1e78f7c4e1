//! The protocol revisions a call may speak, each in its own folder.

pub(crate) mod session;
pub(crate) mod v2025_11_25;
pub(crate) mod v2026_07_28;
