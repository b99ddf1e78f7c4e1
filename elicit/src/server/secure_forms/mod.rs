//! The forms asked on the server's own page ([`Ask::secure`](crate::rmcp::Ask::secure)): what
//! the page shows for each URL-mode elicitation, and the answer it holds for the tool until the
//! tool reads it, once. The client never sees either: only the consent message and the link.
//! Held in this process (`memory`), or in Redis for replicas (`redis`, feature `redis`).

mod checks;
mod memory;
#[cfg(feature = "redis")]
pub(crate) mod redis;

use std::borrow::Cow;
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub(crate) use self::checks::FormCheck;
use self::checks::FormChecks;
use self::memory::MemoryForms;
use crate::Elicit;
use crate::schema::RequestedSchema;
use crate::server::debug_as_message;
use crate::server::{StoreError, TtlTooLarge, UserId, checked_ttl, unreachable};
use crate::wire::ElicitationId;

/// Where the server's page for secure forms is, and what it holds: the forms it shows and the
/// answers it took, each bound to the user the elicitation was made for.
///
/// One value, cloned: give it to the elicitation that asks
/// ([`Elicitation::with_secure_page`](crate::rmcp::Elicitation::with_secure_page), feature
/// `rmcp`) and to the page that shows the forms (`elicit_mcp::page::SecurePage`, feature
/// `page`). A link is the page's address followed by the opaque elicitation id, nothing else.
/// [`new`](Self::new) holds them in this process; `in_redis` (feature `redis`) in Redis, for a
/// server of several replicas, each answer sealed at rest.
///
/// The page's address is its public URL ([`new`](Self::new)), or, for a development server on
/// loopback, the address its listener was bound to ([`on`](Self::on)), known with its port
/// once bound (port 0 included):
///
/// ```
/// use elicit_mcp::server::SecureForms;
///
/// let forms = SecureForms::new("https://mcp.example.com/secure").unwrap();
/// assert_eq!(forms.page_url(), "https://mcp.example.com/secure");
///
/// let bound = "127.0.0.1:49152".parse().unwrap(); // `listener.local_addr()?`
/// let forms = SecureForms::on(bound).unwrap();
/// assert_eq!(forms.page_url(), "http://127.0.0.1:49152/secure");
/// ```
#[derive(Clone)]
pub struct SecureForms {
    page_url: Arc<str>,
    /// The path of `page_url`, where the page's routes are.
    page_path: Arc<str>,
    /// How long a form not answered, or an answer not read, is kept at most.
    keep_for: Duration,
    held: Held,
    checks: FormChecks,
}

/// Where the forms and answers are.
#[derive(Clone)]
enum Held {
    Memory(Arc<MemoryForms>),
    #[cfg(feature = "redis")]
    Redis(Arc<redis::RedisForms>),
}

impl fmt::Debug for SecureForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never a form's answers.
        let mut debug = f.debug_struct("SecureForms");
        debug.field("page_url", &self.page_url);
        match &self.held {
            Held::Memory(forms) => debug.field("held", &forms.len()),
            #[cfg(feature = "redis")]
            Held::Redis(_) => debug.field("held", &"in Redis"),
        };
        debug.finish()
    }
}

/// Why a page address was refused.
#[derive(Clone, PartialEq, Eq)]
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

debug_as_message!(PageUrlError);

/// What the page shows of a form: the message, its schema and which of its fields are secret;
/// and the form's Rust type, whose own reading the page runs where this process knows it.
#[derive(Clone, Debug)]
pub(crate) struct PageForm {
    pub message: String,
    pub schema: Cow<'static, RequestedSchema>,
    pub secret_fields: Vec<Cow<'static, str>>,
    pub form_type: Cow<'static, str>,
}

impl PageForm {
    /// Form `T` as the page shows it, with `message` as its heading.
    pub(crate) fn of<T: Elicit>(message: String) -> Self {
        PageForm {
            message,
            schema: Cow::Borrowed(T::requested_schema()),
            secret_fields: T::SECRET_FIELDS
                .iter()
                .copied()
                .map(Cow::Borrowed)
                .collect(),
            form_type: Cow::Borrowed(std::any::type_name::<T>()),
        }
    }
}

/// Whether the page may show a form to a user.
#[derive(Debug)]
pub(crate) enum Showing {
    /// The user's, open: this.
    Form(PageForm),
    /// Another user's.
    NotYours,
    /// No such form open: never asked, answered already, or dropped after its time.
    Gone,
}

