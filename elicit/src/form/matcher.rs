//! A field's `pattern` compiled for the one question `from_content` asks of it: does this
//! string match? A `regex::Regex` answers through a pool of search caches and a strategy chosen
//! per call, which costs more than the match itself on a form's short strings. A fully built
//! DFA answers with a plain loop over the bytes and needs no cache, so a pattern gets one when
//! it can be built within a small size; a pattern it cannot express (a Unicode word boundary)
//! or that would grow too large keeps the `regex::Regex`. Both follow the `regex` crate's
//! syntax and semantics (same parser, Unicode and UTF-8 modes on), so they accept the same
//! strings; the tests below hold them to that.

use std::collections::HashMap;

use regex_automata::dfa::{Automaton, dense};
use regex_automata::util::primitives::StateID;
use regex_automata::util::{start, syntax};

/// The largest DFA a pattern may build into (and determinize through); beyond it the pattern
/// keeps the general engine rather than costing memory per pattern.
const DFA_SIZE_LIMIT: usize = 1 << 20;

/// A compiled `pattern`: the source it came from, the general engine, and the DFA when the
/// pattern has one.
#[derive(Debug)]
pub struct Matcher {
    source: String,
    general: regex::Regex,
    dfa: Option<Walk>,
}

/// A pattern's DFA laid out for `is_match` alone: one table lookup per byte, or per two bytes
/// when the table of pairs is small, and no test in the loop. Every match state of the DFA is
/// folded into one absorbing state (a match found is kept whatever follows), so the answer is
/// read once, at the end.
///
/// A walk costs the chain of its lookups, each waiting on the one before; reading two bytes a
/// lookup halves the chain on a form's short strings.
#[derive(Debug)]
struct Walk {
    /// Each byte's equivalence class: bytes no part of the pattern tells apart share one.
    classes: [u8; 256],
    /// Each byte's class times the number of classes: its place as the first byte of a pair.
    firsts: [u32; 256],
    /// The next state of state `s` on one byte of class `c`, at `s + c`. A state is the first
    /// index of its row; a row is as wide as the pairs' when there are pairs.
    single: Box<[u32]>,
    /// The next state of state `s` on two bytes of classes `c1` and `c2`, at
    /// `s + c1 * classes + c2`, when that table is at most [`PAIRS_LIMIT`] entries.
    pairs: Option<Box<[u32]>>,
    /// Whether the end of the text in state `s` completes a match, at `s`.
    matches_at_end: Box<[bool]>,
    start: u32,
    /// The absorbing state every match state of the DFA became.
    matched: u32,
}

/// The most entries of a table of pairs: 64 KiB of transitions, small enough to stay in cache
/// beside a form's other work (a phone number's pattern needs 7 KiB). A pattern with many
/// classes (a Unicode class) or states walks one byte a lookup.
const PAIRS_LIMIT: usize = 1 << 14;

impl Matcher {
    /// Compiles `pattern` in the `regex` crate's syntax, or says why it does not compile.
    pub fn new(pattern: &str) -> Result<Matcher, regex::Error> {
        let mut matcher = Matcher::for_one_use(pattern)?;
        matcher.dfa = build_walk(pattern);
        Ok(matcher)
    }

    /// Compiles `pattern` for a value or two (a schema checked once, not a derived form's
    /// cached pattern): the general engine alone, since building a DFA costs more than it
    /// saves on so few matches.
    pub fn for_one_use(pattern: &str) -> Result<Matcher, regex::Error> {
        // The general engine is the judge of what compiles, so errors read as they always did.
        Ok(Matcher {
            source: pattern.to_owned(),
            general: regex::Regex::new(pattern)?,
            dfa: None,
        })
    }

    /// Whether `text` matches anywhere (the pattern anchors itself with `^`/`$` when it means
    /// the whole value), as `regex::Regex::is_match` answers.
    #[inline]
    pub fn is_match(&self, text: &str) -> bool {
        match &self.dfa {
            Some(walk) => walk.is_match(text.as_bytes()),
            None => self.general_is_match(text),
        }
    }

