//! Forms with a secret field, asked on the server's own page through URL mode: the client is
//! shown the consent message and a link, never the form, and never the answer.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use super::Ask;
use crate::rmcp::ask::url::UrlOutcome;
use crate::rmcp::ask::AskableForm;
use crate::rmcp::error::ElicitError;
use crate::server::{CompletionError, PageAnswer, PageForm, SecureForms, StartError, UserId};
use crate::wire::ElicitationId;
use crate::{Elicit, ElicitOutcome, HasMessage};

impl Ask {
    /// Asks for form `T`, one with a secret field ([`Secret`](crate::Secret)), on the server's
    /// own page, and gives the typed answer: the same [`ElicitOutcome`] as
    /// [`form`](Self::form), on both revisions and inside a task.
    ///
    /// The spec forbids asking for secrets in form mode, so the form never goes to the client:
    /// the client gets a URL-mode request with `T`'s message and a link to the page
    /// ([`Elicitation::with_secure_page`](crate::rmcp::Elicitation::with_secure_page)), which
    /// carries only the elicitation's opaque id. The page (`elicit_mcp::page`, feature `page`)
    /// shows the form to the user the elicitation was made for, checks the answer with the
    /// form's rules, holds it here, and completes the elicitation; the tool reads the answer
    /// once, and it is gone. A decline or a cancel, at the client's consent or on the page,
    /// is [`ElicitOutcome::Declined`] or [`ElicitOutcome::Cancelled`].
    ///
    /// How long the user may take, and how the step is waited for on each revision, is as for
    /// [`url`](Self::url) (5 minutes on 2026-07-28 by default, by time, not by a count of
    /// rounds). On 2026-07-28 the handler runs again each round and the answer is read once:
    /// ask `secure` after every other ask of the call.
    ///
    /// ```no_run
    /// use elicit_mcp::rmcp::Ask;
    /// use elicit_mcp::{Elicit, ElicitOutcome, Secret};
    /// use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
    ///
    /// #[derive(Elicit)]
    /// #[elicit(message = "Connect your calendar")]
    /// struct CalendarKey {
    ///     api_key: Secret<String>,
    ///     calendar: String,
    /// }
    ///
    /// async fn connect(ask: Ask) -> Result<CallToolResult, ErrorData> {
    ///     let reply = match ask.secure::<CalendarKey>().await {
    ///         Ok(ElicitOutcome::Accepted(key)) => {
    ///             let length = key.api_key.expose_secret().len();
    ///             format!("connected {} (a key of {length} characters)", key.calendar)
    ///         }
    ///         Ok(_) => "not connected".to_owned(),
    ///         Err(error) => return error.into_call_result(),
    ///     };
    ///     Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`url`](Self::url), and [`ElicitError::SecurePageNotConfigured`] when the
    /// elicitation has no page, [`ElicitError::SecureAnswerGone`] when the answer was read
    /// already.
    pub fn secure<T>(
        &self,
    ) -> impl Future<Output = Result<ElicitOutcome<T>, ElicitError>> + Send + '_
    where
        T: AskableForm + Send,
    {
        self.secure_with_message::<T>(<T as HasMessage>::MESSAGE)
    }

    /// [`secure`](Self::secure) with `message` as the consent message and the page's heading,
    /// for a form without a message of its own or one that needs another.
    pub fn secure_with_message<T>(
        &self,
        message: impl Into<String>,
    ) -> impl Future<Output = Result<ElicitOutcome<T>, ElicitError>> + Send + '_
    where
        T: Elicit + Send,
    {
        let message = message.into();
        let forms = self
            .inner
            .url
            .as_ref()
            .ok_or(ElicitError::UrlModeNotConfigured)
            .and_then(|url| {
                url.forms
                    .clone()
                    .ok_or(ElicitError::SecurePageNotConfigured)
            });
        let user = self.user().cloned();
        // The form is put on the page once the elicitation is stored, before the client has
        // the link; a later run of a 2026-07-28 call finds it there.
        let made: Arc<Mutex<Option<ElicitationId>>> = Arc::default();
        let asked = match (&forms, &user) {
            (Ok(forms), Some(user)) => {
                let (forms, user, made) = (forms.clone(), user.clone(), made.clone());
                let link_to = forms.clone();
                forms.learn::<T>();
                let form = PageForm::of::<T>(message.clone());
                Some(self.url_made(
                    message,
                    move |id| link_to.link(id),
                    move |id| async move {
                        forms
                            .open(&id, &user, form, SystemTime::now())
                            .await
                            .map_err(|error| ElicitError::Start(StartError::Store(error)))?;
                        *made.lock().unwrap_or_else(PoisonError::into_inner) = Some(id);
                        Ok(())
                    },
                ))
            }
            _ => None,
        };
        async move {
            let forms = forms?;
            let (Some(asked), Some(user)) = (asked, user) else {
                return Err(ElicitError::NoUser);
            };
            let outcome = asked.await;
            let made = made.lock().unwrap_or_else(PoisonError::into_inner).take();
            answered::<T>(&forms, &user, outcome, made).await
        }
    }
}

/// The typed outcome of a secure form, from the URL step's outcome and the page's answer.
async fn answered<T: Elicit>(
    forms: &SecureForms,
    user: &UserId,
    outcome: Result<UrlOutcome, ElicitError>,
    made: Option<ElicitationId>,
) -> Result<ElicitOutcome<T>, ElicitError> {
    let id = match outcome {
        Ok(UrlOutcome::Completed(id)) => id,
        other => {
            // Declined or cancelled at the client, or failed: the form leaves the page (or,
            // if the store fails too, expires there).
            if let Some(id) = made {
                let _ = forms.forget(id.as_str()).await;
            }
            return other.map(|outcome| match outcome {
                UrlOutcome::Cancelled => ElicitOutcome::Cancelled,
                _ => ElicitOutcome::Declined,
            });
        }
    };
    let taken = forms
        .take(id.as_str(), user)
        .await
        .map_err(|error| ElicitError::NotCompleted(CompletionError::Store(error)))?;
    match taken {
        Some(PageAnswer::Accepted(ref content)) => T::from_content(content)
            .map(ElicitOutcome::Accepted)
            .map_err(ElicitError::InvalidContent),
        Some(PageAnswer::Declined) => Ok(ElicitOutcome::Declined),
        Some(PageAnswer::Cancelled) => Ok(ElicitOutcome::Cancelled),
        None => Err(ElicitError::SecureAnswerGone {
            id: id.as_str().to_owned(),
        }),
    }
}
