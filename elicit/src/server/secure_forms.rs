//! The forms asked on the server's own page ([`Ask::secure`](crate::rmcp::Ask::secure)): what
//! the page shows for each URL-mode elicitation, and the answer it holds for the tool until the
//! tool reads it, once. The client never sees either: only the consent message and the link.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use crate::schema::RequestedSchema;
use crate::server::UserId;
use crate::wire::ElicitationId;

/// Where the server's page for secure forms is, and what it holds: the forms it shows and the
/// answers it took, each bound to the user the elicitation was made for, in this process.
///
/// One value, cloned: give it to the elicitation that asks
/// ([`Elicitation::with_secure_page`](crate::rmcp::Elicitation::with_secure_page), feature
/// `rmcp`) and to the page that shows the forms (`elicit_mcp::page::SecurePage`, feature
/// `page`). A link is the page's address followed by the opaque elicitation id, nothing else.
///
/// ```
/// use elicit_mcp::server::SecureForms;
///
/// let forms = SecureForms::new("https://mcp.example.com/secure").unwrap();
/// assert_eq!(forms.page_url(), "https://mcp.example.com/secure");
/// ```
#[derive(Clone)]
pub struct SecureForms {
    page_url: Arc<str>,
    /// How long a form not answered, or an answer not read, is kept at most.
    keep_for: Duration,
    forms: Arc<Mutex<HashMap<String, Entry>>>,
}

impl fmt::Debug for SecureForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never a form's answers.
        f.debug_struct("SecureForms")
            .field("page_url", &self.page_url)
            .field("held", &self.lock().len())
            .finish()
    }
}

/// Why a page address was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageUrlError {
    url: String,
    why: &'static str,
}

impl fmt::Display for PageUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the secure page's address `{}` {}", self.url, self.why)
    }
}

impl std::error::Error for PageUrlError {}

/// One form on the page, from the moment the tool asks until the tool reads its answer.
struct Entry {
    form: PageForm,
    state: EntryState,
    /// After this the entry is dropped, answered or not.
    until: SystemTime,
}

enum EntryState {
    /// Shown, not yet answered; the CSRF tokens issued to browsers, by browser.
    Open { tokens: Vec<(String, String)> },
    /// Answered on the page; the tool has not read it yet.
    Answered(PageAnswer),
}

/// What the page shows of a form: for whom, the message, its schema and which of its fields are
/// secret.
#[derive(Clone, Debug)]
pub(crate) struct PageForm {
    pub user: UserId,
    pub message: String,
    pub schema: &'static RequestedSchema,
    pub secret_fields: &'static [&'static str],
}

/// What the person did on the page.
pub(crate) enum PageAnswer {
    /// Sent the form: its content, checked against its schema.
    Accepted(Map<String, Value>),
    /// Declined it.
    Declined,
    /// Dismissed it.
    Cancelled,
}

impl fmt::Debug for PageAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PageAnswer::Accepted(_) => "Accepted(..)",
            PageAnswer::Declined => "Declined",
            PageAnswer::Cancelled => "Cancelled",
        })
    }
}

impl Drop for PageAnswer {
    fn drop(&mut self) {
        if let PageAnswer::Accepted(content) = self {
            wipe(content);
        }
    }
}

/// Overwrites the strings of held content before their memory is freed.
fn wipe(content: &mut Map<String, Value>) {
    use zeroize::Zeroize as _;
    for value in content.values_mut() {
        match value {
            Value::String(text) => text.zeroize(),
            Value::Array(items) => {
                for item in items {
                    if let Value::String(text) = item {
                        text.zeroize();
                    }
                }
            }
            _ => {}
        }
    }
}

/// Why the page could not take an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotTaken {
    /// No such form here: never asked, read already, or dropped after its time.
    Unknown,
    /// The form is another user's.
    OtherUser,
    /// The form was answered already.
    AlreadyAnswered,
}

impl SecureForms {
    /// How long a form or an answer is kept at most, unless
    /// [`with_keep_for`](Self::with_keep_for) says otherwise: longer than an elicitation lives,
    /// so the tracker's expiry decides first.
    pub const DEFAULT_KEEP_FOR: Duration = Duration::from_secs(60 * 60);

