//! Access tokens verified by asking the authorization server (RFC 7662), with the server's
//! own client credentials; each answer cached by the token's hash, for at most the token's
//! remaining life and a bound of the server's.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use http::request::Parts;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::challenge::{Refusal, bearer_token};
use super::config::{ProtectedResource, Settings};
use super::discovery::{discover, endpoint};
use super::error::VerifierSetupError;
use super::scopes::Scopes;
use crate::rmcp::authenticate::{Authenticate, Unauthenticated};
use crate::server::UserId;
use std::sync::Arc;

/// Verifies opaque (or any) access tokens by token introspection (RFC 7662) at the issuer's
/// `introspection_endpoint`, authenticated as the server's own client (HTTP Basic, RFC 6749
/// section 2.3.1). A token is accepted when the answer says it is `active`, names the
/// configured issuer (when it names one), this resource in `aud`, a `sub`, an `exp` and `nbf`
/// within the leeway, and every required scope. The user is issuer and `sub` together.
///
/// Each answer is cached under the SHA-256 of the token (the token itself is not kept), for
/// the token's remaining life at most and never longer than
/// [`with_cache_time`](Self::with_cache_time); at most
/// [`with_cache_entries`](Self::with_cache_entries) answers are held. A token revoked at the
/// authorization server is therefore accepted until its cached answer expires: the cache time
/// is that window. Built by [`ProtectedResource::introspection`].
pub struct Introspection {
    settings: Arc<Settings>,
    endpoint: String,
    client_id: String,
    client_secret: SecretString,
    cache_time: Duration,
    cache_entries: usize,
    cache: Mutex<HashMap<[u8; 32], Cached>>,
}

/// An answer held, and until when.
struct Cached {
    verdict: Result<UserId, Refusal>,
    until: Instant,
}

/// What the answer holds that is read. Members not read are not kept.
#[derive(Deserialize)]
struct Answer {
    active: bool,
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    aud: Option<Audience>,
    #[serde(default)]
    exp: Option<u64>,
    #[serde(default)]
    nbf: Option<u64>,
    #[serde(flatten)]
    scopes: Scopes,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

impl Audience {
    fn includes(&self, resource: &str) -> bool {
        match self {
            Audience::One(audience) => audience == resource,
            Audience::Many(audiences) => audiences.iter().any(|audience| audience == resource),
        }
    }
}

impl ProtectedResource {
    /// The verifier of access tokens by introspection for this resource, asking as the client
    /// `client_id` with `client_secret`: the issuer's metadata found now and its
    /// `introspection_endpoint` read, so that a server whose authorization server cannot be
    /// used fails when it starts.
    pub async fn introspection(
        &self,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Result<Introspection, VerifierSetupError> {
        let settings = self.settings.clone();
        let metadata = discover(&settings).await?;
        let endpoint = endpoint(
            "introspection_endpoint",
            metadata.introspection_endpoint.as_deref(),
            &settings.issuer,
        )?;
        Ok(Introspection {
            settings,
            endpoint,
            client_id: client_id.into(),
            client_secret: SecretString::from(client_secret.into()),
            cache_time: Introspection::DEFAULT_CACHE_TIME,
            cache_entries: Introspection::DEFAULT_CACHE_ENTRIES,
            cache: Mutex::new(HashMap::new()),
        })
    }
}

impl Introspection {
    /// How long an answer is held at most unless set otherwise.
    pub const DEFAULT_CACHE_TIME: Duration = Duration::from_secs(60);

    /// How many answers are held at most unless set otherwise.
    pub const DEFAULT_CACHE_ENTRIES: usize = 10_000;

    /// How long an answer is held at most (60 s by default; zero: never cached). A token's
    /// answer is never held past its `exp`.
    pub fn with_cache_time(mut self, time: Duration) -> Self {
        self.cache_time = time;
        self
    }

