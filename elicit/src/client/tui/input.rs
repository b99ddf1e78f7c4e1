//! A one-line text input: the text, a cursor in it, and the keys that edit it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The text of a field being typed, with the cursor as a char index.
#[derive(Clone, Debug, Default)]
pub(super) struct Input {
    text: String,
    cursor: usize,
}

impl Input {
    /// A field holding `text`, the cursor after it.
    pub(super) fn new(text: String) -> Self {
        let cursor = text.chars().count();
        Input { text, cursor }
    }

    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// The text split at the cursor: before it, the char under it (if any), after it.
    pub(super) fn around_cursor(&self) -> (&str, Option<char>, &str) {
        let at = self.byte_index(self.cursor);
        let rest = &self.text[at..];
        let mut chars = rest.chars();
        let under = chars.next();
        (&self.text[..at], under, chars.as_str())
    }

    /// Edits for `key`; `true` when the text changed. Keys it does not take are left to the
    /// form (moving between fields, the buttons).
    pub(super) fn handle(&mut self, key: KeyEvent) -> bool {
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if control => {
                let changed = !self.text.is_empty();
                self.text.clear();
                self.cursor = 0;
                changed
            }
            KeyCode::Char('a') if control => {
                self.cursor = 0;
                false
            }
            KeyCode::Char('e') if control => {
                self.cursor = self.len();
                false
            }
            KeyCode::Char(c) if !control && !c.is_control() => {
                let at = self.byte_index(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
                true
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let at = self.byte_index(self.cursor);
                self.text.remove(at);
                true
            }
            KeyCode::Delete if self.cursor < self.len() => {
                let at = self.byte_index(self.cursor);
                self.text.remove(at);
                true
            }
            KeyCode::Left => {
                self.cursor = self.cursor.saturating_sub(1);
                false
            }
            KeyCode::Right => {
                self.cursor = (self.cursor + 1).min(self.len());
                false
            }
            KeyCode::Home => {
                self.cursor = 0;
                false
            }
            KeyCode::End => {
                self.cursor = self.len();
                false
            }
            _ => false,
        }
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    fn byte_index(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(index, _)| index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn edits_at_the_cursor_in_chars_not_bytes() {
        let mut input = Input::new("Zoë".to_owned());
        assert!(!input.handle(key(KeyCode::Left)));
        assert!(input.handle(key(KeyCode::Backspace)));
        assert_eq!(input.text(), "Zë");
        assert!(input.handle(key(KeyCode::Char('o'))));
        assert_eq!(input.text(), "Zoë");
        assert_eq!(input.around_cursor(), ("Zo", Some('ë'), ""));
        assert!(input.handle(key(KeyCode::Delete)));
        assert!(!input.handle(key(KeyCode::Delete)));
        assert_eq!(input.text(), "Zo");
    }
}
