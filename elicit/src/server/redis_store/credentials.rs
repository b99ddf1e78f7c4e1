//! Credentials in Redis, shared by the replicas, encrypted at rest: each is a sealed token
//! (XChaCha20-Poly1305 under a keyring with rotation, its expiry inside, bound to its user and
//! name), kept with the same time to live; Redis alone reads nothing of it.

use std::fmt;
use std::time::{Duration, SystemTime};

use super::{RedisStore, sha256_hex, store_error};
use crate::Secret;
use crate::server::{CredentialStore, Keyring, StoreError, UserId};

/// What the credentials' keys are for: one configured secret used elsewhere too makes another key.
const PURPOSE: &str = "credential";

/// The keys that encrypt credentials at rest: the first seals, every one opens, so a key is
/// rotated by adding a new one first and dropping the old one once what it sealed has expired.
///
/// ```
/// use elicit_mcp::server::CredentialKeys;
///
/// let keys = CredentialKeys::from_keyring("new", [("new", [7u8; 32]), ("old", [9u8; 32])]).unwrap();
/// assert_eq!(format!("{keys:?}"), r#"CredentialKeys { ids: ["new", "old"] }"#);
/// let short = CredentialKeys::from_keyring("k", [("k", [0u8; 8])]).unwrap_err();
/// assert_eq!(short.to_string(), "key `k` has 8 bytes; a credential key needs at least 32");
/// ```
#[derive(Clone)]
pub struct CredentialKeys(Keyring);

impl fmt::Debug for CredentialKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<&str> = self.0.ids().collect();
        f.debug_struct("CredentialKeys").field("ids", &ids).finish()
    }
}

/// Why credential keys were refused: what was wrong, and where (never a key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CredentialKeyError(String);

impl fmt::Display for CredentialKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CredentialKeyError {}

impl CredentialKeys {
    /// Keys whose `sealing` one seals and every one of `keyring` opens: the same on every
    /// replica. Each must be at least 32 bytes, and `sealing` one of the keyring's ids.
    pub fn from_keyring<K, V>(
        sealing: &str,
        keyring: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, CredentialKeyError>
    where
        K: AsRef<str>,
        V: AsRef<[u8]>,
    {
        Keyring::configured(PURPOSE, "credential key", sealing, keyring)
            .map(CredentialKeys)
            .map_err(CredentialKeyError)
    }
}

/// The credentials of a [`RedisStore`], encrypted with [`CredentialKeys`]
/// ([`RedisStore::credentials`]).
#[derive(Clone)]
pub struct RedisCredentials {
    store: RedisStore,
    keys: CredentialKeys,
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
    pub fn credentials(&self, keys: CredentialKeys) -> RedisCredentials {
        RedisCredentials {
            store: self.clone(),
            keys,
        }
    }

    fn credential_key(&self, user: &UserId, name: &str) -> String {
        format!(
            "{}:c:{}:{}",
            self.prefix,
            sha256_hex(user.as_str()),
            sha256_hex(name)
        )
    }
}

/// What a credential is bound to: its user and its name, so that a token moved to another key
/// does not open.
fn binding(user: &UserId, name: &str) -> Vec<u8> {
    let mut bound = Vec::new();
    for part in [user.as_str(), name] {
        bound.extend_from_slice(&(part.len() as u64).to_be_bytes());
        bound.extend_from_slice(part.as_bytes());
    }
    bound
}

impl CredentialStore for RedisCredentials {
    async fn keep(
        &self,
        user: &UserId,
        name: &str,
        secret: &Secret<String>,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let mut nonce = [0u8; 24];
        getrandom::fill(&mut nonce)
            .map_err(|e| StoreError::new(format!("no randomness to seal a credential: {e}")))?;
        let sealed = self
            .keys
            .0
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
        let Ok(plaintext) = self
            .keys
            .0
            .open(&sealed, &binding(user, name), SystemTime::now())
        else {
            return Ok(None);
        };
        String::from_utf8(plaintext)
            .map(|text| Some(Secret::new(text)))
            .map_err(|_| StoreError::new("a kept credential is not text"))
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
