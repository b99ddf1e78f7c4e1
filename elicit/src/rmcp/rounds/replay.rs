//! Single-use `requestState`: the seal's handle on the record of opened states
//! ([`ReplayGuard`], in `server`).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::SystemTime;

use crate::server::{ReplayGuard, StoreError};

type Opening<'a> = Pin<Box<dyn Future<Output = Result<bool, StoreError>> + Send + 'a>>;

/// [`ReplayGuard`] as an object, so the seal stays one type whatever records its states.
pub(super) trait DynReplayGuard: Send + Sync {
    fn first_open<'a>(&'a self, nonce: &'a str, until: SystemTime) -> Opening<'a>;
}

impl<G: ReplayGuard> DynReplayGuard for G {
    fn first_open<'a>(&'a self, nonce: &'a str, until: SystemTime) -> Opening<'a> {
        Box::pin(ReplayGuard::first_open(self, nonce, until))
    }
}

/// The guard of a seal, shared by its clones.
#[derive(Clone)]
pub(super) struct Guard(pub(super) Arc<dyn DynReplayGuard>);

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReplayGuard")
    }
}
