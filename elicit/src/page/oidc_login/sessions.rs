//! What the login holds server-side: the logins under way (by their `state`: the browser that
//! started each, its PKCE verifier, nonce and return path; taken once, short-lived) and the
//! browsers' sessions (by their opaque id: the user, and the token that guards the sign-out).
//! In memory, or in Redis for replicas (the callback may land on another replica than the
//! login's start, and the next request on a third).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::records::{PendingLogin, Session};
#[cfg(feature = "redis")]
use super::redis::RedisSessions;
use crate::server::StoreError;

/// The most logins under way held in memory at once: anyone may start one.
const MAX_PENDING: usize = 4096;

/// Where the login's records are held.
#[derive(Clone)]
pub(super) enum Sessions {
    Memory(Arc<MemorySessions>),
    #[cfg(feature = "redis")]
    Redis(Arc<RedisSessions>),
}

impl Sessions {
    /// Holds `login` under `state` for `life`.
    pub async fn hold_login(
        &self,
        state: &str,
        login: &PendingLogin,
        life: Duration,
    ) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(memory) => memory.hold_login(state, login, life, Instant::now()),
            #[cfg(feature = "redis")]
            Sessions::Redis(redis) => redis.hold_login(state, login, life).await,
        }
    }

    /// The login held under `state`, taken: a second call finds nothing.
    pub async fn take_login(&self, state: &str) -> Result<Option<PendingLogin>, StoreError> {
        match self {
            Sessions::Memory(memory) => Ok(memory.take_login(state, Instant::now())),
            #[cfg(feature = "redis")]
            Sessions::Redis(redis) => redis.take_login(state).await,
        }
    }

    /// Opens the session `id` for `life`.
    pub async fn open(
        &self,
        id: &str,
        session: &Session,
        life: Duration,
    ) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(memory) => {
                memory.open(id, session, life, Instant::now());
                Ok(())
            }
            #[cfg(feature = "redis")]
            Sessions::Redis(redis) => redis.open(id, session, life).await,
        }
    }

    /// The session `id`, while it lasts.
    pub async fn session(&self, id: &str) -> Result<Option<Session>, StoreError> {
        match self {
            Sessions::Memory(memory) => Ok(memory.session(id, Instant::now())),
            #[cfg(feature = "redis")]
            Sessions::Redis(redis) => redis.session(id).await,
        }
    }

    /// Ends the session `id`.
    pub async fn end(&self, id: &str) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(memory) => {
                memory.end(id);
                Ok(())
            }
            #[cfg(feature = "redis")]
            Sessions::Redis(redis) => redis.end(id).await,
        }
    }
}

/// The records of one process.
#[derive(Default)]
pub(super) struct MemorySessions {
    pending: Mutex<HashMap<String, (PendingLogin, Instant)>>,
    sessions: Mutex<HashMap<String, (Session, Instant)>>,
}

impl MemorySessions {
    fn hold_login(
        &self,
        state: &str,
        login: &PendingLogin,
        life: Duration,
        now: Instant,
    ) -> Result<(), StoreError> {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        if pending.len() >= MAX_PENDING {
            pending.retain(|_, (_, until)| *until > now);
            if pending.len() >= MAX_PENDING {
                return Err(StoreError::new(format!(
                    "{MAX_PENDING} logins are under way already"
                )));
            }
        }
        pending.insert(state.to_owned(), (login.clone(), now + life));
        Ok(())
    }

    fn take_login(&self, state: &str, now: Instant) -> Option<PendingLogin> {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let (login, until) = pending.remove(state)?;
        (until > now).then_some(login)
    }

    fn open(&self, id: &str, session: &Session, life: Duration, now: Instant) {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        // Ended sessions go when the held ones double, so the sweep costs little per login.
        if sessions.len() >= 1024 && sessions.len().is_power_of_two() {
            sessions.retain(|_, (_, until)| *until > now);
        }
        sessions.insert(id.to_owned(), (session.clone(), now + life));
    }

    fn session(&self, id: &str, now: Instant) -> Option<Session> {
        let sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions
            .get(id)
            .filter(|(_, until)| *until > now)
            .map(|(session, _)| session.clone())
    }

    fn end(&self, id: &str) {
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn login(browser: &str) -> PendingLogin {
        PendingLogin {
            browser: browser.to_owned(),
            verifier: "v".to_owned(),
            nonce: "n".to_owned(),
            return_to: "/secure/x".to_owned(),
        }
    }

    #[test]
    fn a_pending_login_is_taken_once_and_expires() {
        let memory = MemorySessions::default();
        let now = Instant::now();
        let life = Duration::from_secs(600);
        memory.hold_login("s1", &login("b"), life, now).unwrap();
        assert_eq!(memory.take_login("s1", now).unwrap().browser, "b");
        assert!(memory.take_login("s1", now).is_none(), "taken once");
        assert!(memory.take_login("unknown", now).is_none());
        memory.hold_login("s2", &login("b"), life, now).unwrap();
        assert!(memory.take_login("s2", now + life).is_none(), "expired");
    }

    #[test]
    fn the_logins_under_way_are_bounded_and_the_expired_make_room() {
        let memory = MemorySessions::default();
        let now = Instant::now();
        let life = Duration::from_secs(600);
        for state in 0..MAX_PENDING {
            memory
                .hold_login(&state.to_string(), &login("b"), life, now)
                .unwrap();
        }
        let full = memory.hold_login("one more", &login("b"), life, now);
        assert!(
            full.unwrap_err()
                .to_string()
                .contains("logins are under way")
        );
        assert!(
            memory
                .hold_login("one more", &login("b"), life, now + life)
                .is_ok()
        );
    }

    #[test]
    fn a_session_lasts_its_life_and_ends_on_sign_out() {
        let memory = MemorySessions::default();
        let now = Instant::now();
        let life = Duration::from_secs(3600);
        let session = Session {
            issuer: "https://id.example".to_owned(),
            subject: "alice".to_owned(),
            csrf: "t".to_owned(),
        };
        memory.open("id1", &session, life, now);
        assert_eq!(memory.session("id1", now).unwrap().subject, "alice");
        assert!(memory.session("id1", now + life).is_none(), "expired");
        memory.end("id1");
        assert!(memory.session("id1", now).is_none(), "ended");
    }
}
