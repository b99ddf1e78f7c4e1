//! A form and URL-consent widget for hosts that draw with [ratatui](https://ratatui.rs)
//! (feature `ratatui`): an elicitation answered inside the host's own screen and event loop.
//!
#![doc = include_str!("../../docs/tui.md")]

mod form;
mod input;
mod text;
mod url;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use self::form::{Form, Step};
use self::text::{Pieces, Theme, wrap};
use self::url::Consent;
use crate::client::{ServerIdentity, UrlReview, UrlReviewError};
use crate::schema::RequestedSchema;
use crate::wire::{ElicitRequestParams, ElicitRequestUrlParams, ElicitResult};

/// Where an elicitation in the widget is.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Status {
    /// The user is still answering.
    Editing,
    /// The user answered: the result to send the server (an accept, a decline or a cancel).
    Done(ElicitResult),
}

/// One elicitation answered in a ratatui screen: a form, or a URL-mode consent. See the
/// [module](self) for what it shows and the keys it takes.
#[derive(Debug)]
pub struct ElicitWidget {
    server: ServerIdentity,
    page: Page,
    done: Option<ElicitResult>,
    theme: Theme,
    /// The first line of the scrolled body shown, kept between draws so the view moves only
    /// as far as the focus needs.
    scroll: usize,
    /// The height of the scrolled body at the last draw, for paging.
    view_height: usize,
}

#[derive(Debug)]
enum Page {
    Form(Form),
    Url(Consent),
}

impl ElicitWidget {
    /// A widget for a checked `elicitation/create` request (see
    /// [`validate_request`](crate::client::validate_request)) from `server`. Fails only for a
    /// URL that cannot be offered at all.
    pub fn new(
        server: ServerIdentity,
        request: &ElicitRequestParams,
    ) -> Result<Self, UrlReviewError> {
        match request {
            ElicitRequestParams::Form(form) => Ok(ElicitWidget::form(
                server,
                &form.message,
                form.requested_schema.clone().into_owned(),
            )),
            ElicitRequestParams::Url(url) => ElicitWidget::url(server, url),
        }
    }

    /// A form from `server`, its fields pre-filled with their defaults.
    pub fn form(server: ServerIdentity, message: &str, schema: RequestedSchema) -> Self {
        ElicitWidget::with_page(server, Page::Form(Form::new(message, schema)))
    }

    /// A URL-mode request from `server`, reviewed, the focus on Decline.
    pub fn url(
        server: ServerIdentity,
        params: &ElicitRequestUrlParams,
    ) -> Result<Self, UrlReviewError> {
        let review = UrlReview::of(params)?;
        Ok(ElicitWidget::with_page(
            server,
            Page::Url(Consent::new(params, review)),
        ))
    }

    fn with_page(server: ServerIdentity, page: Page) -> Self {
        ElicitWidget {
            server,
            page,
            done: None,
            theme: Theme::from_env(),
            scroll: 0,
            view_height: 0,
        }
    }

    /// The same widget drawn with colours or without. By default, colours are on unless the
    /// environment variable `NO_COLOR` is set (<https://no-color.org>).
    pub fn with_colors(mut self, colors: bool) -> Self {
        self.theme = Theme { colors };
        self
    }

    /// The server that asks, as shown.
    pub fn server(&self) -> &ServerIdentity {
        &self.server
    }

    /// Takes one key. Key releases and repeats of a terminal that reports them are ignored,
    /// as are keys once the elicitation is done.
    pub fn handle_key(&mut self, key: KeyEvent) -> Status {
        if self.done.is_some() || key.kind == KeyEventKind::Release {
            return self.status();
        }
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        if key.code == KeyCode::Esc || (control && key.code == KeyCode::Char('c')) {
            self.done = Some(ElicitResult::cancel());
            return self.status();
        }
        // Paging moves the view within what has the focus (the whole page, for a URL).
        let page = self.view_height.saturating_sub(1).max(1);
        let by_lines = match (&self.page, key.code) {
            (_, KeyCode::PageDown) => Some(page as isize),
            (_, KeyCode::PageUp) => Some(-(page as isize)),
            (Page::Url(_), KeyCode::Down) => Some(1),
            (Page::Url(_), KeyCode::Up) => Some(-1),
            _ => None,
        };
        if let Some(by) = by_lines {
            self.scroll = self.scroll.saturating_add_signed(by);
            return self.status();
        }
        self.done = match &mut self.page {
            Page::Form(form) => match form.handle(key) {
                Step::Editing => None,
                Step::Done(result) => Some(result),
            },
            Page::Url(consent) => consent.handle(key),
        };
        self.status()
    }

    /// Where the elicitation is.
    pub fn status(&self) -> Status {
        match &self.done {
            Some(result) => Status::Done(result.clone()),
            None => Status::Editing,
        }
    }

