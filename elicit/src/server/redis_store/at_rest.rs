//! The keys that encrypt what a store holds at rest for its users: credentials kept for later,
//! and answers of the secure page held until a tool reads them.

use std::fmt;

use crate::server::Keyring;
use crate::server::debug_as_message;

/// The keys that encrypt, in Redis, what users gave the server: credentials
/// ([`RedisStore::credentials`](super::RedisStore::credentials)) and the secure page's answers
/// held for a tool (`SecureForms::in_redis`, feature `page`). The first seals, every one
/// opens, so a key is rotated by adding a new one first and dropping the old one once what it
/// sealed has expired. Each use derives its own cipher key from them, so the same keys serve
/// both without one's tokens opening as the other's.
///
/// ```
/// use elicit_mcp::server::AtRestKeys;
///
/// let keys = AtRestKeys::from_keyring("new", [("new", [7u8; 32]), ("old", [9u8; 32])]).unwrap();
/// assert_eq!(format!("{keys:?}"), r#"AtRestKeys { ids: ["new", "old"] }"#);
/// let short = AtRestKeys::from_keyring("k", [("k", [0u8; 8])]).unwrap_err();
/// assert_eq!(
///     short.to_string(),
///     "keyring entry 1 has 8 bytes; a key at rest needs at least 32"
/// );
/// ```
#[derive(Clone)]
pub struct AtRestKeys {
    pub(crate) credentials: Keyring,
    #[cfg(feature = "page")]
    pub(crate) answers: Keyring,
}

impl fmt::Debug for AtRestKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<&str> = self.key_ids().collect();
        f.debug_struct("AtRestKeys").field("ids", &ids).finish()
    }
}

/// Why keys at rest were refused: what was wrong, and where (an entry by its position: never a
/// key, nor an id, in whose place a key may have been given).
#[derive(Clone, PartialEq, Eq)]
pub struct AtRestKeyError(String);

impl fmt::Display for AtRestKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AtRestKeyError {}

debug_as_message!(AtRestKeyError);

impl AtRestKeys {
    /// Keys whose `sealing` one seals and every one of `keyring` opens: the same on every
    /// replica. Each must be at least 32 bytes, and `sealing` one of the keyring's ids.
    pub fn from_keyring<K, V>(
        sealing: &str,
        keyring: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, AtRestKeyError>
    where
        K: AsRef<str>,
        V: AsRef<[u8]>,
    {
        let keyring: Vec<(K, V)> = keyring.into_iter().collect();
        let ring = |purpose| {
            let pairs = keyring.iter().map(|(id, key)| (id.as_ref(), key.as_ref()));
            Keyring::configured(purpose, "key at rest", sealing, pairs).map_err(AtRestKeyError)
        };
        Ok(AtRestKeys {
            credentials: ring("credential")?,
            #[cfg(feature = "page")]
            answers: ring("held answer")?,
        })
    }

    /// Keys of one random 32-byte key from the operating system, with the id `generated`: for
    /// a server of one process, as what it seals opens nowhere else, nor after a restart.
    /// Fails only if the system has no randomness to give.
    pub fn generated() -> Result<Self, AtRestKeyError> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)
            .map_err(|e| AtRestKeyError(format!("no randomness for a key at rest: {e}")))?;
        let keys = Self::from_keyring("generated", [("generated", key)]);
        zeroize::Zeroize::zeroize(&mut key);
        keys
    }

    /// The ids of the keys, the sealing one first: what a server may say at start-up (never
    /// the keys).
    pub fn key_ids(&self) -> impl Iterator<Item = &str> {
        self.credentials.ids()
    }
}
