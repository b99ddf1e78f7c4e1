//! Ask once, use later: what a user gave a tool once (an API key from the secure page), kept
//! by user and name, so that the next call finds it and does not ask again; and a way to
//! forget it.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use crate::Secret;
use crate::server::{StoreError, UserId, ends_at};

/// The time to live a credential is kept for, as errors name it: one too large to add to the
/// current time is refused by every store.
pub(crate) const CREDENTIAL_TTL: &str = "the time to live of a credential";

/// Where a server keeps the credentials its users gave it, each under the user and a name of
/// the server's choosing (`"calendar"`), for at most a time to live. Implemented in memory by
/// [`MemoryCredentials`], and in Redis, encrypted at rest, by `RedisCredentials` (feature
/// `redis`).
///
/// ```
/// use std::time::Duration;
/// use elicit_mcp::Secret;
/// use elicit_mcp::server::{CredentialStore, MemoryCredentials, UserId};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let credentials = MemoryCredentials::new();
/// let alice = UserId::from_verified_subject("alice").unwrap();
/// let day = Duration::from_secs(24 * 60 * 60);
/// let key = Secret::new("sk-live-123".to_owned());
/// credentials.keep(&alice, "calendar", &key, day).await.unwrap();
/// let found = credentials.find(&alice, "calendar").await.unwrap().expect("kept");
/// assert_eq!(found.expose_secret(), "sk-live-123");
/// assert!(credentials.forget(&alice, "calendar").await.unwrap());
/// assert!(credentials.find(&alice, "calendar").await.unwrap().is_none());
/// # });
/// ```
pub trait CredentialStore: Send + Sync {
    /// Keeps `secret` as `user`'s credential `name` for `ttl`, in place of any kept before. A
    /// `ttl` that cannot be added to the current time ([`TtlTooLarge`](crate::server::TtlTooLarge):
    /// `Duration::MAX`, say) is refused, and nothing kept.
    fn keep(
        &self,
        user: &UserId,
        name: &str,
        secret: &Secret<String>,
        ttl: Duration,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// `user`'s credential `name`, if one is kept and has not expired.
    fn find(
        &self,
        user: &UserId,
        name: &str,
    ) -> impl Future<Output = Result<Option<Secret<String>>, StoreError>> + Send;

    /// Forgets `user`'s credential `name`; `true` when one was kept.
    fn forget(
        &self,
        user: &UserId,
        name: &str,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
}

/// Credentials in this process's memory: for a server of one process. Each is wiped from memory
/// when it is forgotten, replaced or dropped.
#[derive(Default)]
pub struct MemoryCredentials {
    kept: Mutex<HashMap<(String, String), Kept>>,
}

struct Kept {
    secret: Secret<String>,
    until: SystemTime,
}

impl fmt::Debug for MemoryCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryCredentials")
            .field("kept", &self.lock().len())
            .finish()
    }
}

impl MemoryCredentials {
    /// No credentials yet.
    pub fn new() -> Self {
        MemoryCredentials::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<(String, String), Kept>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn key_of(user: &UserId, name: &str) -> (String, String) {
    (user.as_str().to_owned(), name.to_owned())
}

impl CredentialStore for MemoryCredentials {
    async fn keep(
        &self,
        user: &UserId,
        name: &str,
        secret: &Secret<String>,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let now = SystemTime::now();
        let until = ends_at(now, ttl, CREDENTIAL_TTL).map_err(StoreError::new)?;
        let mut kept = self.lock();
        kept.retain(|_, kept| kept.until > now);
        kept.insert(
            key_of(user, name),
            Kept {
                secret: Secret::new(secret.expose_secret().clone()),
                until,
            },
        );
        Ok(())
    }

    async fn find(&self, user: &UserId, name: &str) -> Result<Option<Secret<String>>, StoreError> {
        let now = SystemTime::now();
        let kept = self.lock();
        Ok(kept
            .get(&key_of(user, name))
            .filter(|kept| kept.until > now)
            .map(|kept| Secret::new(kept.secret.expose_secret().clone())))
    }

    async fn forget(&self, user: &UserId, name: &str) -> Result<bool, StoreError> {
        let now = SystemTime::now();
        Ok(self
            .lock()
            .remove(&key_of(user, name))
            .is_some_and(|kept| kept.until > now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(name: &str) -> UserId {
        UserId::from_verified_subject(name).unwrap()
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_credential_is_each_user_s_own_and_expires() {
        block_on(async {
            let credentials = MemoryCredentials::new();
            let secret = Secret::new("sk-1".to_owned());
            credentials
                .keep(&user("alice"), "calendar", &secret, Duration::from_secs(60))
                .await
                .unwrap();
            assert!(
                credentials
                    .find(&user("bob"), "calendar")
                    .await
                    .unwrap()
                    .is_none()
            );
            assert!(
                credentials
                    .find(&user("alice"), "mail")
                    .await
                    .unwrap()
                    .is_none()
            );
            credentials
                .keep(&user("alice"), "mail", &secret, Duration::ZERO)
                .await
                .unwrap();
            assert!(
                credentials
                    .find(&user("alice"), "mail")
                    .await
                    .unwrap()
                    .is_none(),
                "expired at once"
            );
            assert!(!credentials.forget(&user("bob"), "calendar").await.unwrap());
            assert!(!format!("{credentials:?}").contains("sk-1"));
        });
    }

    /// A time to live past what the clock can hold is refused with an error naming it, not a
    /// panic, and nothing is kept.
    #[test]
    fn a_time_to_live_past_the_clock_is_refused() {
        block_on(async {
            let credentials = MemoryCredentials::new();
            let secret = Secret::new("sk-1".to_owned());
            for huge in [Duration::MAX, Duration::from_secs(u64::MAX)] {
                let refused = credentials
                    .keep(&user("alice"), "calendar", &secret, huge)
                    .await
                    .unwrap_err()
                    .to_string();
                assert!(
                    refused.contains(
                        "the time to live of a credential (18446744073709551615 s) is too large"
                    ),
                    "{refused}"
                );
            }
            assert!(
                credentials
                    .find(&user("alice"), "calendar")
                    .await
                    .unwrap()
                    .is_none()
            );
        });
    }
}