    /// The general engine's answer, out of line: inlined, its search state made every walk
    /// of a DFA save registers and reserve stack it does not use.
    #[cold]
    #[inline(never)]
    fn general_is_match(&self, text: &str) -> bool {
        self.general.is_match(text)
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern walks its DFA two bytes a lookup: for the tests of the formats,
    /// whose fast paths are patterns too.
    #[cfg(test)]
    pub(crate) fn walks_in_pairs(&self) -> bool {
        self.dfa.as_ref().is_some_and(|walk| walk.pairs.is_some())
    }
}

impl Walk {
    /// Whether `bytes` holds a match: one transition per byte (or pair) from the start state,
    /// then the end of the text.
    #[inline]
    fn is_match(&self, bytes: &[u8]) -> bool {
        let mut state = self.start;
        let mut rest = bytes;
        // Indexes are in range: a state is a row's first index, and a class (or pair of
        // classes) is less than the row's width.
        if let Some(pairs) = &self.pairs {
            let mut twos = bytes.chunks_exact(2);
            for two in &mut twos {
                let pair =
                    self.firsts[usize::from(two[0])] + u32::from(self.classes[usize::from(two[1])]);
                state = pairs[(state + pair) as usize];
            }
            rest = twos.remainder();
        }
        for &byte in rest {
            state = self.single[(state + u32::from(self.classes[usize::from(byte)])) as usize];
        }
        state == self.matched || self.matches_at_end[state as usize]
    }

    /// The walk of `dfa` from `start`, or `None` when it reaches a quit state (none is
    /// configured, so never in practice) or outgrows [`DFA_SIZE_LIMIT`].
    fn of(dfa: &dense::DFA<Vec<u32>>, start: StateID) -> Option<Walk> {
        let byte_classes = dfa.byte_classes();
        let classes: [u8; 256] = std::array::from_fn(|b| byte_classes.get(b as u8));
        let automaton = Rows::of(dfa, start, &classes)?;
        let count = automaton.next.len();
        let class_count = usize::from(classes[255]) + 1;
        let paired = count * class_count * class_count <= PAIRS_LIMIT;
        let width = if paired {
            class_count * class_count
        } else {
            class_count
        };
        let at = |row: u32| row * width as u32;
        let mut single = vec![0u32; count * width];
        let mut matches_at_end = vec![false; count * width];
        for (row, next) in automaton.next.iter().enumerate() {
            for (class, &to) in next.iter().enumerate() {
                single[row * width + class] = at(to);
            }
            matches_at_end[row * width] = automaton.matches_at_end[row];
        }
        let pairs = paired.then(|| {
            let mut pairs = vec![0u32; count * width];
            for (row, next) in automaton.next.iter().enumerate() {
                for (first, &middle) in next.iter().enumerate() {
                    for (second, &to) in automaton.next[middle as usize].iter().enumerate() {
                        pairs[row * width + first * class_count + second] = at(to);
                    }
                }
            }
            pairs.into_boxed_slice()
        });
        Some(Walk {
            classes,
            firsts: std::array::from_fn(|b| u32::from(classes[b]) * class_count as u32),
            single: single.into_boxed_slice(),
            pairs,
            matches_at_end: matches_at_end.into_boxed_slice(),
            start: at(automaton.start),
            matched: at(Rows::MATCHED),
        })
    }
}

/// The states of a DFA reachable from a start, numbered from 1 as they are reached (0 is the
/// absorbing match state), each with its next state per byte class.
struct Rows {
    next: Vec<Vec<u32>>,
    matches_at_end: Vec<bool>,
    start: u32,
}

impl Rows {
    const MATCHED: u32 = 0;

