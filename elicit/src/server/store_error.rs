//! The error of a shared store, whatever it stores.

use std::error::Error;
use std::fmt;

/// A failure of a shared store: the storage behind an `ElicitationStore` (URL mode), or the
/// record of opened states behind a `ReplayGuard` (feature `rmcp`).
#[derive(Debug)]
pub struct StoreError {
    source: Box<dyn Error + Send + Sync>,
}

impl StoreError {
    /// A store failure with this cause.
    pub fn new(source: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        StoreError {
            source: source.into(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the elicitation store failed: {}", self.source)
    }
}

impl Error for StoreError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.source)
    }
}
