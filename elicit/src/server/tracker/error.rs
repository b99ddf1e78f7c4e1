//! Why the tracker refuses to start or to complete an elicitation.

use std::error::Error;
use std::fmt;

use crate::server::{StoreError, UnsafeUrlError};
use crate::wire::{ModeNotSupportedError, RandomnessUnavailableError};

/// Why an elicitation could not be started.
#[derive(Debug)]
#[non_exhaustive]
pub enum StartError {
    /// The client did not declare URL-mode elicitation.
    ModeNotSupported(ModeNotSupportedError),
    /// The URL breaks the policy.
    UnsafeUrl(UnsafeUrlError),
    /// No randomness for the id.
    Randomness(RandomnessUnavailableError),
    /// The expiry time is past what the clock can represent.
    ExpiryOutOfRange,
    /// The user already has as many pending elicitations as the tracker allows
    /// ([`ElicitationTracker::with_max_pending_per_user`][max-pending]): complete or discard one
    /// first, or wait for one to expire.
    ///
    /// [max-pending]: crate::server::ElicitationTracker::with_max_pending_per_user
    TooManyPending {
        /// The limit.
        limit: usize,
    },
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::ModeNotSupported(e) => write!(f, "cannot start a URL elicitation: {e}"),
            StartError::UnsafeUrl(e) => write!(f, "refusing to send the elicitation URL: {e}"),
            StartError::Randomness(e) => write!(f, "cannot make an elicitation id: {e}"),
            StartError::ExpiryOutOfRange => {
                f.write_str("the elicitation's time to live overflows the clock")
            }
            StartError::TooManyPending { limit } => write!(
                f,
                "the user already has {limit} pending URL elicitations, the most allowed; \
                 complete or discard one, or wait for one to expire"
            ),
            StartError::Store(e) => e.fmt(f),
        }
    }
}

impl Error for StartError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            StartError::ModeNotSupported(e) => Some(e),
            StartError::UnsafeUrl(e) => Some(e),
            StartError::Randomness(e) => Some(e),
            StartError::ExpiryOutOfRange | StartError::TooManyPending { .. } => None,
            StartError::Store(e) => Some(e),
        }
    }
}

impl From<StoreError> for StartError {
    fn from(e: StoreError) -> Self {
        StartError::Store(e)
    }
}

/// Why an elicitation could not be verified or completed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CompletionError {
    /// No pending elicitation has this id: it never existed, already completed, or expired
    /// and was purged.
    NotPending,
    /// It expired before completing; it is now removed.
    Expired,
    /// Another user started it. The spec's phishing defence: the entry stays pending for its
    /// own user, and whoever opened the link learns nothing about them.
    WrongUser,
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for CompletionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompletionError::NotPending => f.write_str(
                "no pending elicitation has this id (unknown, already completed, or expired)",
            ),
            CompletionError::Expired => f.write_str("the elicitation expired"),
            CompletionError::WrongUser => f.write_str(
                "the elicitation was started by another user; sign in as that user to complete it",
            ),
            CompletionError::Store(e) => e.fmt(f),
        }
    }
}

impl Error for CompletionError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            CompletionError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for CompletionError {
    fn from(e: StoreError) -> Self {
        CompletionError::Store(e)
    }
}
