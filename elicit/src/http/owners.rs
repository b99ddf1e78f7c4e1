//! Who opened each 2025-11-25 session: a session belongs to the user whose `initialize` opened
//! it, and a request on it with another user's credentials is answered as if the session did
//! not exist. rmcp's session manager knows nothing of users, and anyone who learns a session's
//! id (a log, a proxy, a shared screen) could otherwise post on it, read its event stream and
//! answer its asks, or end it.
//!
//! The map is forgotten with the session: at once when a DELETE ends it, and when rmcp ended
//! it by itself (its keep-alive, the server's shutdown, the client's transport gone) at the
//! next sweep, which asks the session manager about each entry once the map has doubled since
//! the last one: the map holds at most about twice the live sessions, and a request pays for
//! no sweep.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::transport::streamable_http_server::{SessionId, SessionManager};

use crate::server::UserId;

/// The fewest entries a sweep waits for: fewer are not worth a look.
const FIRST_SWEEP_AT: usize = 64;

/// The owner of each session opened with authentication.
pub(super) struct Owners {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    by_session: HashMap<SessionId, UserId>,
    /// The entries left by the last sweep.
    after_sweep: usize,
    sweeping: bool,
}

/// What the map says of a session and a user.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ownership {
    /// The session is the user's.
    Theirs,
    /// The session is another user's.
    Another,
    /// The map does not know the session.
    Unknown,
}

impl Owners {
    pub(super) fn new() -> Self {
        Owners {
            state: Mutex::default(),
        }
    }

    /// Whether `session` is `user`'s.
    pub(super) fn of(&self, session: &SessionId, user: &UserId) -> Ownership {
        match self.state().by_session.get(session) {
            Some(owner) if owner == user => Ownership::Theirs,
            Some(_) => Ownership::Another,
            None => Ownership::Unknown,
        }
    }

    /// `session` is `user`'s from now on. True when a sweep is due, which the caller runs
    /// ([`sweep`](Self::sweep)); the map counts it as running from now.
    pub(super) fn record(&self, session: SessionId, user: UserId) -> bool {
        let mut state = self.state();
        state.by_session.insert(session, user);
        let due =
            !state.sweeping && state.by_session.len() >= FIRST_SWEEP_AT.max(2 * state.after_sweep);
        state.sweeping |= due;
        due
    }

    /// `session` ended.
    pub(super) fn forget(&self, session: &SessionId) {
        self.state().by_session.remove(session);
    }

    /// Forgets the sessions `sessions` no longer holds. A manager that cannot tell keeps its
    /// entry: forgetting a live session's owner would refuse its owner.
    pub(super) async fn sweep(&self, sessions: &impl SessionManager) {
        let recorded: Vec<SessionId> = self.state().by_session.keys().cloned().collect();
        let mut ended = Vec::new();
        for session in recorded {
            if matches!(sessions.has_session(&session).await, Ok(false)) {
                ended.push(session);
            }
        }
        let mut state = self.state();
        for session in &ended {
            state.by_session.remove(session);
        }
        state.after_sweep = state.by_session.len();
        state.sweeping = false;
    }

    /// How many sessions the map holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.state().by_session.len()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held left the map whole: each change is one call.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs a due sweep of `owners` against `sessions`, off the request that made it due.
pub(super) fn sweep_later<M: SessionManager>(owners: Arc<Owners>, sessions: Arc<M>) {
    tokio::spawn(async move { owners.sweep(&*sessions).await });
}

#[cfg(test)]
mod tests {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

    use super::*;

    fn user(name: &str) -> UserId {
        UserId::from_verified_subject(name).unwrap()
    }

    #[test]
    fn a_session_is_its_openers_and_no_one_elses() {
        let owners = Owners::new();
        let session = SessionId::from("s1");
        assert_eq!(owners.of(&session, &user("ada")), Ownership::Unknown);
        owners.record(session.clone(), user("ada"));
        assert_eq!(owners.of(&session, &user("ada")), Ownership::Theirs);
        assert_eq!(owners.of(&session, &user("bob")), Ownership::Another);
        // The same subject from another issuer is another user.
        let elsewhere = UserId::from_issuer_and_subject("https://other.example", "ada").unwrap();
        assert_eq!(owners.of(&session, &elsewhere), Ownership::Another);
        owners.forget(&session);
        assert_eq!(owners.of(&session, &user("ada")), Ownership::Unknown);
    }

    #[tokio::test]
    async fn a_sweep_forgets_the_sessions_rmcp_closed_and_keeps_the_live_ones() {
        let sessions = LocalSessionManager::default();
        let owners = Owners::new();
        let mut live = Vec::new();
        let mut due = Vec::new();
        for n in 0..FIRST_SWEEP_AT {
            let (session, transport) = sessions.create_session().await.unwrap();
            // The worker that would serve it: kept open for the live half.
            if n % 2 == 0 {
                live.push((session.clone(), transport));
            } else {
                drop(transport);
                sessions.close_session(&session).await.unwrap();
            }
            due.push(owners.record(session, user("ada")));
        }
        // Due once, at the 64th session, and not again while that sweep runs.
        assert_eq!(due.iter().filter(|due| **due).count(), 1);
        assert!(due[FIRST_SWEEP_AT - 1]);
        owners.sweep(&sessions).await;
        assert_eq!(owners.len(), live.len());
        for (session, _) in &live {
            assert_eq!(owners.of(session, &user("ada")), Ownership::Theirs);
        }
        // The next sweep waits for twice what the last one left.
        let mut next = None;
        for n in 0..live.len() {
            if owners.record(SessionId::from(format!("more-{n}")), user("bob")) {
                next = Some(n);
            }
        }
        assert_eq!(
            next,
            Some(live.len() - 1),
            "due when the map reaches 2 x {}",
            live.len()
        );
    }
}