    /// How many answers are held at most (10,000 by default). When full, expired answers are
    /// dropped; if none is, the new answer is not held.
    pub fn with_cache_entries(mut self, entries: usize) -> Self {
        self.cache_entries = entries;
        self
    }

    async fn verify(&self, token: &str) -> Result<UserId, Refusal> {
        let hash: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(verdict) = self.cached(&hash) {
            return verdict;
        }
        let answer: Answer = self
            .settings
            .fetch
            .post_form(
                &self.endpoint,
                &self.client_id,
                self.client_secret.expose_secret(),
                &[("token", token), ("token_type_hint", "access_token")],
            )
            .await
            .map_err(|error| {
                tracing::error!("token introspection failed: {error}");
                Refusal::Unverifiable("the authorization server could not be asked")
            })?;
        let now = unix_now();
        let verdict = self.judge(&answer, now);
        let life = match answer.exp {
            Some(exp) => Duration::from_secs(exp.saturating_sub(now)),
            None => self.cache_time,
        };
        self.hold(hash, &verdict, life.min(self.cache_time));
        verdict
    }

    fn judge(&self, answer: &Answer, now: u64) -> Result<UserId, Refusal> {
        let settings = &*self.settings;
        let leeway = settings.leeway.as_secs();
        if !answer.active {
            return Err(Refusal::InvalidToken("the token is not active"));
        }
        if answer
            .iss
            .as_deref()
            .is_some_and(|iss| iss != settings.issuer)
        {
            return Err(Refusal::InvalidToken(
                "the token is not from this server's issuer",
            ));
        }
        // The answer must say the token is for this resource: an answer silent on `aud`
        // cannot show it (the MCP specification's audience check).
        if !answer
            .aud
            .as_ref()
            .is_some_and(|aud| aud.includes(&settings.resource))
        {
            return Err(Refusal::InvalidToken("the token is not for this server"));
        }
        match answer.exp {
            Some(exp) if exp.saturating_add(leeway) <= now => {
                return Err(Refusal::InvalidToken("the token has expired"));
            }
            Some(_) => {}
            None => return Err(Refusal::InvalidToken("the token has no expiry")),
        }
        if answer
            .nbf
            .is_some_and(|nbf| nbf > now.saturating_add(leeway))
        {
            return Err(Refusal::InvalidToken("the token is not valid yet"));
        }
        let Some(sub) = answer.sub.as_deref() else {
            return Err(Refusal::InvalidToken("the token has no subject"));
        };
        if !answer.scopes.include(&settings.scopes) {
            return Err(Refusal::InsufficientScope);
        }
        UserId::from_issuer_and_subject(&settings.issuer, sub)
            .map_err(|_| Refusal::InvalidToken("the token's subject is empty"))
    }

    fn cached(&self, hash: &[u8; 32]) -> Option<Result<UserId, Refusal>> {
        let cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let cached = cache.get(hash)?;
        (cached.until > Instant::now()).then(|| cached.verdict.clone())
    }

    fn hold(&self, hash: [u8; 32], verdict: &Result<UserId, Refusal>, life: Duration) {
        if life.is_zero() {
            return;
        }
        let now = Instant::now();
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if cache.len() >= self.cache_entries {
            cache.retain(|_, cached| cached.until > now);
        }
        if cache.len() < self.cache_entries || cache.contains_key(&hash) {
            cache.insert(
                hash,
                Cached {
                    verdict: verdict.clone(),
                    until: now + life,
                },
            );
        }
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

impl Authenticate for Introspection {
    async fn authenticate(&self, request: &Parts) -> Result<UserId, Unauthenticated> {
        let challenges = &self.settings.challenges;
        let token = bearer_token(request, challenges)?;
        self.verify(token)
            .await
            .map_err(|refusal| challenges.refuse(refusal))
    }
}

impl std::fmt::Debug for Introspection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .field("cache_time", &self.cache_time)
            .field("cache_entries", &self.cache_entries)
            .finish_non_exhaustive()
    }
}