/// What the person did on the page.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
            wipe_content(content);
        }
    }
}

/// Overwrites the strings of form content before their memory is freed.
pub(crate) fn wipe_content(content: &mut Map<String, Value>) {
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

/// Where [`SecureForms::on`] puts the page on its address.
const PAGE_PATH_ON_ADDRESS: &str = "/secure";

/// The time to live of a held form, as errors name it.
const KEEP_FOR: &str = "the time the secure page keeps a form (`SecureForms::with_keep_for`)";

/// Why the page could not take an answer.
#[derive(Debug)]
pub(crate) enum NotTaken {
    /// No such form here: never asked, read already, or dropped after its time.
    Unknown,
    /// The form is another user's.
    OtherUser,
    /// The form was answered already.
    AlreadyAnswered,
    /// The store could not be reached, or failed: nothing was held, and the page says to try
    /// again (it tells a browser nothing of the store).
    Store,
}

impl From<StoreError> for NotTaken {
    fn from(_: StoreError) -> Self {
        NotTaken::Store
    }
}

impl SecureForms {
    /// How long a form or an answer is kept at most, unless
    /// [`with_keep_for`](Self::with_keep_for) says otherwise: longer than an elicitation lives,
    /// so the tracker's expiry decides first.
    pub const DEFAULT_KEEP_FOR: Duration = Duration::from_secs(60 * 60);

    /// The forms of the page at `page_url`, the address where the page is mounted (an
    /// absolute `http` or `https` URL without a query, fragment or credentials; a trailing `/`
    /// is dropped), held in this process: for a server of one process. The address is where
    /// browsers open the page, so it must be reachable: not port 0, not the unspecified
    /// address (`0.0.0.0`, `[::]`); behind a proxy, the proxy's public URL. With `oauth`, the
    /// page at the MCP server's own origin is
    /// `format!("{}/secure", resource.public_origin())` (`ProtectedResource::public_origin`).
    pub fn new(page_url: impl Into<String>) -> Result<Self, PageUrlError> {
        Self::held(page_url.into(), Held::Memory(Arc::default()))
    }

    /// The forms of the page at `http://ADDRESS/secure`, `address` the one a listener was
    /// bound to (`listener.local_addr()?`), held in this process: for a development server on
    /// a loopback address, beside
    /// [`DevelopmentLogin::on(address)`](crate::page::DevelopmentLogin::on).
    /// Any other address is refused, the unspecified one (`0.0.0.0`, `[::]`) among them: over
    /// http, the page's answers, secrets among them, would cross the network unencrypted;
    /// give the public `https` URL to [`new`](Self::new) instead.
    pub fn on(address: SocketAddr) -> Result<Self, PageUrlError> {
        let url = format!("http://{address}{PAGE_PATH_ON_ADDRESS}");
        if address.ip().is_loopback() {
            return Self::new(url);
        }
        let why = if address.ip().is_unspecified() {
            "is on the unspecified address (a listener's on every interface), which no browser \
             can open; give the server's public https URL to `SecureForms::new`"
        } else {
            "is not on a loopback address, and over http the page's answers would cross the \
             network unencrypted; give the server's public https URL to `SecureForms::new`"
        };
        Err(PageUrlError { url, why })
    }

    /// The forms of the page at `page_url` (as for [`new`](Self::new)), held in `store`'s
    /// Redis under its prefix, so that any replica shows, takes and reads them: each answer
    /// sealed with `keys` (XChaCha20-Poly1305, bound to its elicitation and user), each form
    /// kept no longer than [`with_keep_for`](Self::with_keep_for) says, and deleted when the
    /// tool reads its answer.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn in_redis(
        page_url: impl Into<String>,
        store: &crate::server::RedisStore,
        keys: crate::server::AtRestKeys,
    ) -> Result<Self, PageUrlError> {
        let forms = redis::RedisForms::new(store.clone(), keys);
        Self::held(page_url.into(), Held::Redis(Arc::new(forms)))
    }

    fn held(url: String, held: Held) -> Result<Self, PageUrlError> {
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
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return refuse("has credentials in it, which every link would carry");
        }
        if let Some(why) = unreachable(&parsed) {
            return refuse(why);
        }
        Ok(SecureForms {
            page_url: url.trim_end_matches('/').into(),
            page_path: parsed.path().trim_end_matches('/').into(),
            keep_for: Self::DEFAULT_KEEP_FOR,
            held,
            checks: FormChecks::default(),
        })
    }

    /// Lets the page read an answer to form `T` as `T::from_content` does before it takes it,
    /// on this process, so that a rule the field's type adds beyond the schema (a `url::Url`
    /// the WHATWG URL Standard refuses, a `jiff::Timestamp` past jiff's last) is shown beside
    /// the field rather than failing the tool's read after the page said it was sent.
    ///
    /// [`Ask::secure`](crate::rmcp::Ask::secure) does this for each form it asks, so a server
    /// of one process needs nothing more. A replica that may show the page of a form it never
    /// asked (several replicas in Redis, [`in_redis`](Self::in_redis)) names its secure forms
    /// here; one it does not know is checked by its schema alone, and logged.
    ///
    /// ```
    /// use elicit_mcp::{Elicit, Secret};
    /// use elicit_mcp::server::SecureForms;
    ///
    /// #[derive(Elicit)]
    /// #[elicit(message = "Connect your calendar")]
    /// struct CalendarKey {
    ///     api_key: Secret<String>,
    /// }
    ///
    /// let forms = SecureForms::new("https://mcp.example.com/secure")
    ///     .unwrap()
    ///     .with_form::<CalendarKey>();
    /// ```
    #[must_use]
    pub fn with_form<T: Elicit>(self) -> Self {
        self.checks.learn::<T>();
        self
    }

    /// Knows form `T` from now on (every clone does): it is about to be asked.
    pub(crate) fn learn<T: Elicit>(&self) {
        self.checks.learn::<T>();
    }

    /// The own reading of the form `form`, where this process knows it.
    pub(crate) fn check_of(&self, form: &PageForm) -> Option<FormCheck> {
        self.checks.find(&form.form_type, &form.schema)
    }

    /// Keeps a form not answered, or an answer not read, at most `keep_for` (set it before
    /// handing out clones: each clone keeps the time it was made with). Refuses a `keep_for`
    /// that cannot be added to the current time (`Duration::MAX`, say), which no form could be
    /// kept for.
    pub fn with_keep_for(mut self, keep_for: Duration) -> Result<Self, TtlTooLarge> {
        self.keep_for = checked_ttl(keep_for, KEEP_FOR)?;
        Ok(self)
    }

    /// The page's address.
    pub fn page_url(&self) -> &str {
        &self.page_url
    }

    /// The path of the page's address, without a trailing `/` (empty for a page at the root).
    pub(crate) fn page_path(&self) -> &str {
        &self.page_path
    }

    /// The link to the form of elicitation `id`.
    pub(crate) fn link(&self, id: &ElicitationId) -> String {
        format!("{}/{id}", self.page_url)
    }

    /// Puts the form of elicitation `id` on the page for `user`, and drops what outlived its
    /// time.
    pub(crate) async fn open(
        &self,
        id: &ElicitationId,
        user: &UserId,
        form: PageForm,
        now: SystemTime,
    ) -> Result<(), StoreError> {
        match &self.held {
            Held::Memory(forms) => forms
                .open(id.as_str(), user, form, now, self.keep_for)
                .map_err(StoreError::new),
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.open(id.as_str(), user, &form, self.keep_for).await,
        }
    }

    /// Whether the page may show the form `id` to `user`, and what.
    pub(crate) async fn showing(
        &self,
        id: &str,
        user: &UserId,
        now: SystemTime,
    ) -> Result<Showing, StoreError> {
        match &self.held {
            Held::Memory(forms) => Ok(forms.showing(id, user, now)),
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.showing(id, user).await,
        }
    }

    /// The CSRF token of the form `id` for the browser `browser`: the one issued before, or
    /// `fresh` (random, from the caller), kept for the answer to show; `None` when the form is
    /// not open.
    pub(crate) async fn token_for(
        &self,
        id: &str,
        browser: &str,
        fresh: String,
    ) -> Result<Option<String>, StoreError> {
        match &self.held {
            Held::Memory(forms) => Ok(forms.token_for(id, browser, fresh)),
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.token_for(id, browser, fresh).await,
        }
    }

    /// Whether `token` is the one issued to `browser` for the open form `id`.
    pub(crate) async fn token_matches(
        &self,
        id: &str,
        browser: &str,
        token: &str,
    ) -> Result<bool, StoreError> {
        match &self.held {
            Held::Memory(forms) => Ok(forms.token_matches(id, browser, token)),
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.token_matches(id, browser, token).await,
        }
    }

    /// Holds `answer` to the form `id` of `user`, once: a form answered already is not
    /// answered again.
    pub(crate) async fn answer(
        &self,
        id: &str,
        user: &UserId,
        answer: PageAnswer,
        now: SystemTime,
    ) -> Result<(), NotTaken> {
        match &self.held {
            Held::Memory(forms) => forms.answer(id, user, answer, now),
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.answer(id, user, &answer, self.keep_for).await,
        }
    }

    /// The answer to the form `id` of `user`, taken: it is held no longer.
    pub(crate) async fn take(
        &self,
        id: &str,
        user: &UserId,
    ) -> Result<Option<PageAnswer>, StoreError> {
        match &self.held {
            Held::Memory(forms) => Ok(forms.take(id, user)),
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.take(id, user).await,
        }
    }

    /// Drops the form `id`, answered or not: the ask that made it ended another way.
    pub(crate) async fn forget(&self, id: &str) -> Result<(), StoreError> {
        match &self.held {
            Held::Memory(forms) => {
                forms.forget(id);
                Ok(())
            }
            #[cfg(feature = "redis")]
            Held::Redis(forms) => forms.forget(id).await,
        }
    }
}

