//! The sealed `requestState`: what it holds between rounds, what it is bound to, and the seal
//! that encrypts and opens it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use ::rmcp::model as sdk;

use super::binding::Binding;
use super::keyring_text::ParsedKeyring;
use super::sealed::SealedState;
use crate::server::debug_as_message;
use crate::server::{Keyring, TtlTooLarge, checked_ttl, ends_at};
use crate::server::{MemoryReplayGuard, ReplayGuard, StoreError};

/// What the seal's tokens are, for its keys.
const PURPOSE: &str = "requestState";

/// The seal's time to live, as errors name it.
const TTL: &str = "the time to live of a `requestState` (`RequestStateSeal::with_ttl`)";

/// Seals and opens the `requestState` of the input-required flow.
///
/// The client echoes `requestState` back, so the server must treat it as attacker input (the
/// MRTR page of 2026-07-28). The state carries the user's earlier answers (only the fields each
/// form reads), so it is encrypted as well as authenticated: XChaCha20-Poly1305 (RustCrypto's
/// `chacha20poly1305`, audited), a random nonce per state, its expiry inside, under
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
/// let keyring = RequestStateSeal::parse_keyring(keys).unwrap();
/// let seal = RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys())
///     .unwrap()
///     .with_ttl(Duration::from_secs(120))
///     .unwrap()
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

/// Why a seal's keys were refused: what was wrong, and where (an entry by its position: never a
/// key, nor an id, in whose place a key may have been given).
#[derive(Clone, PartialEq, Eq)]
pub struct SealKeyError {
    message: String,
}

impl fmt::Display for SealKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SealKeyError {}

debug_as_message!(SealKeyError);

impl SealKeyError {
    fn new(message: impl Into<String>) -> Self {
        SealKeyError {
            message: message.into(),
        }
    }
}

impl RequestStateSeal {
    /// How long a sealed `requestState` stays valid unless [`with_ttl`](Self::with_ttl) says
    /// otherwise.
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
    /// signing id and the keys, for [`from_keyring`](Self::from_keyring) (and `AtRestKeys`'s,
    /// feature `redis`). An error names the entry by its position and shows no part of its
    /// text, id or key: an entry written the wrong way round (`KEY:id`) must not put its key
    /// in a log.
    pub fn parse_keyring(text: &str) -> Result<ParsedKeyring, SealKeyError> {
        ParsedKeyring::parse(text).map_err(SealKeyError::new)
    }

    /// States expire `ttl` after they are sealed. Refuses a `ttl` that cannot be added to the
    /// current time (`Duration::MAX`, say), with which no state could be sealed.
    pub fn with_ttl(mut self, ttl: Duration) -> Result<Self, TtlTooLarge> {
        self.ttl = checked_ttl(ttl, TTL)?;
        Ok(self)
    }

