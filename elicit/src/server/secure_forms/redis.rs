//! The page's forms and answers in Redis, shared by the replicas: a form opened by the replica
//! that asks is shown, answered and read on any other. An answer is held sealed
//! (XChaCha20-Poly1305 under the [`AtRestKeys`], bound to its elicitation and user), so Redis
//! alone reads nothing of it; each form lives no longer than its time to live, and the tool's
//! read takes the answer and deletes the form in one step.

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use ::redis::Script;
use serde::{Deserialize, Serialize};

use super::{NotTaken, PageAnswer, PageForm, Showing, same_text};
use crate::schema::RequestedSchema;
use crate::server::{AtRestKeys, RedisStore, StoreError, UserId, bound_to};

/// The field of the form's hash that holds the answer, once given.
const ANSWER: &str = "answer";

/// Issues the CSRF token of one browser, or gives the one issued before, while the form is
/// open. KEYS: the form. ARGV: the browser's field, a fresh token.
const TOKEN_SCRIPT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'answer') == 1 then
    return false
end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HGET', KEYS[1], ARGV[1])
";

/// Holds the answer of the form's own user, once. KEYS: the form. ARGV: the user's hash, the
/// sealed answer. Returns 0 unknown, 1 another user's, 2 answered already, 3 held (also when
/// the answer held is this very one, sealed under its own random nonce: this call, resent
/// by the client crate after a dropped connection).
const ANSWER_SCRIPT: &str = r"
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then return 0 end
if owner ~= ARGV[1] then return 1 end
if redis.call('HSETNX', KEYS[1], 'answer', ARGV[2]) == 0 then
    if redis.call('HGET', KEYS[1], 'answer') == ARGV[2] then return 3 end
    return 2
end
return 3
";

/// Takes the answer of the form's own user and deletes the form, in one step: read once. The
/// sealed answer taken is kept a while under the second key (the form's hash tag) with the
/// call's token, so the same call resent gets it again. KEYS: the form, the taken key. ARGV:
/// the user's hash, the call's token, how long to keep what was taken in ms.
const TAKE_SCRIPT: &str = r"
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
    if redis.call('HGET', KEYS[2], 'by') == ARGV[2] then
        return redis.call('HGET', KEYS[2], 'answer')
    end
    return false
end
local answer = redis.call('HGET', KEYS[1], 'answer')
if not answer then return false end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[2], 'by', ARGV[2], 'answer', answer)
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return answer
";

/// How long a taken answer (sealed) is kept for the same call resent.
const TAKEN_KEPT_MS: u64 = 60_000;

/// The forms of a page, in a [`RedisStore`].
#[derive(Clone)]
pub(super) struct RedisForms {
    store: RedisStore,
    keys: AtRestKeys,
}

/// What Redis holds of a form to show it: nothing secret.
#[derive(Serialize, Deserialize)]
struct StoredForm<'a> {
    message: Cow<'a, str>,
    schema: Cow<'a, RequestedSchema>,
    secret_fields: Vec<Cow<'static, str>>,
    /// Left out by a build before the page ran a form's own reading: no reading is found.
    #[serde(default)]
    form_type: Cow<'a, str>,
}

impl RedisForms {
    pub fn new(store: RedisStore, keys: AtRestKeys) -> Self {
        RedisForms { store, keys }
    }

    fn key(&self, id: &str) -> String {
        self.store.hashed_key("p", id)
    }

    pub async fn open(
        &self,
        id: &str,
        user: &UserId,
        form: &PageForm,
        keep: Duration,
    ) -> Result<(), StoreError> {
        let stored = StoredForm {
            message: Cow::Borrowed(&form.message),
            schema: Cow::Borrowed(&form.schema),
            secret_fields: form.secret_fields.clone(),
            form_type: Cow::Borrowed(&form.form_type),
        };
        let stored = serde_json::to_string(&stored)
            .map_err(|e| StoreError::new(format!("a form could not be stored: {e}")))?;
        let key = self.key(id);
        ::redis::pipe()
            .atomic()
            .del(&key)
            .hset_multiple(&key, &[("owner", owner(user)), ("form", stored)])
            .pexpire(&key, millis(keep))
            .query_async::<()>(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)
    }