    /// The forms of the page at `page_url`, the address where the page is mounted (an
    /// absolute `http` or `https` URL without a query or fragment; a trailing `/` is dropped).
    pub fn new(page_url: impl Into<String>) -> Result<Self, PageUrlError> {
        let url: String = page_url.into();
        let refuse = |why| {
            Err(PageUrlError {
                url: url.clone(),
                why,
            })
        };
        let Ok(parsed) = url::Url::parse(&url) else {
            return refuse("is not an absolute URL");
        };
        if !matches!(parsed.scheme(), "http" | "https") {
            return refuse("is not http or https");
        }
        if parsed.query().is_some() || parsed.fragment().is_some() {
            return refuse("has a query or a fragment; the link adds only the elicitation id");
        }
        Ok(SecureForms {
            page_url: url.trim_end_matches('/').into(),
            keep_for: Self::DEFAULT_KEEP_FOR,
            forms: Arc::default(),
        })
    }

    /// Keeps a form not answered, or an answer not read, at most `keep_for` (set it before
    /// handing out clones: each clone keeps the time it was made with).
    pub fn with_keep_for(mut self, keep_for: Duration) -> Self {
        self.keep_for = keep_for;
        self
    }

    /// The page's address.
    pub fn page_url(&self) -> &str {
        &self.page_url
    }

    /// The link to the form of elicitation `id`.
    pub(crate) fn link(&self, id: &ElicitationId) -> String {
        format!("{}/{id}", self.page_url)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.forms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts the form of elicitation `id` on the page, and drops what outlived its time.
    pub(crate) fn open(&self, id: &ElicitationId, form: PageForm, now: SystemTime) {
        let mut forms = self.lock();
        forms.retain(|_, entry| entry.until > now);
        let entry = Entry {
            form,
            state: EntryState::Open { tokens: Vec::new() },
            until: now + self.keep_for,
        };
        forms.insert(id.as_str().to_owned(), entry);
    }

    /// The form the page shows for `id`, if it is still open: whether it is `user`'s is for the
    /// caller to check against [`PageForm::user`].
    pub(crate) fn showing(&self, id: &str, now: SystemTime) -> Option<PageForm> {
        let forms = self.lock();
        let entry = forms.get(id).filter(|entry| entry.until > now)?;
        match entry.state {
            EntryState::Open { .. } => Some(entry.form.clone()),
            EntryState::Answered(_) => None,
        }
    }

    /// The CSRF token of the form `id` for the browser `browser`: the one issued before, or
    /// `fresh` (random, from the caller), kept for the answer to show.
    pub(crate) fn token_for(&self, id: &str, browser: &str, fresh: String) -> Option<String> {
        let mut forms = self.lock();
        let EntryState::Open { tokens } = &mut forms.get_mut(id)?.state else {
            return None;
        };
        if let Some((_, token)) = tokens.iter().find(|(known, _)| known == browser) {
            return Some(token.clone());
        }
        tokens.push((browser.to_owned(), fresh.clone()));
        Some(fresh)
    }

    /// Whether `token` is the one issued to `browser` for the form `id`.
    pub(crate) fn token_matches(&self, id: &str, browser: &str, token: &str) -> bool {
        let forms = self.lock();
        let Some(Entry {
            state: EntryState::Open { tokens },
            ..
        }) = forms.get(id)
        else {
            return false;
        };
        tokens
            .iter()
            .any(|(known, issued)| known == browser && same_text(issued, token))
    }

    /// Holds `answer` to the form `id` of `user`, once: a form answered already is not
    /// answered again.
    pub(crate) fn answer(
        &self,
        id: &str,
        user: &UserId,
        answer: PageAnswer,
        now: SystemTime,
    ) -> Result<(), NotTaken> {
        let mut forms = self.lock();
        let entry = forms
            .get_mut(id)
            .filter(|entry| entry.until > now)
            .ok_or(NotTaken::Unknown)?;
        if entry.form.user != *user {
            return Err(NotTaken::OtherUser);
        }
        if matches!(entry.state, EntryState::Answered(_)) {
            return Err(NotTaken::AlreadyAnswered);
        }
        entry.state = EntryState::Answered(answer);
        Ok(())
    }

    /// The answer to the form `id` of `user`, taken: it is held no longer.
    pub(crate) fn take(&self, id: &str, user: &UserId) -> Option<PageAnswer> {
        let mut forms = self.lock();
        let entry = forms.get(id)?;
        if entry.form.user != *user || !matches!(entry.state, EntryState::Answered(_)) {
            return None;
        }
        match forms.remove(id)?.state {
            EntryState::Answered(answer) => Some(answer),
            EntryState::Open { .. } => None,
        }
    }

    /// Drops the form `id`, answered or not: the ask that made it ended another way.
    pub(crate) fn forget(&self, id: &str) {
        self.lock().remove(id);
    }
}

/// Compares two tokens in a time that does not depend on where they differ.
fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |differ, (x, y)| differ | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::RequestedSchema;

