//! Strings for a field's `pattern`: generated from the pattern itself, read in the syntax of the
//! `regex` crate as the derive reads it, and the same with one character changed to one where
//! the `regex` crate's reading and ECMA-262's (which JSON Schema names) could part: a digit or
//! a letter outside ASCII, a space that is not U+0020, a line break.

use proptest::prelude::*;
use proptest::sample::select;
use regex_syntax::hir::{Capture, Hir, HirKind, Repetition};

/// Characters on which two dialects of a pattern may disagree: `\d`, `\w` and `\s` are
/// Unicode-aware in the `regex` crate and ASCII in ECMA-262 (`\s` aside), and `.` stops at
/// different line breaks.
const DIALECT_EDGES: &[char] = &[
    '٣', 'Ⅻ', 'é', 'É', 'ſ', '\u{212A}', '\u{a0}', '\u{feff}', '\u{2028}', '\r', '\n', '_',
];

/// Strings from `pattern`, most of them matching it, the rest one character away; `None` when
/// no string can be generated from it (a pattern the syntax refuses).
pub(super) fn near(pattern: &str, slack: u32, filler: usize) -> Option<BoxedStrategy<String>> {
    let matching = matching(pattern, slack, filler)?;
    let edited = (
        matching.clone(),
        any::<prop::sample::Index>(),
        select(DIALECT_EDGES),
        0..3u8,
    )
        .prop_map(|(text, at, edge, how)| edit(&text, at, edge, how));
    Some(prop_oneof![3 => matching, 2 => edited].boxed())
}

/// Strings from `pattern`: its anchors dropped, up to `filler` characters added where it has
/// none (so that a `min_length` past the pattern's own can be met), each unbounded repetition
/// at most `slack` past its minimum. Most match; `None` as for [`near`].
pub(super) fn matching(pattern: &str, slack: u32, filler: usize) -> Option<BoxedStrategy<String>> {
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let core = proptest::string::string_regex_parsed(&generable(&hir, slack)).ok()?;
    let free_start = !pattern.starts_with('^');
    let free_end = !pattern.ends_with('$') || pattern.ends_with("\\$");
    let around = move |free: bool| {
        if free {
            proptest::collection::vec(select(vec!['a', 'z', '0', ' ', 'é']), 0..=filler)
                .prop_map(String::from_iter)
                .boxed()
        } else {
            Just(String::new()).boxed()
        }
    };
    Some(
        (around(free_start), core, around(free_end))
            .prop_map(|(before, core, after)| before + &core + &after)
            .boxed(),
    )
}

/// `hir` as proptest can generate from it: anchors and boundaries as nothing (proptest has no
/// strategy for them), unbounded repetitions bounded.
fn generable(hir: &Hir, slack: u32) -> Hir {
    match hir.kind() {
        HirKind::Look(_) => Hir::empty(),
        HirKind::Repetition(repetition) => Hir::repetition(Repetition {
            min: repetition.min,
            max: Some(
                repetition
                    .max
                    .unwrap_or(repetition.min.saturating_add(slack)),
            ),
            greedy: repetition.greedy,
            sub: Box::new(generable(&repetition.sub, slack)),
        }),
        HirKind::Capture(capture) => Hir::capture(Capture {
            index: capture.index,
            name: capture.name.clone(),
            sub: Box::new(generable(&capture.sub, slack)),
        }),
        HirKind::Concat(parts) => Hir::concat(parts.iter().map(|p| generable(p, slack)).collect()),
        HirKind::Alternation(parts) => {
            Hir::alternation(parts.iter().map(|p| generable(p, slack)).collect())
        }
        _ => hir.clone(),
    }
}

/// `text` with the character at `at` replaced by `edge` (`how` 0), `edge` inserted there (1),
/// or that character removed (2).
fn edit(text: &str, at: prop::sample::Index, edge: char, how: u8) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return edge.to_string();
    }
    let at = at.index(chars.len());
    match how {
        0 => chars[at] = edge,
        1 => chars.insert(at, edge),
        _ => {
            chars.remove(at);
        }
    }
    chars.into_iter().collect()
}
