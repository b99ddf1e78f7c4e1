//! The sealed `requestState`: what it holds between rounds, what it is bound to, and the seal
//! that encrypts and opens it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use ::rmcp::model as sdk;

use super::binding::Binding;
use super::sealed::SealedState;
use crate::server::Keyring;
use crate::server::{MemoryReplayGuard, ReplayGuard, StoreError};

/// What the seal's tokens are, for its keys.
const PURPOSE: &str = "requestState";

/// Seals and opens the `requestState` of the input-required flow.
///
/// The client echoes `requestState` back, so the server must treat it as attacker input (the
/// MRTR page of 2026-07-28). The state carries the user's earlier answers (only the fields each
/// form reads), so it is encrypted as well as authenticated: XChaCha20-Poly1305 (RustCrypto's
/// `XChaCha20` with a portable Poly1305), a random nonce per state, its expiry inside, under
/// the sealing key of a keyring (rotation: every key of the ring opens). It is bound, as
/// associated data, to the method, the tool, prompt or resource, its arguments (compared as
/// JSON values, whatever the key order), and the authenticated user when there is one. The
/// client sees an opaque token; forged, tampered, expired, foreign or (with
/// [`single_use`](Self::single_use)) replayed state is refused with -32602, one message for
/// every cause.
///
/// Where the key comes from:
/// - one process: [`generated`](Self::generated), a random key made at start (states in
///   flight do not survive a restart, which only makes those clients start the call again);
/// - replicas: [`from_keyring`](Self::from_keyring) with the same keys on every replica, read
///   from configuration ([`parse_keyring`](Self::parse_keyring) reads `id:hex` lists); add a
///   new key as the signing one and keep the old one until the states it signed expire.
///
/// ```
/// use elicit_mcp::rmcp::RequestStateSeal;
/// use std::time::Duration;
///
/// // One process: a key of its own.
/// let seal = RequestStateSeal::generated().unwrap();
/// # let _ = seal;
///
/// // Replicas: the same keys everywhere, from configuration; `new` signs, `old` still opens.
/// let keys = "new:6e65772d6b65792d6f662d61742d6c656173742d33322d62797465732d2d2d21,\
///             old:6f6c642d6b65792d6f662d61742d6c656173742d33322d62797465732d2d2d21";
/// let (signing, keyring) = RequestStateSeal::parse_keyring(keys).unwrap();
/// let seal = RequestStateSeal::from_keyring(&signing, keyring)
///     .unwrap()
///     .with_ttl(Duration::from_secs(120))
///     .single_use();
/// # let _ = seal;
/// ```
#[derive(Clone, Debug)]
pub struct RequestStateSeal {
    keys: Keyring,
    ttl: Duration,
    /// Where the states already opened are recorded; `Some` makes every state single-use.
    used: Option<Guard>,
}

/// Why a seal's keys were refused: what was wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealKeyError {
    message: String,
}

impl fmt::Display for SealKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SealKeyError {}

impl SealKeyError {
    fn new(message: impl Into<String>) -> Self {
        SealKeyError {
            message: message.into(),
        }
    }
}

impl RequestStateSeal {
    /// How long a sealed `requestState` stays valid unless [`with_ttl`](Self::with_ttl) says otherwise.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);

    /// The fewest bytes a sealing key may have.
    pub const MIN_KEY_BYTES: usize = crate::server::MIN_KEY_BYTES;

    fn with_keys(keys: Keyring) -> Self {
        RequestStateSeal {
            keys,
            ttl: Self::DEFAULT_TTL,
            used: None,
        }
    }

    /// A seal with a random 32-byte key from the operating system: for a server of one
    /// process. Fails only if the system has no randomness to give.
    pub fn generated() -> Result<Self, SealKeyError> {
        // Wiped once the keyring has derived its key from it, as `AtRestKeys::generated` does.
        let mut key = zeroize::Zeroizing::new([0u8; Self::MIN_KEY_BYTES]);
        getrandom::fill(&mut *key)
            .map_err(|e| SealKeyError::new(format!("no randomness for a sealing key: {e}")))?;
        Ok(Self::with_keys(Keyring::new(
            PURPOSE,
            ("generated", &*key),
            [],
        )))
    }