    /// Each state opens once: a replayed retry is refused. The record of used states is kept in
    /// this process (clones of the seal share it), until the states expire. Replicas behind a load
    /// balancer share one record with [`with_replay_guard`](Self::with_replay_guard) instead.
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
    /// let keyring = RequestStateSeal::parse_keyring(&keys)?;
    /// let seal = RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys())?
    ///     .with_replay_guard(store);
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
            .map_err(|e| cannot(e.to_string()))
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
            let until = ends_at(SystemTime::now(), self.ttl, TTL).map_err(|e| {
                sdk::ErrorData::internal_error(
                    format!("cannot check that requestState is used once: {e}"),
                    None,
                )
            })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of a future that is ready at once (an open without a replay guard).
    fn ready<T>(future: impl Future<Output = T>) -> T {
        let mut future = std::pin::pin!(future);
        let waker = std::task::Waker::noop();
        match future
            .as_mut()
            .poll(&mut std::task::Context::from_waker(waker))
        {
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
        let call = crate::rmcp::revision::params::Call {
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
        let keyring = RequestStateSeal::parse_keyring(&format!("b:{key}, a:{key}")).unwrap();
        assert_eq!(keyring.signing_id(), "b");
        assert_eq!(
            keyring.keys().map(|(id, _)| id).collect::<Vec<_>>(),
            ["b", "a"]
        );
        assert!(RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys()).is_ok());
        assert_eq!(
            format!("{keyring:?}"),
            r#"ParsedKeyring { signing: "b", ids: ["b", "a"] }"#
        );

        let error = |text: &str| {
            RequestStateSeal::parse_keyring(text)
                .unwrap_err()
                .to_string()
        };
        const HIDDEN: &str = " (an entry's text is not shown, as it may hold a key)";
        let bare_key = "ab".repeat(32);
        let refused = error(&bare_key);
        assert_eq!(
            refused,
            format!("keyring entry 1 is not `id:HEX`: it has no `:`{HIDDEN}")
        );
        assert_eq!(
            error(&format!("a:{key}, :{key}")),
            format!("keyring entry 2 has an empty id{HIDDEN}")
        );
        assert_eq!(
            error(&format!("a:{key},b:{key},a:{key}")),
            format!("keyring entries 1 and 3 have the same id{HIDDEN}")
        );
        assert_eq!(
            error("a:0g"),
            format!(
                "keyring entry 1: its key has a character that is not a hex digit at position \
                 2{HIDDEN}"
            )
        );
        assert_eq!(
            error("a:abc"),
            format!(
                "keyring entry 1: its key has 3 hex digits; a key is whole bytes, two digits \
                 each{HIDDEN}"
            )
        );
        let short = RequestStateSeal::from_keyring("a", [("a", [0u8; 8])]).unwrap_err();
        assert_eq!(
            short.to_string(),
            "keyring entry 1 has 8 bytes; a signing key needs at least 32"
        );
        let absent = RequestStateSeal::from_keyring("z", [("a", [0u8; 32])]).unwrap_err();
        assert_eq!(
            absent.to_string(),
            "the signing key is not in the keyring: none of its 1 entries has that id (ids are \
             not shown, as a key given in an id's place would be)"
        );
    }

    /// An operator who writes an entry the wrong way round (`KEY:id`) finds no part of the key
    /// in the error, nor of the id: the entry is named by its position, whatever is wrong with
    /// it (the "id" is not hex, too short, given twice, or the "key" put where the signing id
    /// goes).
    #[test]
    fn no_keyring_error_shows_a_key_or_an_id() {
        let key = "4f7c2a9d1e8b3c6f0a5d2e9b7c4f1a8d3e6b0c5f2a9d7e4b1c8f3a6d0e5b2c9f";
        let swapped = [
            format!("{key}:primary"),
            format!("new:{},{key}:retired", "00".repeat(32)),
            format!("{key}:ab"),
            format!("{key}:12,{key}:34"),
            format!("{key}:abc"),
            format!("{key}:0g"),
        ];
        let shown = |refused: &str| {
            for part in [
                key,
                &key[..8],
                &key[28..36],
                &key[56..],
                "primary",
                "retired",
            ] {
                assert!(!refused.contains(part), "`{part}` shown: {refused}");
            }
        };
        for text in &swapped {
            let refused = match RequestStateSeal::parse_keyring(text) {
                Err(refused) => refused.to_string(),
                Ok(keyring) => RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys())
                    .expect_err("a swapped entry's key has too few bytes")
                    .to_string(),
            };
            shown(&refused);
        }
        // The key given as the signing id, and a key too short under a key's text as its id.
        let keyring = [("retired", [7u8; 32])];
        let refused = RequestStateSeal::from_keyring(key, keyring).unwrap_err();
        shown(&refused.to_string());
        let short = [(key, [7u8; 8])];
        shown(
            &RequestStateSeal::from_keyring(key, short)
                .unwrap_err()
                .to_string(),
        );
        #[cfg(feature = "redis")]
        {
            use crate::server::AtRestKeys;
            shown(
                &AtRestKeys::from_keyring(key, keyring)
                    .unwrap_err()
                    .to_string(),
            );
            shown(
                &AtRestKeys::from_keyring(key, short)
                    .unwrap_err()
                    .to_string(),
            );
        }
    }

