//! Form mode: every field on one scrolling page, checked as it is typed and when it is left;
//! then a review of every answer, from which any field can be edited again, before Send.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use serde_json::{Map, Value};

use super::input::Input;
use super::text::{Pieces, Theme};
use crate::client::accept_form;
use crate::client::answer::{
    self, Choice, choices_of, count_rule, empty_selection, has_no_choices, is_multi, item_bounds,
    label_of, not_a_number, number_rules, number_value, picked_value, string_rules, text_value,
    unanswerable,
};
use crate::schema::{NumberType, PrimitiveSchema, Property, RequestedSchema};
use crate::wire::ElicitResult;

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

/// One property: its answer so far, and whether its verdict is shown yet (once it was
/// edited or left, or Send was tried).
#[derive(Debug)]
struct Field {
    property: Property,
    alone: RequestedSchema,
    entry: Entry,
    touched: bool,
}

impl Field {
    fn new(property: &Property) -> Self {
        Field {
            property: property.clone(),
            alone: answer::alone(property),
            entry: Entry::new(property),
            touched: false,
        }
    }

    /// Why the answer is rejected, by the crate's own validator.
    fn error(&self) -> Option<String> {
        let value = match (self.entry.value(), &self.entry) {
            (Ok(value), _) => value,
            (Err(()), Entry::Number(input, kind)) => {
                return Some(not_a_number(&self.property, *kind, input.text()));
            }
            (Err(()), _) => None,
        };
        answer::verdict(&self.alone, value.as_ref()).err()
    }

    fn lines(&self, focused: bool, theme: Theme, out: &mut Vec<(Pieces, usize)>) {
        let label = label_of(&self.property);
        let mut head = vec![marker(focused, theme), (label.to_owned(), theme.heading())];
        if self.property.required {
            head.push((" *".to_owned(), theme.heading()));
        }
        out.push((head, 4));
        let mut value: Pieces = vec![("    ".to_owned(), Style::new())];
        self.entry.pieces(focused, theme, &mut value);
        out.push((value, 4));
        let help = self.help();
        if !help.is_empty() {
            out.push((plain(&format!("    {help}"), theme.dim()), 4));
        }
        if self.touched
            && let Some(error) = self.error()
        {
            out.push((plain(&format!("    ✗ {error}"), theme.error()), 6));
        }
    }

    /// The description, then what the field takes.
    fn help(&self) -> String {
        let schema = &self.property.schema;
        let mut parts: Vec<String> = schema
            .description()
            .map(str::to_owned)
            .into_iter()
            .collect();
        match schema {
            PrimitiveSchema::String(s) => parts.extend(string_rules(s)),
            PrimitiveSchema::Number(s) => parts.extend(number_rules(s)),
            _ => {}
        }
        let (min, max) = item_bounds(schema);
        parts.extend(count_rule(min, max));
        if has_no_choices(&self.property) {
            parts.push("offers no choices".to_owned());
        }
        parts.join(" · ")
    }
}

/// A field's answer as it is being given.
#[derive(Debug)]
enum Entry {
    Text(Input),
    Number(Input, NumberType),
    /// `None`: not answered.
    Boolean {
        value: Option<bool>,
        required: bool,
    },
    /// The picked choice; an optional select starts with an entry that leaves it empty.
    Single {
        choices: Vec<Choice>,
        picked: usize,
    },
    Multi {
        choices: Vec<Choice>,
        ticked: Vec<bool>,
        cursor: usize,
        required: bool,
    },
    /// A select with nothing to pick.
    NoChoices(Option<Value>),
}

impl Entry {
    /// The answer to start from: the default, if any.
    fn new(property: &Property) -> Entry {
        let start = property.schema.default_value();
        if has_no_choices(property) {
            return Entry::NoChoices(empty_selection(property));
        }
        match &property.schema {
            PrimitiveSchema::String(_) => Entry::Text(Input::new(
                start
                    .as_ref()
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            )),
            PrimitiveSchema::Number(s) => Entry::Number(
                Input::new(start.as_ref().map(Value::to_string).unwrap_or_default()),
                s.kind,
            ),
            PrimitiveSchema::Boolean(_) => Entry::Boolean {
                value: start.as_ref().and_then(Value::as_bool),
                required: property.required,
            },
            schema if is_multi(schema) => {
                let choices = choices_of(schema);
                let ticked = choices
                    .iter()
                    .map(|choice| match &start {
                        Some(Value::Array(items)) => items
                            .iter()
                            .any(|item| item.as_str() == choice.value.as_deref()),
                        _ => false,
                    })
                    .collect();
                Entry::Multi {
                    choices,
                    ticked,
                    cursor: 0,
                    required: property.required,
                }
            }
            schema => {
                let mut choices = choices_of(schema);
                if !property.required {
                    choices.insert(0, Choice::leave_empty());
                }
                let start = start.as_ref().and_then(Value::as_str);
                let picked = choices
                    .iter()
                    .position(|choice| choice.value.as_deref() == start)
                    .unwrap_or(0);
                Entry::Single { choices, picked }
            }
        }
    }

