//! The server's own page for forms with a secret field
//! ([`Ask::secure`](crate::rmcp::Ask::secure)): an axum router, mounted by the server next to its
//! MCP service, that shows each form to the user its URL-mode elicitation was made for, checks
//! the answer with the form's rules, holds it for the tool, and completes the elicitation.
//!
#![doc = include_str!("../docs/page.md")]

mod browser;
mod development_login;
#[cfg(test)]
mod differential;
#[cfg(feature = "oauth")]
mod oidc_login;
pub(crate) mod posted;
pub(crate) mod read;
pub(crate) mod render;
mod return_to;
mod users;

use std::sync::Arc;
use std::time::SystemTime;

use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{RequestExt as _, Router};

use self::browser::{Browser, random_hex};
use self::posted::Unread;
use self::read::{FieldMessage, ShownValues, defaults};
use self::render::{FormPage, POLICY, notice};
use crate::rmcp::Elicitation;
use crate::server::{
    CompletionError, ElicitationStore, ElicitationTracker, NotTaken, PageAnswer, PageForm,
    SecureForms, Showing, UserId,
};

pub use development_login::{DevelopmentLogin, NotLoopback};
#[cfg(feature = "oauth")]
pub use oidc_login::OidcLogin;
pub use return_to::{RETURN_TO, safe_return_path};
pub use users::PageUsers;

/// The page for secure forms: what it serves from, and how it is set. Build it once, then
/// merge its [`router`](Self::router) into the server's: its routes are at the path of
/// [`SecureForms::page_url`], where the links it hands out point.
pub struct SecurePage<S: ElicitationStore, U: PageUsers> {
    shared: Shared<S, U>,
    max_body_bytes: usize,
}

struct Shared<S, U> {
    forms: SecureForms,
    tracker: Arc<ElicitationTracker<S>>,
    elicitation: Elicitation,
    users: U,
    server_name: String,
    login_url: Option<String>,
}

impl<S: ElicitationStore + 'static, U: PageUsers> SecurePage<S, U> {
    /// The most bytes an answer's body may have unless
    /// [`with_max_body_bytes`](Self::with_max_body_bytes) says otherwise.
    pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;

    /// The page of `forms` (the same the elicitation asks on,
    /// [`Elicitation::with_secure_page`]), completing the elicitations of `tracker` (the same
    /// the elicitation has, [`Elicitation::with_url_mode`]) and notifying through
    /// `elicitation`, for the users `users` knows.
    pub fn new(
        forms: SecureForms,
        tracker: Arc<ElicitationTracker<S>>,
        elicitation: Elicitation,
        users: U,
    ) -> Self {
        SecurePage {
            shared: Shared {
                forms,
                tracker,
                elicitation,
                users,
                server_name: "This server".to_owned(),
                login_url: None,
            },
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
        }
    }

    /// The server's name, which the page shows above each form.
    pub fn with_server_name(mut self, name: impl Into<String>) -> Self {
        self.shared.server_name = name.into();
        self
    }

    /// Where a browser with no user is sent to sign in: a 303 redirect to `url` with the
    /// page it asked for added to the query, `url?return_to=PATH` ([`RETURN_TO`]; `PATH` the
    /// path and query of the page's link, percent-encoded), for the sign-in to send the
    /// browser back to once signed in (checked with [`safe_return_path`]: the page's
    /// `Referrer-Policy: no-referrer` tells the sign-in nothing else). Without it, such a
    /// browser is told to sign in, with 401.
    pub fn with_login_url(mut self, url: impl Into<String>) -> Self {
        self.shared.login_url = Some(url.into());
        self
    }

    /// Answers a body larger than `bytes` with 413, unread.
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The page's routes, `GET` and `POST` on `PATH/{id}`, where `PATH` is the path of the
    /// page's address ([`SecureForms::page_url`]): merge them into the server's router
    /// (`Router::merge`, not `nest`), so that the page is served where its links point, with
    /// no second place to write its path.
    pub fn router(self) -> Router {
        let route = format!("{}/{{id}}", self.shared.forms.page_path());
        Router::new()
            .route(&route, get(show::<S, U>).post(answer::<S, U>))
            .layer(DefaultBodyLimit::max(self.max_body_bytes))
            .with_state(Arc::new(self.shared))
    }
}

/// A response with the page's headers.
pub(crate) fn secured(status: StatusCode, html: String) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    let set = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CONTENT_SECURITY_POLICY, POLICY.as_str()),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    for (name, value) in set {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    }
    response
}

