//! The page's forms and answers in this process's memory: for a server of one process.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use super::{KEEP_FOR, NotTaken, PageAnswer, PageForm, Showing, same_text};
use crate::server::{TtlTooLarge, UserId, ends_at};

/// The forms of the page, by elicitation id.
#[derive(Default)]
pub(super) struct MemoryForms {
    forms: Mutex<HashMap<String, Entry>>,
}

/// One form on the page, from the moment the tool asks until the tool reads its answer.
struct Entry {
    user: UserId,
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

impl MemoryForms {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.forms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many forms and answers are held, for `Debug`.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Holds `form` for `keep` from `now`; a `keep` past what the clock can hold (which
    /// [`with_keep_for`](super::SecureForms::with_keep_for) refuses) is refused here too.
    pub fn open(
        &self,
        id: &str,
        user: &UserId,
        form: PageForm,
        now: SystemTime,
        keep: Duration,
    ) -> Result<(), TtlTooLarge> {
        let until = ends_at(now, keep, KEEP_FOR)?;
        let mut forms = self.lock();
        forms.retain(|_, entry| entry.until > now);
        let entry = Entry {
            user: user.clone(),
            form,
            state: EntryState::Open { tokens: Vec::new() },
            until,
        };
        forms.insert(id.to_owned(), entry);
        Ok(())
    }

    pub fn showing(&self, id: &str, user: &UserId, now: SystemTime) -> Showing {
        let forms = self.lock();
        let Some(entry) = forms.get(id).filter(|entry| entry.until > now) else {
            return Showing::Gone;
        };
        match entry.state {
            EntryState::Answered(_) => Showing::Gone,
            EntryState::Open { .. } if entry.user != *user => Showing::NotYours,
            EntryState::Open { .. } => Showing::Form(entry.form.clone()),
        }
    }

    pub fn token_for(&self, id: &str, browser: &str, fresh: String) -> Option<String> {
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

    pub fn token_matches(&self, id: &str, browser: &str, token: &str) -> bool {
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

    pub fn answer(
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
        if entry.user != *user {
            return Err(NotTaken::OtherUser);
        }
        if matches!(entry.state, EntryState::Answered(_)) {
            return Err(NotTaken::AlreadyAnswered);
        }
        entry.state = EntryState::Answered(answer);
        Ok(())
    }

    pub fn take(&self, id: &str, user: &UserId) -> Option<PageAnswer> {
        let mut forms = self.lock();
        let entry = forms.get(id)?;
        if entry.user != *user || !matches!(entry.state, EntryState::Answered(_)) {
            return None;
        }
        match forms.remove(id)?.state {
            EntryState::Answered(answer) => Some(answer),
            EntryState::Open { .. } => None,
        }
    }

    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }
}
