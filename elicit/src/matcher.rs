//! A field's `pattern` compiled for the one question `from_content` asks of it: does this
//! string match? A `regex::Regex` answers through a pool of search caches and a strategy chosen
//! per call, which costs more than the match itself on a form's short strings. A fully built
//! DFA answers with a plain loop over the bytes and needs no cache, so a pattern gets one when
//! it can be built within a small size; a pattern it cannot express (a Unicode word boundary)
//! or that would grow too large keeps the `regex::Regex`. Both follow the `regex` crate's
//! syntax and semantics (same parser, Unicode and UTF-8 modes on), so they accept the same
//! strings; the tests below hold them to that.

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

/// A forward DFA and its start state for a search from a text's first byte.
#[derive(Debug)]
struct Walk {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
}

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
        match self
            .dfa
            .as_ref()
            .and_then(|walk| walk.is_match(text.as_bytes()))
        {
            Some(answer) => answer,
            None => self.general.is_match(text),
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }
}

impl Walk {
    /// One transition per byte from the start state, stopping at the first match or at the
    /// dead state; `None` at a quit state (none is configured, so never in practice), which
    /// leaves the answer to the general engine.
    #[inline]
    fn is_match(&self, bytes: &[u8]) -> Option<bool> {
        let dfa = &self.dfa;
        let mut state = self.start;
        for &byte in bytes {
            state = dfa.next_state(state, byte);
            if dfa.is_special_state(state) {
                if dfa.is_match_state(state) {
                    return Some(true);
                }
                if dfa.is_dead_state(state) {
                    return Some(false);
                }
                return None;
            }
        }
        state = dfa.next_eoi_state(state);
        if dfa.is_quit_state(state) {
            return None;
        }
        Some(dfa.is_match_state(state))
    }
}

/// A dense DFA for `pattern` with the `regex` crate's defaults and its start state at a text's
/// first byte, or `None` when it cannot be built within [`DFA_SIZE_LIMIT`] (a Unicode word
/// boundary, a large Unicode class repeated), or when the pattern can match the empty string:
/// the walk reports the earliest match's end, and only the general engine knows to skip an
/// empty match inside a code point.
fn build_walk(pattern: &str) -> Option<Walk> {
    let config = dense::Config::new()
        .dfa_size_limit(Some(DFA_SIZE_LIMIT))
        .determinize_size_limit(Some(DFA_SIZE_LIMIT))
        // No accelerated states: the walk's only special states are match, dead and quit.
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
    Some(Walk { dfa, start })
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
        assert!(phone.dfa.is_some());
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
