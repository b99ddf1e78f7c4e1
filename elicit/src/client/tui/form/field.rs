//! One field of the form: its answer as it is being given, its verdict, and its lines.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use serde_json::Value;

use super::{marker, plain};
use crate::client::answer::{
    self, Choice, choices_of, count_rule, empty_selection, has_no_choices, is_multi, item_bounds,
    label_of, not_a_number, number_rules, number_value, picked_value, string_rules, text_value,
};
use crate::client::tui::input::Input;
use crate::client::tui::text::{Pieces, Theme};
use crate::schema::{NumberType, PrimitiveSchema, Property, RequestedSchema};

/// One property: its answer so far, and whether its verdict is shown yet (once it was
/// edited or left, or Send was tried).
#[derive(Debug)]
pub(super) struct Field {
    pub(super) property: Property,
    pub(super) alone: RequestedSchema,
    pub(super) entry: Entry,
    pub(super) touched: bool,
}

impl Field {
    pub(super) fn new(property: &Property) -> Self {
        Field {
            property: property.clone(),
            alone: answer::alone(property),
            entry: Entry::new(property),
            touched: false,
        }
    }

    /// Why the answer is rejected, by the crate's own validator.
    pub(super) fn error(&self) -> Option<String> {
        let value = match (self.entry.value(), &self.entry) {
            (Ok(value), _) => value,
            (Err(()), Entry::Number(input, kind)) => {
                return Some(not_a_number(&self.property, *kind, input.text()));
            }
            (Err(()), _) => None,
        };
        answer::verdict(&self.alone, value.as_ref()).err()
    }

    pub(super) fn lines(&self, focused: bool, theme: Theme, out: &mut Vec<(Pieces, usize)>) {
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
    pub(super) fn help(&self) -> String {
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
pub(super) enum Entry {
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
    pub(super) fn new(property: &Property) -> Entry {
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
    pub(super) fn value(&self) -> Result<Option<Value>, ()> {
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
    pub(super) fn handle(&mut self, key: KeyEvent) -> bool {
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
    pub(super) fn pieces(&self, focused: bool, theme: Theme, out: &mut Pieces) {
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