/// Compares two tokens in a time that does not depend on where they differ.
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |differ, (x, y)| differ | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Cow<'static, RequestedSchema> {
        static SCHEMA: std::sync::OnceLock<RequestedSchema> = std::sync::OnceLock::new();
        Cow::Borrowed(SCHEMA.get_or_init(|| {
            serde_json::from_str(r#"{"type":"object","properties":{"key":{"type":"string"}}}"#)
                .unwrap()
        }))
    }

    fn user(name: &str) -> UserId {
        UserId::from_verified_subject(name).unwrap()
    }

    fn form() -> PageForm {
        PageForm {
            message: "Connect".to_owned(),
            schema: schema(),
            secret_fields: vec![Cow::Borrowed("key")],
            form_type: Cow::Borrowed("tests::Key"),
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
        // The page's routes are where its links point.
        assert_eq!(forms.page_path(), "/secure");
        let at_root = SecureForms::new("https://example.com").unwrap();
        assert_eq!(at_root.page_path(), "");
        assert_eq!(
            at_root.link(&ElicitationId::new("abc")),
            "https://example.com/abc"
        );
        for (url, why) in [
            ("/secure", "is not an absolute URL"),
            ("ftp://example.com/secure", "is not http or https"),
            (
                "https://example.com/secure?x=1",
                "has a query or a fragment; the link adds only the elicitation id",
            ),
            (
                "https://user:pw@example.com/secure",
                "has credentials in it, which every link would carry",
            ),
            (
                "http://127.0.0.1:0/secure",
                "has port 0, which no one can connect to: bind the listener first and take the \
                 port it got (`listener.local_addr()`), or give the server's public URL",
            ),
            (
                "http://0.0.0.0:3000/secure",
                "names the unspecified address (a listener's on every interface), which no one \
                 can connect to: give the server's public URL, or a loopback address in \
                 development",
            ),
        ] {
            assert_eq!(
                SecureForms::new(url).unwrap_err().to_string(),
                format!("the secure page's address `{url}` {why}")
            );
        }
    }

    #[test]
    fn a_page_on_a_bound_address_is_on_loopback() {
        let on = |address: &str| SecureForms::on(address.parse().unwrap());
        assert_eq!(
            on("127.0.0.1:49152").unwrap().page_url(),
            "http://127.0.0.1:49152/secure"
        );
        assert_eq!(
            on("[::1]:8080").unwrap().page_url(),
            "http://[::1]:8080/secure"
        );
        assert_eq!(on("[::1]:8080").unwrap().page_path(), "/secure");
        for (address, why) in [
            ("0.0.0.0:3000", "is on the unspecified address"),
            ("[::]:3000", "is on the unspecified address"),
            ("192.0.2.7:3000", "is not on a loopback address"),
            // Not bound yet: the port is not known.
            ("127.0.0.1:0", "has port 0"),
        ] {
            let error = on(address).unwrap_err().to_string();
            let start = format!("the secure page's address `http://{address}/secure` {why}");
            assert!(error.starts_with(&start), "{address}: {error}");
        }
    }

    #[tokio::test]
    async fn an_answer_is_taken_once_by_its_user_and_given_once() {
        let forms = SecureForms::new("https://example.com/secure").unwrap();
        let now = SystemTime::now();
        let (alice, mallory) = (user("alice"), user("mallory"));
        forms
            .open(&ElicitationId::new("e1"), &alice, form(), now)
            .await
            .unwrap();
        assert!(matches!(
            forms.showing("e1", &alice, now).await,
            Ok(Showing::Form(_))
        ));
        assert!(matches!(
            forms.showing("e1", &mallory, now).await,
            Ok(Showing::NotYours)
        ));
        assert!(matches!(
            forms.answer("e1", &mallory, accepted("x"), now).await,
            Err(NotTaken::OtherUser)
        ));
        assert!(forms.answer("e1", &alice, accepted("k"), now).await.is_ok());
        assert!(
            matches!(forms.showing("e1", &alice, now).await, Ok(Showing::Gone)),
            "no form once answered"
        );
        assert!(matches!(
            forms.answer("e1", &alice, accepted("again"), now).await,
            Err(NotTaken::AlreadyAnswered)
        ));
        assert!(forms.take("e1", &mallory).await.unwrap().is_none());
        let Some(PageAnswer::Accepted(ref content)) = forms.take("e1", &alice).await.unwrap()
        else {
            panic!("the answer is held")
        };
        assert_eq!(content["key"], "k");
        assert!(
            forms.take("e1", &alice).await.unwrap().is_none(),
            "taken once"
        );
        assert!(matches!(
            forms
                .answer("nope", &alice, PageAnswer::Declined, now)
                .await,
            Err(NotTaken::Unknown)
        ));
    }

    /// A time to keep forms past what the clock can hold is refused where it is given, with
    /// an error naming it; and where it is added, should one get there, with the same error
    /// rather than a panic, nothing held.
    #[tokio::test]
    async fn a_keep_for_past_the_clock_is_refused() {
        for huge in [Duration::MAX, Duration::from_secs(u64::MAX)] {
            let refused = SecureForms::new("https://example.com/secure")
                .unwrap()
                .with_keep_for(huge)
                .unwrap_err();
            assert_eq!(
                refused.to_string(),
                "the time the secure page keeps a form (`SecureForms::with_keep_for`) \
                 (18446744073709551615 s) is too large: added to the current time, it ends past \
                 the latest time the system clock can hold"
            );
            let mut forms = SecureForms::new("https://example.com/secure").unwrap();
            forms.keep_for = huge;
            let alice = user("alice");
            let error = forms
                .open(&ElicitationId::new("e1"), &alice, form(), SystemTime::now())
                .await
                .unwrap_err();
            assert!(error.to_string().contains(&refused.to_string()), "{error}");
            assert!(matches!(
                forms.showing("e1", &alice, SystemTime::now()).await,
                Ok(Showing::Gone)
            ));
        }
    }

    #[tokio::test]
    async fn tokens_are_per_browser_and_forms_expire() {
        let forms = SecureForms::new("https://example.com/secure")
            .unwrap()
            .with_keep_for(Duration::from_secs(60))
            .unwrap();
        let now = SystemTime::now();
        let alice = user("alice");
        forms
            .open(&ElicitationId::new("e1"), &alice, form(), now)
            .await
            .unwrap();
        let token = forms.token_for("e1", "b1", "t1".to_owned()).await.unwrap();
        assert_eq!(token.as_deref(), Some("t1"));
        let again = forms.token_for("e1", "b1", "t2".to_owned()).await.unwrap();
        assert_eq!(again, token, "one token per browser");
        assert!(forms.token_matches("e1", "b1", "t1").await.unwrap());
        assert!(!forms.token_matches("e1", "b2", "t1").await.unwrap());
        assert!(!forms.token_matches("e1", "b1", "t2").await.unwrap());
        let later = now + Duration::from_secs(61);
        assert!(matches!(
            forms.showing("e1", &alice, later).await,
            Ok(Showing::Gone)
        ));
        forms
            .open(&ElicitationId::new("e2"), &alice, form(), later)
            .await
            .unwrap();
        assert_eq!(
            forms.token_for("e1", "b1", "t3".to_owned()).await.unwrap(),
            None,
            "dropped"
        );
    }

    #[tokio::test]
    async fn debug_never_shows_an_answer() {
        let forms = SecureForms::new("https://example.com/secure").unwrap();
        let now = SystemTime::now();
        let alice = user("alice");
        forms
            .open(&ElicitationId::new("e1"), &alice, form(), now)
            .await
            .unwrap();
        assert!(
            forms
                .answer("e1", &alice, accepted("sk-very-secret"), now)
                .await
                .is_ok()
        );
        let shown = format!("{forms:?} {:?}", accepted("sk-very-secret"));
        assert!(!shown.contains("sk-very-secret"), "{shown}");
    }
}