/// The value of cookie `name` of the request.
pub(crate) fn cookie(request: &Parts, name: &str) -> Option<String> {
    request
        .headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_owned())
}

impl<S: ElicitationStore, U: PageUsers> Shared<S, U> {
    fn say(&self, status: StatusCode, heading: &str, text: &str) -> Response {
        secured(status, notice(&self.server_name, heading, text))
    }

    /// The browser's user, or the response that sends it to sign in.
    async fn signed_in(&self, request: &Parts) -> Result<UserId, Response> {
        if let Some(user) = self.users.user(request).await {
            return Ok(user);
        }
        let sign_in = "Sign in to this server, then open the link again.";
        Err(match &self.login_url {
            Some(login) => {
                let mut response = self.say(StatusCode::SEE_OTHER, "Sign in first", sign_in);
                let asked_for = request
                    .uri
                    .path_and_query()
                    .map_or("/", |path| path.as_str());
                let location = return_to::with_return_path(login, asked_for);
                if let Ok(location) = HeaderValue::from_str(&location) {
                    response.headers_mut().insert(header::LOCATION, location);
                }
                response
            }
            None => self.say(StatusCode::UNAUTHORIZED, "Sign in first", sign_in),
        })
    }

    /// The form of `id`, if it is this user's and still open; else what to answer.
    async fn open_form(&self, id: &str, user: &UserId) -> Result<PageForm, Response> {
        match self.tracker.verify(id, user).await {
            Ok(_) => {}
            Err(CompletionError::WrongUser) => return Err(self.not_yours()),
            Err(CompletionError::Store(_)) => return Err(self.unavailable()),
            Err(_) => return Err(self.gone()),
        }
        match self.forms.showing(id, user, SystemTime::now()).await {
            Ok(Showing::Form(form)) => Ok(form),
            Ok(Showing::NotYours) => Err(self.not_yours()),
            Ok(Showing::Gone) => Err(self.gone()),
            Err(_) => Err(self.unavailable()),
        }
    }

    fn unavailable(&self) -> Response {
        self.say(
            StatusCode::SERVICE_UNAVAILABLE,
            "Try again in a moment",
            "The server cannot reach its store right now.",
        )
    }

    fn not_yours(&self) -> Response {
        self.say(
            StatusCode::FORBIDDEN,
            "This link is not for you",
            "It was made for someone else. Nothing was shown or changed.",
        )
    }

    fn gone(&self) -> Response {
        self.say(
            StatusCode::NOT_FOUND,
            "This link can no longer be used",
            "It has expired, or its form was already answered. Ask again from your MCP client.",
        )
    }

