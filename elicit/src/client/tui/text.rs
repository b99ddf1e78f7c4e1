//! Styled text laid out for a width: the widget's styles, with and without colour, and the
//! wrapping that makes every line count known before anything is drawn (so scrolling can keep
//! the focused field in view).

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The widget's styles. Without colour (`NO_COLOR`, <https://no-color.org>) everything that
/// matters still shows: by bold, underline, reverse video and the text's own marks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Theme {
    pub(super) colors: bool,
}

impl Theme {
    /// Colours on unless `NO_COLOR` is set to something.
    pub(super) fn from_env() -> Self {
        Theme {
            colors: std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty()),
        }
    }

    fn colored(self, style: Style, color: Color) -> Style {
        if self.colors { style.fg(color) } else { style }
    }

    /// Who asks: the first thing read.
    pub(super) fn server(self) -> Style {
        self.colored(Style::new().add_modifier(Modifier::BOLD), Color::Magenta)
    }

    pub(super) fn heading(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub(super) fn dim(self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    pub(super) fn error(self) -> Style {
        self.colored(Style::new().add_modifier(Modifier::BOLD), Color::Red)
    }

    pub(super) fn warning(self) -> Style {
        self.colored(Style::new().add_modifier(Modifier::BOLD), Color::Yellow)
    }

    /// The registrable domain: whoever owns it controls the page.
    pub(super) fn domain(self) -> Style {
        self.colored(
            Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            Color::Cyan,
        )
    }

    /// The focused field's marker, the focused choice or button, the text cursor.
    pub(super) fn focus(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }
}

/// One logical line of styled pieces, before wrapping.
pub(super) type Pieces = Vec<(String, Style)>;

/// `pieces` wrapped to `width` columns, breaking after a space where there is one; every
/// wrapped line after the first starts with `indent` spaces.
pub(super) fn wrap(pieces: &[(String, Style)], width: u16, indent: usize) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let indent = indent.min(width.saturating_sub(1));
    let chars: Vec<(char, Style)> = pieces
        .iter()
        .flat_map(|(text, style)| text.chars().map(move |c| (c, *style)))
        .collect();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut first = true;
    loop {
        let room = if first { width } else { width - indent };
        let rest = &chars[start..];
        let take = if rest.len() <= room {
            rest.len()
        } else {
            // After the last space that fits, or a hard break mid-word when there is none.
            rest[..room]
                .iter()
                .rposition(|(c, _)| *c == ' ')
                .map_or(room, |space| space + 1)
        };
        let mut line: Vec<(char, Style)> = Vec::new();
        if !first {
            line.extend(std::iter::repeat_n((' ', Style::new()), indent));
        }
        line.extend_from_slice(&rest[..take]);
        lines.push(spans_of(&line));
        start += take;
        first = false;
        if start >= chars.len() {
            return lines;
        }
    }
}

fn spans_of(chars: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut current: Option<Style> = None;
    for &(c, style) in chars {
        if current.is_some_and(|s| s != style) {
            spans.push(Span::styled(
                std::mem::take(&mut text),
                current.unwrap_or_default(),
            ));
        }
        current = Some(style);
        text.push(c);
    }
    if let Some(style) = current {
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn wraps_after_spaces_and_breaks_long_words() {
        let plain = |text: &str| vec![(text.to_owned(), Style::new())];
        assert_eq!(
            texts(&wrap(&plain("Where would you like to stay?"), 12, 2)),
            ["Where would ", "  you like ", "  to stay?"]
        );
        assert_eq!(
            texts(&wrap(&plain("https://example.com/abc"), 10, 0)),
            ["https://ex", "ample.com/", "abc"]
        );
        assert_eq!(texts(&wrap(&plain(""), 5, 0)), [""]);
    }

    #[test]
    fn styles_survive_a_wrap() {
        let pieces = vec![
            ("ab ".to_owned(), Style::new()),
            ("cdef".to_owned(), Style::new().add_modifier(Modifier::BOLD)),
        ];
        let lines = wrap(&pieces, 4, 0);
        assert_eq!(texts(&lines), ["ab ", "cdef"]);
        assert_eq!(lines[1].spans[0].style.add_modifier, Modifier::BOLD);
    }
}
