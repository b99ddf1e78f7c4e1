//! Credentials in Redis, shared by the replicas, encrypted at rest: each is a sealed token
//! (XChaCha20-Poly1305 under the [`AtRestKeys`], its expiry inside, bound to its user and
//! name), kept with the same time to live; Redis alone reads nothing of it.

use std::fmt;
use std::time::{Duration, SystemTime};

use zeroize::Zeroize as _;

use super::{AtRestKeys, RedisStore, sha256_hex, store_error};
use crate::Secret;
use crate::server::credentials::CREDENTIAL_TTL;
use crate::server::{CredentialStore, StoreError, UserId, bound_to, ends_at};

/// The credentials of a [`RedisStore`], encrypted with [`AtRestKeys`]
/// ([`RedisStore::credentials`]).
#[derive(Clone)]
pub struct RedisCredentials {
    store: RedisStore,
    keys: AtRestKeys,
}

impl fmt::Debug for RedisCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisCredentials")
            .field("store", &self.store)
            .field("keys", &self.keys)
            .finish()
    }
}

impl RedisStore {
    /// The credentials kept in this Redis, under this store's prefix, encrypted with `keys`.
    pub fn credentials(&self, keys: AtRestKeys) -> RedisCredentials {
        RedisCredentials {
            store: self.clone(),
            keys,
        }
    }

    fn credential_key(&self, user: &UserId, name: &str) -> String {
        // Under the user's hash tag, as the user's set of pending elicitations.
        format!(
            "{}:c:{{{}}}:{}",
            self.prefix,
            sha256_hex(user.as_str()),
            sha256_hex(name)
        )
    }
}

/// What a credential is bound to: its user and its name, so that a token moved to another key
/// does not open.
fn binding(user: &UserId, name: &str) -> Vec<u8> {
    bound_to(&[user.as_str(), name])
}

impl CredentialStore for RedisCredentials {
    async fn keep(
        &self,
        user: &UserId,
        name: &str,
        secret: &Secret<String>,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        // Refused as the memory store refuses it, by name (sealing would refuse it too).
        ends_at(SystemTime::now(), ttl, CREDENTIAL_TTL).map_err(StoreError::new)?;
        let mut nonce = [0u8; 24];
        getrandom::fill(&mut nonce)
            .map_err(|e| StoreError::new(format!("no randomness to seal a credential: {e}")))?;
        let sealed = self
            .keys
            .credentials
            .seal(
                secret.expose_secret().as_bytes(),
                &binding(user, name),
                ttl,
                nonce,
            )
            .map_err(StoreError::new)?;
        // At least 1 ms: PX refuses 0.
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        ::redis::cmd("SET")
            .arg(self.store.credential_key(user, name))
            .arg(sealed)
            .arg("PX")
            .arg(ttl_ms)
            .query_async::<()>(&mut self.store.connection.clone())
            .await
            .map_err(store_error)
    }

    async fn find(&self, user: &UserId, name: &str) -> Result<Option<Secret<String>>, StoreError> {
        let sealed: Option<String> = ::redis::cmd("GET")
            .arg(self.store.credential_key(user, name))
            .query_async(&mut self.store.connection.clone())
            .await
            .map_err(store_error)?;
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        // Sealed with a key no longer in the ring, expired, or not this user's: as if not kept.
        let Ok(mut plaintext) =
            self.keys
                .credentials
                .open(&sealed, &binding(user, name), SystemTime::now())
        else {
            return Ok(None);
        };
        // Taken out of its wiping buffer into the `Secret` that wipes it from now on.
        match String::from_utf8(std::mem::take(&mut *plaintext)) {
            Ok(text) => Ok(Some(Secret::new(text))),
            Err(not_text) => {
                not_text.into_bytes().zeroize();
                Err(StoreError::new("a kept credential is not text"))
            }
        }
    }

    async fn forget(&self, user: &UserId, name: &str) -> Result<bool, StoreError> {
        let removed: u64 = ::redis::cmd("DEL")
            .arg(self.store.credential_key(user, name))
            .query_async(&mut self.store.connection.clone())
            .await
            .map_err(store_error)?;
        Ok(removed > 0)
    }
}
