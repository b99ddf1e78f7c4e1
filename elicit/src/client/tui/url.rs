//! URL mode: who asks, the message, the link with its registrable domain highlighted, every
//! warning of its review, and the choice, with the focus on Decline. The widget never opens
//! anything: on consent, the host opens the reviewed URL.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::Style;

use super::text::{Pieces, Theme};
use crate::client::UrlReview;
use crate::wire::{ElicitRequestUrlParams, ElicitResult};

const BUTTONS: [&str; 3] = ["Open in my browser", "Decline", "Cancel"];
const DECLINE: usize = 1;

/// A URL-mode request awaiting the user's word.
#[derive(Debug)]
pub(super) struct Consent {
    message: String,
    review: UrlReview,
    focus: usize,
}

impl Consent {
    pub(super) fn new(params: &ElicitRequestUrlParams, review: UrlReview) -> Self {
        Consent {
            message: params.message().to_owned(),
            review,
            focus: DECLINE,
        }
    }

    pub(super) fn review(&self) -> &UrlReview {
        &self.review
    }

    /// `Some` once the user chose. ↑↓ are left to scroll the page: in a small area the link
    /// and its warnings must stay readable in full before any choice.
    pub(super) fn handle(&mut self, key: KeyEvent) -> Option<ElicitResult> {
        match key.code {
            KeyCode::Left | KeyCode::BackTab => {
                self.focus = self.focus.saturating_sub(1);
            }
            KeyCode::Right | KeyCode::Tab => {
                self.focus = (self.focus + 1).min(BUTTONS.len() - 1);
            }
            KeyCode::Enter => {
                return Some(match self.focus {
                    0 => ElicitResult::accept_url(),
                    DECLINE => ElicitResult::decline(),
                    _ => ElicitResult::cancel(),
                });
            }
            _ => {}
        }
        None
    }

    pub(super) fn lines(&self, theme: Theme) -> Vec<(Pieces, usize)> {
        let review = &self.review;
        let mut out: Vec<(Pieces, usize)> = vec![
            (vec![(self.message.clone(), theme.heading())], 0),
            (Vec::new(), 0),
            (
                vec![(
                    "The server asks you to open this link:".to_owned(),
                    Style::new(),
                )],
                0,
            ),
        ];
        let url = review.url();
        let mut link: Pieces = vec![("  ".to_owned(), Style::new())];
        match review.registrable_range() {
            Some(range) => {
                link.push((url[..range.start].to_owned(), Style::new()));
                link.push((url[range.clone()].to_owned(), theme.domain()));
                link.push((url[range.end..].to_owned(), Style::new()));
            }
            None => link.push((url.to_owned(), Style::new())),
        }
        out.push((link, 2));
        let mut site: Pieces = vec![("  site: ".to_owned(), Style::new())];
        match (review.registrable_domain(), review.subdomain()) {
            (Some(domain), subdomain) => {
                site.push((domain.to_owned(), theme.domain()));
                if let Some(subdomain) = subdomain {
                    site.push((format!(" (address {subdomain}.{domain})"), Style::new()));
                }
            }
            (None, _) => site.push((review.host_unicode().to_owned(), Style::new())),
        }
        out.push((site, 8));
        for warning in review.warnings() {
            out.push((
                vec![(format!("  ⚠ warning: {warning}"), theme.warning())],
                4,
            ));
        }
        out.push((Vec::new(), 0));
        out.push((
            vec![(
                "Nothing opens unless you choose the first button.".to_owned(),
                theme.dim(),
            )],
            0,
        ));
        let mut buttons: Pieces = Vec::new();
        for (index, label) in BUTTONS.iter().enumerate() {
            if index > 0 {
                buttons.push(("  ".to_owned(), Style::new()));
            }
            buttons.push(if index == self.focus {
                (format!("[>{label}<]"), theme.focus())
            } else {
                (format!("[ {label} ]"), Style::new())
            });
        }
        out.push((buttons, 0));
        out
    }
}