    fn of(dfa: &dense::DFA<Vec<u32>>, start: StateID, classes: &[u8; 256]) -> Option<Rows> {
        let class_count = usize::from(classes[255]) + 1;
        // The first byte of each class stands for all of its bytes.
        let mut representatives = vec![0u8; class_count];
        for b in (0..=255u8).rev() {
            representatives[usize::from(classes[usize::from(b)])] = b;
        }
        let mut numbers: HashMap<StateID, u32> = HashMap::new();
        let mut reached: Vec<StateID> = Vec::new();
        let mut number_of = |id: StateID, reached: &mut Vec<StateID>| -> u32 {
            *numbers.entry(id).or_insert_with(|| {
                reached.push(id);
                reached.len() as u32
            })
        };
        let start = number_of(start, &mut reached);
        let mut rows = Rows {
            next: vec![vec![Rows::MATCHED; class_count]],
            matches_at_end: vec![true],
            start,
        };
        while let Some(&id) = reached.get(rows.next.len() - 1) {
            let mut next = Vec::with_capacity(class_count);
            for &byte in &representatives {
                let to = dfa.next_state(id, byte);
                if dfa.is_quit_state(to) {
                    return None;
                }
                next.push(if dfa.is_match_state(to) {
                    Rows::MATCHED
                } else {
                    number_of(to, &mut reached)
                });
            }
            rows.next.push(next);
            rows.matches_at_end
                .push(dfa.is_match_state(dfa.next_eoi_state(id)));
            if rows.next.len() * class_count * 4 > DFA_SIZE_LIMIT {
                return None;
            }
        }
        Some(rows)
    }
}

/// A dense DFA for `pattern` with the `regex` crate's defaults, walked from a text's first
/// byte, or `None` when it cannot be built within [`DFA_SIZE_LIMIT`] (a Unicode word
/// boundary, a large Unicode class repeated), or when the pattern can match the empty string:
/// the walk finds a match's end, and only the general engine knows to skip an empty match
/// inside a code point.
fn build_walk(pattern: &str) -> Option<Walk> {
    let config = dense::Config::new()
        .dfa_size_limit(Some(DFA_SIZE_LIMIT))
        .determinize_size_limit(Some(DFA_SIZE_LIMIT))
        .accelerate(false)
        .specialize_start_states(false);
    let dfa = dense::Builder::new()
        .syntax(syntax::Config::new().unicode(true).utf8(true))
        .configure(config)
        .build(pattern)
        .ok()?;
    if dfa.has_empty() {
        return None;
    }
    let start = dfa.start_state(&start::Config::new()).ok()?;
    Walk::of(&dfa, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Patterns of the kinds forms use, and a few that stress the DFA's corners.
    const PATTERNS: &[&str] = &[
        r"^\+?[0-9][0-9 ]{6,18}[0-9]$",
        r"^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$",
        r"^[a-z0-9_-]{3,16}$",
        r"[0-9]",
        r"^$",
        r"",
        r"^\p{L}+$",
        r"^\w+@\w+\.\w+$",
        r"(?i)^abc",
        r"\d{3}-\d{4}",
        r"^(foo|bar)+$",
        r"é+",
        r"^.{2,4}$",
        r"\bword\b",
        r"\Bx",
    ];

    /// Every string of length up to 4 over an alphabet touching each pattern's classes.
    fn samples() -> Vec<String> {
        let alphabet = [
            'a', 'A', 'z', 'Z', '0', '9', ' ', '+', '-', '_', '@', '.', 'é', 'ß', 'Ω', '\n',
        ];
        let mut all = vec![String::new()];
        let mut layer = vec![String::new()];
        for _ in 0..4 {
            layer = layer
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(layer.iter().cloned());
        }
        all.extend(
            [
                "+44 20 7946 0958",
                "020 7946 0958",
                "SW1A 1AA",
                "EC1A1BB",
                "foobarfoo",
                "foo@bar.baz",
                "ABCdef",
                "555-1234",
                "a word here",
                "swordx",
            ]
            .map(String::from),
        );
        all
    }

    #[test]
    fn the_dfa_accepts_exactly_what_the_regex_crate_accepts() {
        let samples = samples();
        for pattern in PATTERNS {
            let matcher = Matcher::new(pattern).unwrap();
            let regex = regex::Regex::new(pattern).unwrap();
            for sample in &samples {
                assert_eq!(
                    matcher.is_match(sample),
                    regex.is_match(sample),
                    "pattern {pattern:?} on {sample:?}"
                );
            }
        }
    }

    #[test]
    fn form_patterns_get_the_dfa_and_empty_matches_and_unicode_word_boundaries_do_not() {
        let phone = Matcher::new(r"^\+?[0-9][0-9 ]{6,18}[0-9]$").unwrap();
        assert!(phone.dfa.as_ref().is_some_and(|walk| walk.pairs.is_some()));
        // Too many classes for a table of pairs: one byte a step.
        let letters = Matcher::new(r"^\p{L}+$").unwrap();
        assert!(
            letters
                .dfa
                .as_ref()
                .is_some_and(|walk| walk.pairs.is_none())
        );
        let word = Matcher::new(r"\bword\b").unwrap();
        assert!(word.dfa.is_none());
        let empty = Matcher::new(r"^[a-z]*$").unwrap();
        assert!(empty.dfa.is_none());
    }

    #[test]
    fn a_pattern_that_does_not_compile_says_why() {
        let err = Matcher::new("(").unwrap_err();
        assert!(err.to_string().contains("unclosed group"), "{err}");
    }
}
