//! The browser behind a request, for CSRF tokens: a random id in a cookie of its own, which
//! the page's forms and the development sign-in both bind their tokens to. A token is issued
//! for one browser and held by the server; an answer is taken only with the token issued to
//! the browser that sends it.

use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::Response;

use super::cookie;
use crate::server::lower_hex;

/// The cookie that tells one browser from another, for the CSRF tokens.
const BROWSER_COOKIE: &str = "elicit_page_browser";

/// A browser's id: the one its cookie carries, or one made for it now.
pub(super) struct Browser {
    id: String,
    /// Made now: the response sets its cookie.
    fresh: bool,
}

impl Browser {
    /// The id the request's cookie carries, if any.
    pub(super) fn known(request: &Parts) -> Option<String> {
        cookie(request, BROWSER_COOKIE)
    }

    /// The request's browser, or a new one when it has no cookie yet; `None` when the system
    /// gives no randomness.
    pub(super) fn of(request: &Parts) -> Option<Browser> {
        Self::from_known(Self::known(request))
    }

    /// The browser `known`, or a new one.
    pub(super) fn from_known(known: Option<String>) -> Option<Browser> {
        match known {
            Some(id) => Some(Browser { id, fresh: false }),
            None => random_hex().map(|id| Browser { id, fresh: true }),
        }
    }

    pub(super) fn id(&self) -> &str {
        &self.id
    }

    /// Sets the browser's cookie on `response` when the id is new: `HttpOnly` (no script reads
    /// it), `SameSite=Strict` (no other site's request carries it).
    pub(super) fn remember(&self, response: &mut Response) {
        if !self.fresh {
            return;
        }
        let cookie = format!(
            "{BROWSER_COOKIE}={}; Path=/; HttpOnly; SameSite=Strict",
            self.id
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
}

/// 32 random bytes as hex: a browser id or a token.
pub(super) fn random_hex() -> Option<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).ok()?;
    Some(lower_hex(&bytes))
}
