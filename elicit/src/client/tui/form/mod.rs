//! Form mode: every field on one scrolling page, checked as it is typed and when it is left;
//! then a review of every answer, from which any field can be edited again, before Send.

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::Style;
use serde_json::{Map, Value};

use super::text::{Pieces, Theme};
use crate::client::accept_form;
use crate::client::answer::{self, label_of, unanswerable};
use crate::schema::RequestedSchema;
use crate::wire::ElicitResult;

#[cfg(test)]
mod differential;
mod field;

use field::Field;

/// Where the form is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Filling,
    Review,
}

const FILLING_BUTTONS: [&str; 3] = ["Review and send", "Decline", "Cancel"];
const REVIEW_BUTTONS: [&str; 4] = ["Send", "Edit", "Decline", "Cancel"];

/// A form being answered.
#[derive(Debug)]
pub(super) struct Form {
    message: String,
    schema: RequestedSchema,
    fields: Vec<Field>,
    stage: Stage,
    /// A field (below `fields.len()`) or a button (the index past the fields).
    focus: usize,
    /// Why Send was refused, until the next attempt.
    refusal: Vec<String>,
}

/// What a key did to the form.
pub(super) enum Step {
    Editing,
    Done(ElicitResult),
}

impl Form {
    pub(super) fn new(message: &str, schema: RequestedSchema) -> Self {
        let fields = schema.properties().iter().map(Field::new).collect();
        Form {
            message: message.to_owned(),
            schema,
            fields,
            stage: Stage::Filling,
            focus: 0,
            refusal: Vec::new(),
        }
    }

