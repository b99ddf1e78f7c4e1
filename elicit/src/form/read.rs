//! What a derived form's reading of the client's content shares: a field's pattern compiled
//! once, a default checked against it, and the errors of one `from_content` call collected.
//! A leaf: the reading of one field (`field::read`) uses these, and the generated code reaches
//! them through `__private`.

use std::sync::LazyLock;

use crate::form::matcher::Matcher;

use crate::form::error::{ContentError, FieldError, Problem};

/// A `pattern` compiled, or why it did not compile.
type Compiled = Result<Matcher, String>;

/// A field's `pattern`, compiled once on first use.
pub struct Pattern {
    source: &'static str,
    regex: LazyLock<Compiled, fn() -> Compiled>,
}

impl Pattern {
    /// The pattern `source`, compiled by `compile` on first use.
    pub const fn new(source: &'static str, compile: fn() -> Result<Matcher, String>) -> Self {
        Pattern {
            source,
            regex: LazyLock::new(compile),
        }
    }

    /// Compiles `pattern`, or says why it does not compile.
    pub fn compile(pattern: &str) -> Result<Matcher, String> {
        Matcher::new(pattern).map_err(|e| e.to_string())
    }

    /// The compiled pattern, or the problem a field reports when it did not compile. Inlined,
    /// with the problem built out of line: every read of a field with a pattern asks for it.
    #[inline]
    pub fn get(&self) -> Result<&Matcher, Problem> {
        match &*self.regex {
            Ok(matcher) => Ok(matcher),
            Err(reason) => Err(self.not_compiled(reason)),
        }
    }

    /// The derive proved the pattern compiles; a failure here would be a regex version skew.
    #[cold]
    #[inline(never)]
    fn not_compiled(&self, reason: &str) -> Problem {
        Problem::InvalidPattern {
            pattern: self.source.to_owned(),
            reason: reason.to_owned(),
        }
    }
}

/// A newtype's `pattern` run on a string default of its field: the derive checks lengths and
/// bounds of defaults at compile time, but a regex only runs here, when the default is used.
/// Other literals (numbers, bools, choices) carry no pattern.
pub fn default_matches<L: DefaultText>(literal: &L, pattern: &Pattern) -> Result<(), Problem> {
    let Some(text) = literal.default_text() else {
        return Ok(());
    };
    if pattern.get()?.is_match(text) {
        return Ok(());
    }
    Err(Problem::InvalidDefault {
        default: text.to_owned(),
        problem: Box::new(Problem::PatternMismatch {
            pattern: pattern.source.to_owned(),
        }),
    })
}

/// The text of a default literal, when it is a string.
pub trait DefaultText {
    /// `Some` for a string literal.
    fn default_text(&self) -> Option<&str>;
}

impl DefaultText for &'static str {
    fn default_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl<E> DefaultText for &'static [E] {
    fn default_text(&self) -> Option<&str> {
        None
    }
}

macro_rules! no_default_text {
    ($($ty:ty),*) => {$(
        impl DefaultText for $ty {
            fn default_text(&self) -> Option<&str> {
                None
            }
        }
    )*};
}
no_default_text!(
    bool, f32, f64, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

/// Collects the field errors of one `from_content` call.
#[derive(Default)]
pub struct Errors(Vec<FieldError>);

impl Errors {
    /// No errors yet.
    pub fn new() -> Self {
        Errors(Vec::new())
    }

    /// Records the error of one field.
    pub(crate) fn push(&mut self, error: FieldError) {
        self.0.push(error);
    }

    /// Every error collected, as the error of `from_content`.
    pub fn into_error(self) -> ContentError {
        ContentError::from_errors(self.0)
    }
}