    /// The form page, with its CSRF token for this browser; sets the browser's cookie when new.
    async fn form_page(
        &self,
        id: &str,
        form: &PageForm,
        browser: Option<String>,
        shown: &ShownValues,
        refused: &[FieldMessage],
    ) -> Response {
        let Some(browser) = Browser::from_known(browser) else {
            return self.no_randomness();
        };
        let Some(fresh) = random_hex() else {
            return self.no_randomness();
        };
        let token = match self.forms.token_for(id, browser.id(), fresh).await {
            Ok(Some(token)) => token,
            Ok(None) => return self.gone(),
            Err(_) => return self.unavailable(),
        };
        let html = FormPage {
            server: &self.server_name,
            message: &form.message,
            schema: &form.schema,
            secret_fields: &form.secret_fields,
            token: &token,
            shown,
            refused,
        }
        .render();
        let status = if refused.is_empty() {
            StatusCode::OK
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        let mut response = secured(status, html);
        browser.remember(&mut response);
        response
    }

    fn no_randomness(&self) -> Response {
        self.say(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Try again in a moment",
            "The server could not make a security token.",
        )
    }

    /// Holds `answer`, completes the elicitation and tells the session that started it.
    async fn settle(&self, id: &str, user: &UserId, answer: PageAnswer) -> Response {
        let sent = matches!(answer, PageAnswer::Accepted(_));
        match self.forms.answer(id, user, answer, SystemTime::now()).await {
            Ok(()) => {}
            Err(NotTaken::OtherUser) => return self.not_yours(),
            Err(NotTaken::Unknown | NotTaken::AlreadyAnswered) => return self.gone(),
            Err(NotTaken::Store) => return self.unavailable(),
        }
        let completed = match self.tracker.complete(id, user).await {
            Ok(completed) => completed,
            Err(_) => {
                // If the store fails here too, the held answer expires with its form.
                let _ = self.forms.forget(id).await;
                return self.gone();
            }
        };
        // A 2026-07-28 call or a task collects the completion itself; a 2025-11-25 session is
        // told here, or by the replica that holds it.
        let _ = self.elicitation.notify_completed(&completed).await;
        if sent {
            self.say(
                StatusCode::OK,
                "Sent",
                "Your answer went to the server. You can close this tab and go back to your MCP client.",
            )
        } else {
            self.say(
                StatusCode::OK,
                "Nothing was sent",
                "The server was told. You can close this tab and go back to your MCP client.",
            )
        }
    }
}

async fn show<S: ElicitationStore, U: PageUsers>(
    State(shared): State<Arc<Shared<S, U>>>,
    Path(id): Path<String>,
    request: Parts,
) -> Response {
    let user = match shared.signed_in(&request).await {
        Ok(user) => user,
        Err(response) => return response,
    };
    let form = match shared.open_form(&id, &user).await {
        Ok(form) => form,
        Err(response) => return response,
    };
    let browser = Browser::known(&request);
    let shown = defaults(&form.schema);
    shared.form_page(&id, &form, browser, &shown, &[]).await
}

async fn answer<S: ElicitationStore, U: PageUsers>(
    State(shared): State<Arc<Shared<S, U>>>,
    Path(id): Path<String>,
    request: Request,
) -> Response {
    let (request, body) = request.with_limited_body().into_parts();
    let user = match shared.signed_in(&request).await {
        Ok(user) => user,
        Err(response) => return response,
    };
    let unreadable = || {
        shared.say(
            StatusCode::BAD_REQUEST,
            "This answer could not be read",
            "Send the form from the page itself.",
        )
    };
    // The body and its pairs may hold a secret: both are wiped when dropped.
    let body = match posted::read_body(body).await {
        Ok(body) => body,
        Err(Unread::TooLarge) => {
            return shared.say(
                StatusCode::PAYLOAD_TOO_LARGE,
                "This answer is too large",
                "It is larger than this server takes. Send the form from the page itself.",
            );
        }
        Err(Unread::Broken) => return unreadable(),
    };
    let Ok(pairs) = posted::pairs(&body) else {
        return unreadable();
    };
    drop(body);
    let field = |name: &str| pairs.first(name);
    let browser = Browser::known(&request);
    let token_holds = match (&browser, field("_csrf")) {
        (Some(browser), Some(token)) => match shared.forms.token_matches(&id, browser, token).await
        {
            Ok(holds) => holds,
            Err(_) => return shared.unavailable(),
        },
        _ => false,
    };
    let form = match shared.open_form(&id, &user).await {
        Ok(form) => form,
        Err(response) => return response,
    };
    if !token_holds {
        return shared.say(
            StatusCode::FORBIDDEN,
            "This answer was refused",
            "It did not come from the page this server showed this browser. Open the link \
             from your MCP client again.",
        );
    }
    match field("_action") {
        Some("decline") => shared.settle(&id, &user, PageAnswer::Declined).await,
        Some("cancel") => shared.settle(&id, &user, PageAnswer::Cancelled).await,
        Some("send") | None => {
            let check = shared.forms.check_of(&form);
            if check.is_none() {
                unknown_form(&form);
            }
            let (content, shown) = read::read(&form.schema, &form.secret_fields, &pairs, check);
            match content {
                Ok(content) => {
                    shared
                        .settle(&id, &user, PageAnswer::Accepted(content))
                        .await
                }
                Err(refused) => {
                    shared
                        .form_page(&id, &form, browser, &shown, &refused)
                        .await
                }
            }
        }
        Some(_) => shared.say(
            StatusCode::BAD_REQUEST,
            "This answer could not be read",
            "Send the form from the page itself.",
        ),
    }
}

/// Says in the log that the page takes an answer to `form` checked by its schema alone: this
/// process never asked that form, nor was told of it.
fn unknown_form(form: &PageForm) {
    tracing::warn!(
        "elicit_mcp's secure page took an answer to the form `{}` checked by its schema alone, \
         since this process does not know the form: a rule its fields' types add is found by \
         the tool's read instead, after the page said the answer was sent. Name it on every \
         replica with SecureForms::with_form::<T>() for that type",
        form.form_type,
    );
}