    /// The URL the user consented to open, normalized by its
    /// [`UrlReview`]: `Some` only once a URL-mode request was
    /// accepted. The host opens it; the widget does not.
    pub fn consented_url(&self) -> Option<&str> {
        match (&self.page, &self.done) {
            (Page::Url(consent), Some(result))
                if result.action == crate::wire::ElicitAction::Accept =>
            {
                Some(consent.review().url())
            }
            _ => None,
        }
    }

    /// Draws the widget into `area` of `buf`: the server's line on top, the page (scrolled to
    /// keep the focus in view) in the middle, the keys at the bottom.
    pub fn draw(&mut self, area: Rect, buf: &mut Buffer) {
        if area.is_empty() {
            return;
        }
        let theme = self.theme;
        let server_line = wrap(
            &[(format!("From the server {}", self.server), theme.server())],
            area.width,
            2,
        );
        let (logical, focus, hints) = match &self.page {
            Page::Form(form) => {
                let (lines, focus) = form.lines(theme);
                (lines, Some(focus), form.hints())
            }
            Page::Url(consent) => (
                consent.lines(theme),
                None,
                "←→: pick · Enter: press · ↑↓: scroll · Esc: cancel",
            ),
        };
        let mut body: Vec<Line<'static>> = Vec::new();
        let mut focus_lines = 0..0;
        for (index, (pieces, indent)) in logical.iter().enumerate() {
            if focus.as_ref().is_some_and(|f| f.start == index) {
                focus_lines.start = body.len();
            }
            body.extend(wrap(pieces, area.width, *indent));
            if focus.as_ref().is_some_and(|f| f.end == index + 1) {
                focus_lines.end = body.len();
            }
        }
        if focus.is_none() {
            // A consent is read whole: the link and its warnings before the choice.
            focus_lines = 0..body.len();
        }
        // The server's name is never scrolled away; the keys go first when room is short.
        let top = server_line.len().min(usize::from(area.height)) as u16;
        let show_hints = area.height >= top + 3;
        let bottom = u16::from(show_hints);
        let body_area = Rect {
            y: area.y + top,
            height: area.height - top - bottom,
            ..area
        };
        Paragraph::new(server_line).render(
            Rect {
                height: top,
                ..area
            },
            buf,
        );
        let height = usize::from(body_area.height);
        self.view_height = height;
        self.scroll = scroll_for(self.scroll, &focus_lines, height, body.len());
        let shown: Vec<Line<'static>> = body
            .iter()
            .skip(self.scroll)
            .take(height)
            .cloned()
            .collect();
        Paragraph::new(shown).render(body_area, buf);
        if height > 0 {
            let corner = body_area.x + body_area.width.saturating_sub(1);
            if self.scroll > 0 {
                buf.set_string(corner, body_area.y, "↑", theme.dim());
            }
            if self.scroll + height < body.len() {
                buf.set_string(corner, body_area.y + body_area.height - 1, "↓", theme.dim());
            }
        }
        if show_hints {
            let hint: Pieces = vec![(hints.to_owned(), theme.dim())];
            let line = wrap(&hint, area.width, 0).into_iter().next();
            Paragraph::new(line.unwrap_or_default()).render(
                Rect {
                    y: area.y + area.height - 1,
                    height: 1,
                    ..area
                },
                buf,
            );
        }
    }
}

/// The first line to show so that `focus` is in view, moving as little as possible from
/// `scroll`. A focus taller than the view keeps the view within it, wherever paging put it.
fn scroll_for(scroll: usize, focus: &std::ops::Range<usize>, height: usize, total: usize) -> usize {
    if height == 0 {
        return 0;
    }
    let most = total.saturating_sub(height);
    let scroll = scroll.min(most);
    let within = if focus.len() > height {
        scroll.clamp(focus.start, focus.end - height)
    } else if focus.end > scroll + height {
        focus.end - height
    } else {
        scroll.min(focus.start)
    };
    within.min(most)
}

/// `frame.render_widget(&mut widget, area)`: the widget keeps its scroll position between
/// draws, so it is drawn by mutable reference.
impl Widget for &mut ElicitWidget {
    fn render(self, area: Rect, buf: &mut Buffer) {
        self.draw(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_moves_only_as_far_as_the_focus_needs() {
        assert_eq!(scroll_for(0, &(2..4), 5, 20), 0);
        assert_eq!(scroll_for(0, &(8..10), 5, 20), 5);
        assert_eq!(scroll_for(5, &(3..4), 5, 20), 3);
        assert_eq!(scroll_for(0, &(0..9), 5, 20), 0);
        assert_eq!(scroll_for(3, &(0..9), 5, 20), 3);
        assert_eq!(scroll_for(7, &(0..9), 5, 20), 4);
        assert_eq!(scroll_for(1, &(2..9), 5, 20), 2);
        assert_eq!(scroll_for(18, &(19..20), 5, 20), 15);
        assert_eq!(scroll_for(3, &(0..1), 0, 20), 0);
    }
}