    /// A seal whose `signing` key seals and every key of `keyring` opens: the same on every
    /// replica. Each key must be at least [`MIN_KEY_BYTES`](Self::MIN_KEY_BYTES), and
    /// `signing` one of the keyring's ids.
    pub fn from_keyring<K, V>(
        signing: &str,
        keyring: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, SealKeyError>
    where
        K: AsRef<str>,
        V: AsRef<[u8]>,
    {
        Keyring::configured(PURPOSE, "signing key", signing, keyring)
            .map(Self::with_keys)
            .map_err(SealKeyError::new)
    }

    /// The ids of the keys that open states, the sealing one first: what a server may say at
    /// start-up (never the keys).
    pub fn key_ids(&self) -> impl Iterator<Item = &str> {
        self.keys.ids()
    }

    /// Reads a keyring from configuration text: `id:HEX` entries separated by commas, the
    /// first one signing (`new:…,old:…`). White space around entries is ignored. Gives the
    /// signing id and the keys, for [`from_keyring`](Self::from_keyring).
    #[allow(clippy::type_complexity)]
    pub fn parse_keyring(text: &str) -> Result<(String, Vec<(String, Vec<u8>)>), SealKeyError> {
        let mut keyring = Vec::new();
        for (position, entry) in text.split(',').map(str::trim).enumerate() {
            let number = position + 1;
            let (id, hex) = entry.split_once(':').ok_or_else(|| {
                // Not echoed: an entry without its id may be a bare key.
                SealKeyError::new(format!(
                    "keyring entry {number} is not `id:HEX`: it has no `:` (its text is not shown, \
                     as it may hold a key)"
                ))
            })?;
            let id = id.trim();
            if id.is_empty() {
                return Err(SealKeyError::new(format!(
                    "keyring entry {number} has an empty id"
                )));
            }
            let key = decode_hex(hex.trim()).map_err(|problem| {
                SealKeyError::new(format!("key `{id}` (entry {number}): {problem}"))
            })?;
            if keyring
                .iter()
                .any(|(known, _): &(String, Vec<u8>)| known == id)
            {
                return Err(SealKeyError::new(format!(
                    "key `{id}` is given twice in the keyring"
                )));
            }
            keyring.push((id.to_owned(), key));
        }
        let signing = keyring[0].0.clone();
        Ok((signing, keyring))
    }

    /// States expire `ttl` after they are sealed.
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Each state opens once: a replayed retry is refused. The record of used states is kept
    /// in this process (clones of the seal share it), until the states expire. Replicas behind
    /// a load balancer share one record with [`with_replay_guard`](Self::with_replay_guard) instead.
    pub fn single_use(mut self) -> Self {
        self.used = Some(Guard(Arc::new(MemoryReplayGuard::new())));
        self
    }

    /// Each state opens once, across every replica whose seal records in `guard`: a retry
    /// replayed to another replica is refused too. `RedisStore` (feature `redis`) is such a
    /// record. If the record cannot be reached, the retry fails with an internal error rather
    /// than open a state that may have been used.
    ///
    /// ```no_run
    /// # #[cfg(feature = "redis")]
    /// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// use elicit_mcp::rmcp::{Elicitation, RequestStateSeal};
    /// use elicit_mcp::server::RedisStore;
    ///
    /// let store = RedisStore::connect("redis://127.0.0.1/").await?;
    /// let keys = std::env::var("STATE_KEYS")?;
    /// let (signing, keyring) = RequestStateSeal::parse_keyring(&keys)?;
    /// let seal = RequestStateSeal::from_keyring(&signing, keyring)?.with_replay_guard(store);
    /// let elicitation = Elicitation::new(seal);
    /// # let _ = elicitation;
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_replay_guard(mut self, guard: impl ReplayGuard) -> Self {
        self.used = Some(Guard(Arc::new(guard)));
        self
    }

    pub(crate) fn seal(
        &self,
        state: &SealedState,
        bound_to: &Binding,
    ) -> Result<String, sdk::ErrorData> {
        let cannot = |why: String| {
            sdk::ErrorData::internal_error(format!("cannot seal requestState: {why}"), None)
        };
        let mut nonce = [0u8; 24];
        getrandom::fill(&mut nonce).map_err(|e| cannot(format!("no randomness: {e}")))?;
        self.keys
            .seal_json(state, bound_to.as_bytes(), self.ttl, nonce)
            .map_err(cannot)
    }

    pub(crate) async fn open(
        &self,
        sealed: &str,
        bound_to: &Binding,
    ) -> Result<SealedState, sdk::ErrorData> {
        let plaintext = self
            .keys
            .open(sealed, bound_to.as_bytes(), SystemTime::now())
            .map_err(|_| refused())?;
        let state: SealedState = serde_json::from_slice(&plaintext).map_err(|_| refused())?;
        if let Some(Guard(used)) = &self.used {
            // Remembered as long as the token could still open: after that it expires anyway.
            let until = SystemTime::now() + self.ttl;
            let first = used.first_open(&state.nonce, until).await.map_err(|e| {
                sdk::ErrorData::internal_error(
                    format!("cannot check that requestState is used once: {e}"),
                    None,
                )
            })?;
            if !first {
                return Err(refused());
            }
        }
        Ok(state)
    }
}

type Opening<'a> = Pin<Box<dyn Future<Output = Result<bool, StoreError>> + Send + 'a>>;

/// [`ReplayGuard`] as an object, so the seal stays one type whatever records its states.
trait DynReplayGuard: Send + Sync {
    fn first_open<'a>(&'a self, nonce: &'a str, until: SystemTime) -> Opening<'a>;
}

impl<G: ReplayGuard> DynReplayGuard for G {
    fn first_open<'a>(&'a self, nonce: &'a str, until: SystemTime) -> Opening<'a> {
        Box::pin(ReplayGuard::first_open(self, nonce, until))
    }
}

/// The record of a seal's opened states, shared by its clones.
#[derive(Clone)]
struct Guard(Arc<dyn DynReplayGuard>);

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ReplayGuard")
    }
}

