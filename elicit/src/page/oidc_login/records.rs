//! The login's two records: a login under way, and a browser's session.

use serde::{Deserialize, Serialize};

/// A login under way, held by its `state` until the callback takes it.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct PendingLogin {
    /// The id in the pending-login cookie of the browser that started it: the callback is
    /// taken only from that browser.
    pub browser: String,
    pub verifier: String,
    pub nonce: String,
    /// Where the browser goes once signed in: a path on this server.
    pub return_to: String,
}

/// A browser's session.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct Session {
    pub issuer: String,
    pub subject: String,
    /// The sign-out form's token: a POST to `/logout` without it is refused.
    pub csrf: String,
}