    fn schema() -> &'static RequestedSchema {
        static SCHEMA: std::sync::OnceLock<RequestedSchema> = std::sync::OnceLock::new();
        SCHEMA.get_or_init(|| {
            serde_json::from_str(r#"{"type":"object","properties":{"key":{"type":"string"}}}"#)
                .unwrap()
        })
    }

    fn user(name: &str) -> UserId {
        UserId::from_verified_subject(name).unwrap()
    }

    fn form(name: &str) -> PageForm {
        PageForm {
            user: user(name),
            message: "Connect".to_owned(),
            schema: schema(),
            secret_fields: &["key"],
        }
    }

    fn accepted(key: &str) -> PageAnswer {
        let mut content = Map::new();
        content.insert("key".to_owned(), Value::from(key));
        PageAnswer::Accepted(content)
    }

    #[test]
    fn a_page_address_is_absolute_and_adds_only_the_id() {
        let forms = SecureForms::new("http://127.0.0.1:3000/secure/").unwrap();
        assert_eq!(
            forms.link(&ElicitationId::new("abc")),
            "http://127.0.0.1:3000/secure/abc"
        );
        for (url, why) in [
            ("/secure", "is not an absolute URL"),
            ("ftp://example.com/secure", "is not http or https"),
            (
                "https://example.com/secure?x=1",
                "has a query or a fragment; the link adds only the elicitation id",
            ),
        ] {
            assert_eq!(
                SecureForms::new(url).unwrap_err().to_string(),
                format!("the secure page's address `{url}` {why}")
            );
        }
    }

    #[test]
    fn an_answer_is_taken_once_by_its_user_and_given_once() {
        let forms = SecureForms::new("https://example.com/secure").unwrap();
        let now = SystemTime::now();
        let id = ElicitationId::new("e1");
        forms.open(&id, form("alice"), now);
        assert!(forms.showing("e1", now).is_some());
        assert_eq!(
            forms.answer("e1", &user("mallory"), accepted("x"), now),
            Err(NotTaken::OtherUser)
        );
        assert_eq!(
            forms.answer("e1", &user("alice"), accepted("k"), now),
            Ok(())
        );
        assert!(forms.showing("e1", now).is_none(), "no form once answered");
        assert_eq!(
            forms.answer("e1", &user("alice"), accepted("again"), now),
            Err(NotTaken::AlreadyAnswered)
        );
        assert!(forms.take("e1", &user("mallory")).is_none());
        let Some(PageAnswer::Accepted(ref content)) = forms.take("e1", &user("alice")) else {
            panic!("the answer is held")
        };
        assert_eq!(content["key"], "k");
        assert!(forms.take("e1", &user("alice")).is_none(), "taken once");
        assert_eq!(
            forms.answer("nope", &user("alice"), PageAnswer::Declined, now),
            Err(NotTaken::Unknown)
        );
    }

    #[test]
    fn tokens_are_per_browser_and_forms_expire() {
        let forms = SecureForms::new("https://example.com/secure")
            .unwrap()
            .with_keep_for(Duration::from_secs(60));
        let now = SystemTime::now();
        forms.open(&ElicitationId::new("e1"), form("alice"), now);
        let token = forms.token_for("e1", "b1", "t1".to_owned()).unwrap();
        assert_eq!(forms.token_for("e1", "b1", "t2".to_owned()).unwrap(), token);
        assert!(forms.token_matches("e1", "b1", "t1"));
        assert!(!forms.token_matches("e1", "b2", "t1"));
        assert!(!forms.token_matches("e1", "b1", "t2"));
        let later = now + Duration::from_secs(61);
        assert!(forms.showing("e1", later).is_none());
        forms.open(&ElicitationId::new("e2"), form("alice"), later);
        assert!(
            forms.token_for("e1", "b1", "t3".to_owned()).is_none(),
            "dropped"
        );
    }

    #[test]
    fn debug_never_shows_an_answer() {
        let forms = SecureForms::new("https://example.com/secure").unwrap();
        let now = SystemTime::now();
        forms.open(&ElicitationId::new("e1"), form("alice"), now);
        forms
            .answer("e1", &user("alice"), accepted("sk-very-secret"), now)
            .unwrap();
        let shown = format!("{forms:?} {:?}", accepted("sk-very-secret"));
        assert!(!shown.contains("sk-very-secret"), "{shown}");
    }
}