    /// The value the answer sends (`None`: left out); `Err` when typed text is not a number.
    fn value(&self) -> Result<Option<Value>, ()> {
        Ok(match self {
            Entry::Text(input) => text_value(input.text()),
            Entry::Number(input, kind) => number_value(input.text(), *kind)?,
            Entry::Boolean { value, .. } => value.map(Value::Bool),
            Entry::Single { choices, picked } => choices
                .get(*picked)
                .and_then(|choice| choice.value.clone())
                .map(Value::String),
            Entry::Multi {
                choices,
                ticked,
                required,
                ..
            } => picked_value(
                *required,
                choices
                    .iter()
                    .zip(ticked)
                    .filter(|(_, ticked)| **ticked)
                    .map(|(choice, _)| choice),
            ),
            Entry::NoChoices(value) => value.clone(),
        })
    }

    /// Takes a key; `true` when the answer changed.
    fn handle(&mut self, key: KeyEvent) -> bool {
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match self {
            Entry::Text(input) | Entry::Number(input, _) => input.handle(key),
            Entry::Boolean { value, required } => {
                let next = match key.code {
                    KeyCode::Char('y' | 'Y') if plain => Some(true),
                    KeyCode::Char('n' | 'N') if plain => Some(false),
                    KeyCode::Char(' ') | KeyCode::Left | KeyCode::Right => match value {
                        None => Some(true),
                        Some(true) => Some(false),
                        // An optional yes/no can be taken back to no answer.
                        Some(false) if !*required => None,
                        Some(false) => Some(true),
                    },
                    KeyCode::Backspace | KeyCode::Delete if !*required => None,
                    _ => return false,
                };
                let changed = next != *value;
                *value = next;
                changed
            }
            Entry::Single { choices, picked } => {
                let before = *picked;
                match key.code {
                    KeyCode::Left => *picked = picked.saturating_sub(1),
                    KeyCode::Right | KeyCode::Char(' ') => {
                        *picked = (*picked + 1).min(choices.len().saturating_sub(1));
                    }
                    _ => return false,
                }
                before != *picked
            }
            Entry::Multi {
                choices,
                ticked,
                cursor,
                ..
            } => match key.code {
                KeyCode::Left => {
                    *cursor = cursor.saturating_sub(1);
                    false
                }
                KeyCode::Right => {
                    *cursor = (*cursor + 1).min(choices.len().saturating_sub(1));
                    false
                }
                KeyCode::Char(' ') => match ticked.get_mut(*cursor) {
                    Some(tick) => {
                        *tick = !*tick;
                        true
                    }
                    None => false,
                },
                _ => false,
            },
            Entry::NoChoices(_) => false,
        }
    }

    /// The answer as drawn: text with its cursor, choices with the picked or ticked marked.
    fn pieces(&self, focused: bool, theme: Theme, out: &mut Pieces) {
        let choice = |text: String, current: bool, out: &mut Pieces| {
            let style = if focused && current {
                theme.focus()
            } else {
                Style::new()
            };
            out.push((text, style));
            out.push(("  ".to_owned(), Style::new()));
        };
        match self {
            Entry::Text(input) | Entry::Number(input, _) => {
                let (before, under, after) = input.around_cursor();
                out.push(("[".to_owned(), theme.dim()));
                out.push((before.to_owned(), Style::new()));
                if focused {
                    out.push((under.unwrap_or(' ').to_string(), theme.focus()));
                } else if let Some(under) = under {
                    out.push((under.to_string(), Style::new()));
                }
                out.push((after.to_owned(), Style::new()));
                out.push(("]".to_owned(), theme.dim()));
            }
            Entry::Boolean { value, .. } => {
                for (answer, title) in [(true, "Yes"), (false, "No")] {
                    let mark = if *value == Some(answer) {
                        "(•)"
                    } else {
                        "( )"
                    };
                    choice(format!("{mark} {title}"), *value == Some(answer), out);
                }
            }
            Entry::Single { choices, picked } => {
                for (index, option) in choices.iter().enumerate() {
                    let mark = if index == *picked { "(•)" } else { "( )" };
                    choice(format!("{mark} {}", option.title), index == *picked, out);
                }
            }
            Entry::Multi {
                choices,
                ticked,
                cursor,
                ..
            } => {
                for (index, option) in choices.iter().enumerate() {
                    let mark = if ticked[index] { "[x]" } else { "[ ]" };
                    choice(format!("{mark} {}", option.title), index == *cursor, out);
                }
            }
            Entry::NoChoices(_) => out.push(("(no choices)".to_owned(), theme.dim())),
        }
    }
}
