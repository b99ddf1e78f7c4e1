//! The owner of a session travels with it through rmcp's session store.
//!
//! With a `session_store` in its config, rmcp keeps each 2025-11-25 session's `initialize`
//! parameters there, and a replica that gets a request on a session it does not hold restores
//! the session from them. The guard wraps that store: the parameters are kept with the user
//! who opened the session in their `_meta` (under [`OWNER`]), which the guard reads on the
//! replica that restores it, and which rmcp's replay of `initialize` never sees (the key is
//! taken out of what rmcp loads). A client's own `_meta` entry of that name is dropped.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};

use crate::server::UserId;

/// The `_meta` key of a stored session's owner.
const OWNER: &str = "io.github.elicit-mcp/sessionOwner";

tokio::task_local! {
    /// The user whose `initialize` rmcp is serving, while the guard waits for its answer.
    static OPENER: UserId;
}

/// `open`, rmcp's answer to an `initialize` by `user`, with `user` written as the owner of
/// the session rmcp stores while answering it.
pub(super) async fn opened_by<F: Future>(user: UserId, open: F) -> F::Output {
    OPENER.scope(user, open).await
}

/// rmcp's session store, keeping each session's owner with it.
pub(super) struct OwnedStore {
    inner: Arc<dyn SessionStore>,
}

type Stored<'a, T> = Pin<Box<dyn Future<Output = Result<T, SessionStoreError>> + Send + 'a>>;

impl OwnedStore {
    pub(super) fn new(inner: Arc<dyn SessionStore>) -> Self {
        OwnedStore { inner }
    }

    /// The whole user id of whoever opened `session`, as the store has it: `None` when the
    /// store does not hold the session or holds it without an owner.
    pub(super) async fn owner(&self, session: &str) -> Result<Option<String>, SessionStoreError> {
        let state = self.inner.load(session).await?;
        Ok(state.and_then(|state| {
            let meta = state.initialize_params.meta?;
            Some(meta.0.0.get(OWNER)?.as_str()?.to_owned())
        }))
    }
}

impl SessionStore for OwnedStore {
    fn load<'a, 'b, 'c>(&'a self, session_id: &'b str) -> Stored<'c, Option<SessionState>>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        Box::pin(async move {
            let state = self.inner.load(session_id).await?;
            Ok(state.map(|mut state| {
                without_owner(&mut state);
                state
            }))
        })
    }

    fn store<'a, 'b, 'c, 'd>(
        &'a self,
        session_id: &'b str,
        state: &'c SessionState,
    ) -> Stored<'d, ()>
    where
        'a: 'd,
        'b: 'd,
        'c: 'd,
        Self: 'd,
    {
        Box::pin(async move {
            let mut state = state.clone();
            without_owner(&mut state);
            if let Ok(owner) = OPENER.try_with(|user| user.as_str().to_owned()) {
                let meta = state.initialize_params.meta.get_or_insert_default();
                meta.0.0.insert(OWNER.to_owned(), owner.into());
            }
            self.inner.store(session_id, &state).await
        })
    }

    fn delete<'a, 'b, 'c>(&'a self, session_id: &'b str) -> Stored<'c, ()>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        self.inner.delete(session_id)
    }
}

/// `state` without an owner entry (and without `_meta` if that was all it held).
fn without_owner(state: &mut SessionState) {
    let params = &mut state.initialize_params;
    if let Some(meta) = &mut params.meta {
        meta.0.0.remove(OWNER);
        if meta.0.0.is_empty() {
            params.meta = None;
        }
    }
}