/// The refusal of a state that does not open: one client-facing message whatever failed (the
/// detail would tell an attacker which check to work on).
pub(super) fn refused() -> sdk::ErrorData {
    sdk::ErrorData::invalid_params(
        "requestState is invalid, expired, already used, or belongs to another request",
        None,
    )
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!(
            "{} hex digits; a key is whole bytes, two digits each",
            hex.len()
        ));
    }
    let digit = |position: usize, c: u8| {
        (c as char).to_digit(16).ok_or_else(|| {
            format!(
                "`{}` at position {} is not a hex digit",
                c as char,
                position + 1
            )
        })
    };
    hex.as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| Ok((digit(2 * i, pair[0])? * 16 + digit(2 * i + 1, pair[1])?) as u8))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of a future that is ready at once (an open without a replay guard).
    fn ready<T>(future: impl Future<Output = T>) -> T {
        let mut future = std::pin::pin!(future);
        let waker = std::task::Waker::noop();
        match future.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("an open without a replay guard waited"),
        }
    }

    /// Found by fuzzing (`fuzz/fuzz_targets/sealed_decode.rs`): a number of an answer, sealed
    /// and opened the next round, read as its neighbouring float, serde_json reading by default
    /// some of the numbers it writes imprecisely. Sealed and opened, a state is the same.
    #[test]
    fn a_state_opens_with_the_very_numbers_it_was_sealed_with() {
        let state: SealedState = serde_json::from_str(
            r##"{"nonce":"n","answers":{"k":{"kind":"elicitation","result":{"action":"accept",
                "content":{"big":-900719925476553540991,"small":2.2250738585072014e-308,
                "third":0.30000000000000004}}}},"steps":{"#1":-9.007199254765535e20}}"##,
        )
        .unwrap();
        let written = serde_json::to_value(&state).unwrap();
        let seal = RequestStateSeal::generated().unwrap();
        let call = super::super::binding::Call {
            method: "tools/call",
            name: "book",
            arguments: None,
        };
        let binding = Binding::of(&call, None);
        let token = seal.seal(&state, &binding).unwrap();
        let opened = ready(seal.open(&token, &binding)).unwrap();
        assert_eq!(serde_json::to_value(&opened).unwrap(), written);
    }

    #[test]
    fn keyrings_read_from_configuration_say_what_is_wrong() {
        let key = "00".repeat(32);
        let (signing, keys) =
            RequestStateSeal::parse_keyring(&format!("b:{key}, a:{key}")).unwrap();
        assert_eq!(signing, "b");
        assert_eq!(keys.len(), 2);
        assert!(RequestStateSeal::from_keyring(&signing, keys).is_ok());

        let error = |text: &str| {
            RequestStateSeal::parse_keyring(text)
                .unwrap_err()
                .to_string()
        };
        let bare_key = "ab".repeat(32);
        let refused = error(&bare_key);
        assert_eq!(
            refused,
            "keyring entry 1 is not `id:HEX`: it has no `:` (its text is not shown, as it may \
             hold a key)"
        );
        assert!(!refused.contains("abab"), "{refused}");
        assert_eq!(
            error(&format!("a:{key},a:{key}")),
            "key `a` is given twice in the keyring"
        );
        assert_eq!(
            error("a:0g"),
            "key `a` (entry 1): `g` at position 2 is not a hex digit"
        );
        assert_eq!(
            error("a:abc"),
            "key `a` (entry 1): 3 hex digits; a key is whole bytes, two digits each"
        );
        let short = RequestStateSeal::from_keyring("a", [("a", [0u8; 8])]).unwrap_err();
        assert_eq!(
            short.to_string(),
            "key `a` has 8 bytes; a signing key needs at least 32"
        );
        let absent = RequestStateSeal::from_keyring("z", [("a", [0u8; 32])]).unwrap_err();
        assert_eq!(
            absent.to_string(),
            "the signing key `z` is not in the keyring"
        );
    }
}