    fn buttons(&self) -> &'static [&'static str] {
        match self.stage {
            Stage::Filling => &FILLING_BUTTONS,
            Stage::Review => &REVIEW_BUTTONS,
        }
    }

    fn last_focus(&self) -> usize {
        self.fields.len() + self.buttons().len() - 1
    }

    pub(super) fn handle(&mut self, key: KeyEvent) -> Step {
        let on_field = self.focus < self.fields.len();
        match key.code {
            KeyCode::Tab | KeyCode::Down => self.move_focus(1),
            KeyCode::BackTab | KeyCode::Up => self.move_focus(-1),
            KeyCode::Enter if on_field => match self.stage {
                Stage::Filling => self.move_focus(1),
                // A review line: edit that field.
                Stage::Review => {
                    self.stage = Stage::Filling;
                    self.refusal.clear();
                }
            },
            KeyCode::Enter => return self.press(self.focus - self.fields.len()),
            KeyCode::Left | KeyCode::Right if !on_field => {
                let step = if key.code == KeyCode::Left { -1 } else { 1 };
                let first_button = self.fields.len() as isize;
                let target = (self.focus as isize + step).max(first_button);
                self.focus = (target as usize).min(self.last_focus());
            }
            _ if on_field && self.stage == Stage::Filling => {
                let field = &mut self.fields[self.focus];
                if field.entry.handle(key) {
                    field.touched = true;
                }
            }
            _ => {}
        }
        Step::Editing
    }

    /// Moves to the next or previous field or button; the field left counts as touched, so
    /// its verdict shows from now on.
    fn move_focus(&mut self, by: isize) {
        if let Some(field) = self.fields.get_mut(self.focus)
            && self.stage == Stage::Filling
        {
            field.touched = true;
        }
        let target = self.focus as isize + by;
        self.focus = target.clamp(0, self.last_focus() as isize) as usize;
    }

    fn press(&mut self, button: usize) -> Step {
        match self.buttons()[button] {
            "Review and send" => {
                if self.check_all() {
                    self.stage = Stage::Review;
                    // On Send: the review's first button.
                    self.focus = self.fields.len();
                }
                Step::Editing
            }
            "Send" => match accept_form(&self.schema, self.content()) {
                Ok(result) => Step::Done(result),
                Err(_) => {
                    self.stage = Stage::Filling;
                    self.check_all();
                    Step::Editing
                }
            },
            "Edit" => {
                self.stage = Stage::Filling;
                self.focus = 0;
                Step::Editing
            }
            "Decline" => Step::Done(ElicitResult::decline()),
            _ => Step::Done(ElicitResult::cancel()),
        }
    }

    /// Every field's verdict, then the whole content's (defaults filled in) by `accept_form`:
    /// `true` when it would be sent; otherwise the reasons are kept and shown, every field's
    /// own reason shows by it, and the first field at fault takes the focus.
    fn check_all(&mut self) -> bool {
        for field in &mut self.fields {
            field.touched = true;
        }
        let mut reasons: Vec<String> = self.fields.iter().filter_map(Field::error).collect();
        if reasons.is_empty()
            && let Err(errors) = accept_form(&self.schema, self.content())
        {
            reasons = errors
                .errors()
                .iter()
                .map(|error| {
                    let label = self
                        .schema
                        .property(error.field())
                        .map_or(error.field(), label_of);
                    format!("{label} {}", error.message())
                })
                .collect();
        }
        self.refusal = reasons;
        if let Some(first) = self.fields.iter().position(|field| field.error().is_some()) {
            self.focus = first;
        }
        self.refusal.is_empty()
    }

    /// The answers given, by property name; fields left empty are absent.
    fn content(&self) -> Map<String, Value> {
        self.fields
            .iter()
            .filter_map(|field| {
                let value = field.entry.value().ok().flatten()?;
                Some((field.property.name.to_string(), value))
            })
            .collect()
    }

    /// The form as logical lines (wrapped by the caller), with the range of lines holding the
    /// focus, to scroll it into view.
    pub(super) fn lines(&self, theme: Theme) -> (Vec<(Pieces, usize)>, std::ops::Range<usize>) {
        let mut out: Vec<(Pieces, usize)> = Vec::new();
        let mut focus = 0..0;
        out.push((vec![(self.message.clone(), theme.heading())], 0));
        if let Some(title) = &self.schema.title {
            out.push((vec![(title.to_string(), theme.heading())], 0));
        }
        if let Some(description) = &self.schema.description {
            out.push((vec![(description.to_string(), Style::new())], 0));
        }
        match self.stage {
            Stage::Filling => {
                if self.schema.required().next().is_some() {
                    out.push((plain("Fields marked * are required.", theme.dim()), 0));
                }
                let blockers: Vec<String> = self
                    .fields
                    .iter()
                    .filter_map(|field| unanswerable(&field.property))
                    .collect();
                if !blockers.is_empty() {
                    out.push((plain("This form cannot be filled in:", theme.error()), 0));
                    for blocker in blockers {
                        out.push((plain(&format!("  ✗ {blocker}"), theme.error()), 4));
                    }
                }
                for (index, field) in self.fields.iter().enumerate() {
                    let start = out.len();
                    out.push((Vec::new(), 0));
                    field.lines(self.focus == index, theme, &mut out);
                    if self.focus == index {
                        focus = start..out.len();
                    }
                }
            }
            Stage::Review => {
                out.push((Vec::new(), 0));
                out.push((
                    plain(
                        "Review your answers. Enter on an answer edits it.",
                        theme.heading(),
                    ),
                    0,
                ));
                let content = self.content();
                for (index, field) in self.fields.iter().enumerate() {
                    let focused = self.focus == index;
                    let label = label_of(&field.property);
                    let shown = answer::shown(&field.property, content.get(&*field.property.name));
                    if focused {
                        focus = out.len()..out.len() + 1;
                    }
                    out.push((
                        vec![
                            marker(focused, theme),
                            (format!("{label}: "), theme.heading()),
                            (shown, Style::new()),
                        ],
                        4,
                    ));
                }
            }
        }
        out.push((Vec::new(), 0));
        if !self.refusal.is_empty() {
            out.push((plain("The form cannot be sent yet:", theme.error()), 0));
            for reason in &self.refusal {
                out.push((plain(&format!("  ✗ {reason}"), theme.error()), 4));
            }
        }
        let start = out.len();
        let mut buttons: Pieces = Vec::new();
        for (index, label) in self.buttons().iter().enumerate() {
            let focused = self.focus == self.fields.len() + index;
            if index > 0 {
                buttons.push(("  ".to_owned(), Style::new()));
            }
            buttons.push(button(label, focused, theme));
        }
        out.push((buttons, 0));
        if self.focus >= self.fields.len() {
            focus = start..out.len();
        }
        (out, focus)
    }

    pub(super) fn hints(&self) -> &'static str {
        match (self.stage, self.focus < self.fields.len()) {
            (Stage::Filling, true) => {
                "↑↓ Tab: move · ←→: choose · Space: tick · Enter: next · Esc: cancel"
            }
            (Stage::Review, true) => "↑↓: move · Enter: edit this answer · Esc: cancel",
            (_, false) => "←→: pick a button · Enter: press it · ↑: back · Esc: cancel",
        }
    }
}

fn plain(text: &str, style: Style) -> Pieces {
    vec![(text.to_owned(), style)]
}

fn marker(focused: bool, theme: Theme) -> (String, Style) {
    if focused {
        ("› ".to_owned(), theme.focus())
    } else {
        ("  ".to_owned(), Style::new())
    }
}

fn button(label: &str, focused: bool, theme: Theme) -> (String, Style) {
    if focused {
        (format!("[>{label}<]"), theme.focus())
    } else {
        (format!("[ {label} ]"), Style::new())
    }
}