    /// A time to live past what the clock can hold is refused where it is configured; and
    /// where it is added, should one get there, sealing and the single-use record refuse with
    /// an internal error naming it, not a panic.
    #[test]
    fn a_time_to_live_past_the_clock_is_refused_not_a_panic() {
        let binding = Binding::of(
            &crate::rmcp::revision::params::Call {
                method: "tools/call",
                name: "book",
                arguments: None,
            },
            None,
        );
        let state = SealedState {
            nonce: "0123".into(),
            ..SealedState::default()
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for huge in [Duration::MAX, Duration::from_secs(u64::MAX)] {
            let refused = RequestStateSeal::generated()
                .unwrap()
                .with_ttl(huge)
                .unwrap_err();
            let too_large = "the time to live of a `requestState` (`RequestStateSeal::with_ttl`) \
                             (18446744073709551615 s) is too large";
            assert!(refused.to_string().starts_with(too_large), "{refused}");

            let mut seal = RequestStateSeal::generated().unwrap().single_use();
            let token = seal.seal(&state, &binding).unwrap();
            seal.ttl = huge;
            let sealing = seal.seal(&state, &binding).unwrap_err();
            assert_eq!(sealing.code, sdk::ErrorCode::INTERNAL_ERROR);
            assert!(
                sealing.message.contains("is too large"),
                "{}",
                sealing.message
            );
            let opening = runtime.block_on(seal.open(&token, &binding)).unwrap_err();
            assert_eq!(opening.code, sdk::ErrorCode::INTERNAL_ERROR);
            assert!(opening.message.contains(too_large), "{}", opening.message);
        }
    }

    /// A `requestState` sealed by the build before the AEAD became RustCrypto's
    /// `chacha20poly1305` (`f829cc7`), with a configured key, for a call with arguments and a
    /// user, and a century to live: it opens on this build, to the same state (replicas of two
    /// builds serve one call during a rolling deploy), and for no other call.
    #[test]
    fn a_state_sealed_before_the_aead_changed_opens() {
        const SEALED_BEFORE: &str = "e1.MjAyNi0xMg.mAR7QD8ruY1J952q1U5eaLyVi_tBqrmJciH0axbfDL6M6aGsDi-iZB_XIBrV2OZv6PH4WiawhW-Nx13Vu-En0IBf0NHeJQRc83b_NlaBnp0KACFMhXcoOaETr2TguwepNDat8LnJ-my8s-icqbbDnPz-WogG1CLMjq90vsYRYYZOSzhqtujdwUoo9gDXfqEZWuXv7dBnLo_z451eLgE2YX4wU4fYZwITS_ebB8OeSbrNj2V2OHdxnQeSlu9srw-HtF0c7qrisrY8gSXx5aUG-MOyQPu_O20Kb_vDFZELEWuiAnqy1FTR9V_FBQ5Nofs3WhZuI_eGcI_MFBgXwnvPr8QgnjsCleh0Q4ivaRiy";
        let keyring =
            RequestStateSeal::parse_keyring(&format!("2026-12:{}", "6b".repeat(32))).unwrap();
        let seal = RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys()).unwrap();
        let arguments = serde_json::json!({"guests": 12, "when": "2026-12-24"});
        let user = crate::server::UserId::from_verified_subject("user-42").unwrap();
        let call = |name| {
            Binding::of(
                &crate::rmcp::revision::params::Call {
                    method: "tools/call",
                    name,
                    arguments: arguments.as_object(),
                },
                Some(&user),
            )
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let state = runtime
            .block_on(seal.open(SEALED_BEFORE, &call("book")))
            .unwrap();
        assert_eq!(
            serde_json::to_value(&state).unwrap(),
            serde_json::json!({
                "answers": {"contact": {"kind": "elicitation", "result": {
                    "action": "accept",
                    "content": {"name": "Ada Lovelace", "email": "ada@example.com"}
                }}},
                "nonce": "000102030405060708090a0b0c0d0e0f",
                "steps": {"quote": {"total": 1234}},
                "rounds": 1
            })
        );
        assert!(
            runtime
                .block_on(seal.open(SEALED_BEFORE, &call("cancel")))
                .is_err()
        );
    }
}
