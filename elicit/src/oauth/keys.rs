//! The issuer's signing keys: its JWKS, fetched at start, fetched again when a token names a
//! key not held (at most once per interval) or when the keys are older than their age.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;

use super::error::VerifierSetupError;
use super::fetch::Fetch;

/// One verification key of the set.
pub(crate) struct Key {
    pub decoding: DecodingKey,
    /// The algorithm the key is for, when the JWK says (`alg`): a token signed with another
    /// is refused.
    pub algorithm: Option<Algorithm>,
}

/// The keys of one fetch, by `kid`; keys without one apart.
#[derive(Default)]
struct Held {
    by_id: HashMap<String, Arc<Key>>,
    unnamed: Vec<Arc<Key>>,
    fetched: Option<Instant>,
}

/// The key set of one issuer, shared by the requests of a verifier.
pub(crate) struct KeySet {
    uri: String,
    fetch: Fetch,
    algorithms: Vec<Algorithm>,
    refetch_interval: Duration,
    max_age: Duration,
    held: RwLock<Arc<Held>>,
    /// Held while fetching, so that requests missing the same key wait for one fetch.
    fetching: tokio::sync::Mutex<()>,
}

/// What a fetched set holds: each key as JSON, read one by one.
#[derive(Deserialize)]
struct JwkSet {
    keys: Vec<serde_json::Value>,
}

impl KeySet {
    /// The set at `uri`, fetched now: a set that cannot be had, or holds no key this server
    /// can verify with, fails the setup.
    pub async fn fetched(
        uri: String,
        fetch: Fetch,
        algorithms: Vec<Algorithm>,
        refetch_interval: Duration,
        max_age: Duration,
    ) -> Result<Self, VerifierSetupError> {
        let set = KeySet {
            uri,
            fetch,
            algorithms,
            refetch_interval,
            max_age,
            held: RwLock::new(Arc::new(Held::default())),
            fetching: tokio::sync::Mutex::new(()),
        };
        let held = set.load().await.map_err(VerifierSetupError::Discovery)?;
        if held.by_id.is_empty() && held.unnamed.is_empty() {
            return Err(VerifierSetupError::Discovery(format!(
                "the key set at {} holds no signature key for the algorithms allowed ({:?})",
                set.uri, set.algorithms
            )));
        }
        set.replace(held);
        Ok(set)
    }

    /// The key for a token signed with `algorithm` naming `kid`: a held one, or one fetched
    /// again when none is held and the last fetch is older than the interval. `None`: no such
    /// key.
    pub async fn key(&self, kid: Option<&str>, algorithm: Algorithm) -> Option<Arc<Key>> {
        let held = self.current();
        let stale = held
            .fetched
            .is_none_or(|fetched| fetched.elapsed() >= self.max_age);
        if !stale && let Some(key) = find(&held, kid, algorithm) {
            return Some(key);
        }
        let _fetching = self.fetching.lock().await;
        // Another request may have fetched while this one waited.
        let held = self.current();
        let recent = held
            .fetched
            .is_some_and(|fetched| fetched.elapsed() < self.refetch_interval);
        if !recent {
            match self.load().await {
                Ok(fresh) => self.replace(fresh),
                // The keys held still verify: a failed fetch is logged, not a refusal of
                // every token.
                Err(problem) => {
                    tracing::warn!("the issuer's keys could not be fetched again: {problem}");
                    self.mark_tried();
                }
            }
        }
        find(&self.current(), kid, algorithm)
    }

    fn current(&self) -> Arc<Held> {
        self.held
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    fn replace(&self, held: Held) {
        *self
            .held
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(held);
    }

    /// A failed fetch counts for the interval too, so a down issuer is not asked per request.
    fn mark_tried(&self) {
        let held = self.current();
        let tried = Held {
            by_id: held.by_id.clone(),
            unnamed: held.unnamed.clone(),
            fetched: Some(Instant::now()),
        };
        self.replace(tried);
    }

    async fn load(&self) -> Result<Held, String> {
        let set: JwkSet = self
            .fetch
            .get(&self.uri)
            .await
            .map_err(|error| error.to_string())?;
        let mut held = Held {
            fetched: Some(Instant::now()),
            ..Held::default()
        };
        for value in set.keys {
            // RFC 7517 section 5: keys of a type or use not understood are ignored, and this
            // server understands only signature keys for the algorithms it allows.
            let Ok(jwk) = serde_json::from_value::<Jwk>(value) else {
                continue;
            };
            let Some(key) = self.verification_key(&jwk) else {
                continue;
            };
            match jwk.common.key_id {
                Some(kid) => {
                    held.by_id.insert(kid, Arc::new(key));
                }
                None => held.unnamed.push(Arc::new(key)),
            }
        }
        Ok(held)
    }

    /// The key `jwk` verifies with, if it is an asymmetric signature key this server may use.
    fn verification_key(&self, jwk: &Jwk) -> Option<Key> {
        // A symmetric key is a shared secret: never a resource server's to verify with.
        if matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)) {
            return None;
        }
        if matches!(
            jwk.common.public_key_use,
            Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))
        ) {
            return None;
        }
        let algorithm = match jwk.common.key_algorithm {
            Some(declared) => {
                // The Debug name of a signature algorithm is its JOSE name; any other is not one.
                let algorithm: Algorithm = format!("{declared:?}").parse().ok()?;
                self.algorithms.contains(&algorithm).then_some(algorithm)?;
                Some(algorithm)
            }
            None => None,
        };
        let decoding = DecodingKey::from_jwk(jwk).ok()?;
        if !self
            .algorithms
            .iter()
            .any(|allowed| allowed.family() == decoding.family())
        {
            return None;
        }
        Some(Key {
            decoding,
            algorithm,
        })
    }
}

/// The held key for `kid` and `algorithm`: by id, or, for a token without one, the only held
/// key without an id that fits the algorithm.
fn find(held: &Held, kid: Option<&str>, algorithm: Algorithm) -> Option<Arc<Key>> {
    let fits = |key: &Arc<Key>| {
        key.decoding.family() == algorithm.family()
            && key.algorithm.is_none_or(|declared| declared == algorithm)
    };
    match kid {
        Some(kid) => held.by_id.get(kid).filter(|key| fits(key)).cloned(),
        None => {
            let mut fitting = held.unnamed.iter().filter(|key| fits(key));
            let key = fitting.next()?;
            fitting.next().is_none().then(|| key.clone())
        }
    }
}