    pub async fn showing(&self, id: &str, user: &UserId) -> Result<Showing, StoreError> {
        let key = self.key(id);
        let ((held_by, form), answered): ((Option<String>, Option<String>), bool) = ::redis::pipe()
            .cmd("HMGET")
            .arg(&key)
            .arg("owner")
            .arg("form")
            .cmd("HEXISTS")
            .arg(&key)
            .arg(ANSWER)
            .query_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)?;
        let (Some(held_by), Some(form), false) = (held_by, form, answered) else {
            return Ok(Showing::Gone);
        };
        if held_by != owner(user) {
            return Ok(Showing::NotYours);
        }
        read_form(&form).map(Showing::Form)
    }

    pub async fn token_for(
        &self,
        id: &str,
        browser: &str,
        fresh: String,
    ) -> Result<Option<String>, StoreError> {
        Script::new(TOKEN_SCRIPT)
            .key(self.key(id))
            .arg(browser_field(browser))
            .arg(fresh)
            .invoke_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)
    }

    pub async fn token_matches(
        &self,
        id: &str,
        browser: &str,
        token: &str,
    ) -> Result<bool, StoreError> {
        let (issued, answer): (Option<String>, Option<String>) = ::redis::cmd("HMGET")
            .arg(self.key(id))
            .arg(browser_field(browser))
            .arg(ANSWER)
            .query_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)?;
        Ok(answer.is_none() && issued.is_some_and(|issued| same_text(&issued, token)))
    }

    pub async fn answer(
        &self,
        id: &str,
        user: &UserId,
        answer: &PageAnswer,
        keep: Duration,
    ) -> Result<(), NotTaken> {
        let mut nonce = [0u8; 24];
        let sealed = getrandom::fill(&mut nonce)
            .map_err(|e| StoreError::new(format!("no randomness to seal an answer: {e}")))
            .and_then(|()| {
                self.keys
                    .answers
                    .seal_json(answer, &binding(id, user), keep, nonce)
                    .map_err(|e| StoreError::new(format!("an answer could not be held: {e}")))
            });
        let held: u8 = Script::new(ANSWER_SCRIPT)
            .key(self.key(id))
            .arg(owner(user))
            .arg(sealed?)
            .invoke_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)?;
        match held {
            3 => Ok(()),
            2 => Err(NotTaken::AlreadyAnswered),
            1 => Err(NotTaken::OtherUser),
            _ => Err(NotTaken::Unknown),
        }
    }

    pub async fn take(&self, id: &str, user: &UserId) -> Result<Option<PageAnswer>, StoreError> {
        let sealed: Option<String> = Script::new(TAKE_SCRIPT)
            .key(self.key(id))
            .key(self.store.hashed_key("q", id))
            .arg(owner(user))
            .arg(RedisStore::call_token()?)
            .arg(TAKEN_KEPT_MS)
            .invoke_async(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)?;
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        let plaintext = self
            .keys
            .answers
            .open(&sealed, &binding(id, user), SystemTime::now())
            .map_err(|_| {
                StoreError::new(
                    "a held answer does not open: sealed with a key no longer in the keyring, \
                     or expired",
                )
            })?;
        serde_json::from_slice(&plaintext)
            .map(Some)
            .map_err(|e| StoreError::new(format!("a held answer could not be read: {e}")))
    }

    pub async fn forget(&self, id: &str) -> Result<(), StoreError> {
        ::redis::cmd("DEL")
            .arg(self.key(id))
            .query_async::<()>(&mut self.store.connection())
            .await
            .map_err(RedisStore::error)
    }
}

/// A form as Redis holds it (`open` wrote it), read back.
pub(crate) fn read_form(stored: &str) -> Result<PageForm, StoreError> {
    let stored: StoredForm<'static> = serde_json::from_str(stored)
        .map_err(|e| StoreError::new(format!("a stored form could not be read: {e}")))?;
    Ok(PageForm {
        message: stored.message.into_owned(),
        schema: stored.schema,
        secret_fields: stored.secret_fields,
        form_type: stored.form_type,
    })
}

/// Who a form is for, as Redis holds it: a hash of the user id.
fn owner(user: &UserId) -> String {
    RedisStore::hashed(user.as_str())
}

/// The hash field of one browser's CSRF token.
fn browser_field(browser: &str) -> String {
    format!("t:{}", RedisStore::hashed(browser))
}

/// What an answer is bound to: its elicitation and its user, so that a sealed answer moved to
/// another form does not open.
fn binding(id: &str, user: &UserId) -> Vec<u8> {
    bound_to(&[id, user.as_str()])
}

/// A time to live in milliseconds, at least 1: `PEXPIRE` takes no 0.
fn millis(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX).max(1)
}
