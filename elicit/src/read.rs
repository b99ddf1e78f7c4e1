//! How a derived form reads one field of the client's content: its pattern compiled once, the
//! field's value or its error, and the errors of one `from_content` call collected. The
//! generated code reaches these through `__private`; `field.rs` calls them directly, so the
//! field mapping does not depend on the private module that re-exports it.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::error::{ContentError, FieldError, Problem};
use crate::field::ElicitField;
use crate::schema::Property;

/// A `pattern` compiled, or why it did not compile.
type Compiled = Result<Regex, String>;

/// A field's `pattern`, compiled once on first use.
pub struct Pattern {
    source: &'static str,
    regex: LazyLock<Compiled, fn() -> Compiled>,
}

impl Pattern {
    /// The pattern `source`, compiled by `compile` on first use.
    pub const fn new(source: &'static str, compile: fn() -> Result<Regex, String>) -> Self {
        Pattern {
            source,
            regex: LazyLock::new(compile),
        }
    }

    /// Compiles `pattern`, or says why it does not compile.
    pub fn compile(pattern: &str) -> Result<Regex, String> {
        Regex::new(pattern).map_err(|e| e.to_string())
    }

    /// The compiled pattern, or the problem a field reports when it did not compile.
    pub fn get(&self) -> Result<&Regex, Problem> {
        // The derive proved the pattern compiles; a failure here would be a regex version skew.
        self.regex
            .as_ref()
            .map_err(|reason| Problem::InvalidPattern {
                pattern: self.source.to_owned(),
                reason: reason.clone(),
            })
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

    /// Every error collected, as the error of `from_content`.
    pub fn into_error(self) -> ContentError {
        ContentError::from_errors(self.0)
    }
}

/// Reads one field from the value found under its name (`slot`): absent or `null` falls back on
/// the default, then on `None` for optional fields; a present value is checked against the
/// property's schema.
///
/// Inlined into each derived `from_content`, where `property` is a constant: the checks its
/// schema does not ask for fold away.
#[inline(always)]
pub fn field<T: ElicitField>(
    slot: Option<&Value>,
    property: &'static Property,
    pattern: Option<&Pattern>,
    default: Option<fn() -> Result<T, Problem>>,
    errors: &mut Errors,
) -> Option<T> {
    let outcome = match slot {
        None | Some(Value::Null) => match default {
            Some(default) => default(),
            None => T::absent().ok_or(Problem::Missing),
        },
        Some(value) => match pattern.map(Pattern::get).transpose() {
            Ok(regex) => T::from_json(value, &property.schema, regex),
            Err(problem) => Err(problem),
        },
    };
    match outcome {
        Ok(value) => Some(value),
        Err(problem) => {
            errors.0.push(FieldError::new(name_of(property), problem));
            None
        }
    }
}

fn name_of(property: &'static Property) -> Cow<'static, str> {
    match &property.name {
        Cow::Borrowed(name) => Cow::Borrowed(name),
        Cow::Owned(name) => Cow::Owned(name.clone()),
    }
}
