//! The login's records in Redis, shared by the replicas: a login started on one is finished by
//! the callback on another, and its session is known to all. Each record is sealed
//! (XChaCha20-Poly1305 under the [`AtRestKeys`], bound to what it is and its key), since a
//! login under way holds its PKCE verifier and a session its sign-out token; each lives no
//! longer than its Redis time to live, and a login is taken with `GETDEL`, once.

use std::time::{Duration, SystemTime};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::records::{PendingLogin, Session};
use crate::server::{AtRestKeys, RedisStore, StoreError, bound_to};

/// The two kinds of record: the kind in their Redis key, and what their seal is bound to
/// besides the key, so that a sealed login does not open as a session, nor as a held answer
/// of the page (the same keyring seals those).
struct Kind {
    key: &'static str,
    bound: &'static str,
}

const LOGIN: Kind = Kind {
    key: "login",
    bound: "page login",
};
const SESSION: Kind = Kind {
    key: "session",
    bound: "page session",
};

pub(super) struct RedisSessions {
    store: RedisStore,
    keys: AtRestKeys,
}

impl RedisSessions {
    pub fn new(store: &RedisStore, keys: AtRestKeys) -> Self {
        RedisSessions {
            store: store.clone(),
            keys,
        }
    }

    pub async fn hold_login(
        &self,
        state: &str,
        login: &PendingLogin,
        life: Duration,
    ) -> Result<(), StoreError> {
        self.put(&LOGIN, state, login, life).await
    }

    pub async fn take_login(&self, state: &str) -> Result<Option<PendingLogin>, StoreError> {
        let sealed: Option<String> = ::redis::cmd("GETDEL")
            .arg(self.store.hashed_key(LOGIN.key, state))
            .query_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)?;
        self.opened(&LOGIN, state, sealed)
    }

    pub async fn open(
        &self,
        id: &str,
        session: &Session,
        life: Duration,
    ) -> Result<(), StoreError> {
        self.put(&SESSION, id, session, life).await
    }

    pub async fn session(&self, id: &str) -> Result<Option<Session>, StoreError> {
        let sealed: Option<String> = ::redis::cmd("GET")
            .arg(self.store.hashed_key(SESSION.key, id))
            .query_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)?;
        self.opened(&SESSION, id, sealed)
    }

    pub async fn end(&self, id: &str) -> Result<(), StoreError> {
        ::redis::cmd("DEL")
            .arg(self.store.hashed_key(SESSION.key, id))
            .query_async::<()>(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)
    }

    async fn put(
        &self,
        kind: &Kind,
        name: &str,
        record: &impl Serialize,
        life: Duration,
    ) -> Result<(), StoreError> {
        let mut nonce = [0u8; 24];
        getrandom::fill(&mut nonce)
            .map_err(|e| StoreError::new(format!("no randomness to seal a {}: {e}", kind.key)))?;
        let sealed = self
            .keys
            .answers
            .seal_json(record, &bound_to(&[kind.bound, name]), life, nonce)
            .map_err(|e| StoreError::new(format!("a {} could not be held: {e}", kind.key)))?;
        let millis = i64::try_from(life.as_millis()).unwrap_or(i64::MAX).max(1);
        ::redis::cmd("SET")
            .arg(self.store.hashed_key(kind.key, name))
            .arg(sealed)
            .arg("PX")
            .arg(millis)
            .query_async::<()>(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)
    }

    fn opened<T: DeserializeOwned>(
        &self,
        kind: &Kind,
        name: &str,
        sealed: Option<String>,
    ) -> Result<Option<T>, StoreError> {
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        let plaintext = self
            .keys
            .answers
            .open(&sealed, &bound_to(&[kind.bound, name]), SystemTime::now())
            .map_err(|_| {
                StoreError::new(format!(
                    "a {} does not open: sealed with a key no longer in the keyring, or expired",
                    kind.key
                ))
            })?;
        serde_json::from_slice(&plaintext)
            .map(Some)
            .map_err(|e| StoreError::new(format!("a {} could not be read: {e}", kind.key)))
    }
}
