//! The compile-time checks of a field's attributes against its type's [`Kind`]: the derive
//! evaluates them in constants it spans on the user's attribute, so a contradiction that only
//! the field's type reveals (through an alias, say) is a compile error there.

use std::borrow::Cow;

use super::{Choices, DefaultValue, Kind, StringRules};
use crate::schema::number::MAX_SAFE_INTEGER;
use crate::schema::{Number, StringFormat};

/// Whether a number or string default breaks the bounds or lengths `kind` carries: for a field
/// whose type declares them (a newtype), as the derive checks a field's own attributes.
pub const fn default_outside(kind: Kind, default: DefaultValue) -> bool {
    match (kind, default) {
        (Kind::Integer { minimum, maximum }, DefaultValue::Number(n)) => match n.as_i64() {
            Some(i) => i < minimum || i > maximum,
            None => false,
        },
        (Kind::Number { minimum, maximum }, DefaultValue::Number(n)) => {
            let below = match minimum {
                Some(min) => n.as_f64() < min.as_f64(),
                None => false,
            };
            let above = match maximum {
                Some(max) => n.as_f64() > max.as_f64(),
                None => false,
            };
            below || above
        }
        (Kind::String(rules), DefaultValue::Str(text)) => {
            let length = code_points(text);
            let short = match rules.min_length {
                Some(min) => length < min,
                None => false,
            };
            let long = match rules.max_length {
                Some(max) => length > max,
                None => false,
            };
            short || long
        }
        _ => false,
    }
}

/// The length of a text in code points, as JSON Schema counts it: the bytes that do not
/// continue a UTF-8 sequence.
const fn code_points(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] & 0xC0 != 0x80 {
            count += 1;
        }
        i += 1;
    }
    count
}

/// A string constraint a type may declare.
#[derive(Clone, Copy)]
pub enum StringRule {
    /// `min_length`
    MinLength,
    /// `max_length`
    MaxLength,
    /// `pattern`
    Pattern,
}

impl StringRule {
    /// The attribute's name, as the user writes it.
    pub const fn attribute(self) -> &'static str {
        match self {
            StringRule::MinLength => "min_length",
            StringRule::MaxLength => "max_length",
            StringRule::Pattern => "pattern",
        }
    }
}

/// Whether the field's type declares `rule` already, so a field attribute would replace it.
pub const fn type_declares(kind: Kind, rule: StringRule) -> bool {
    match (kind, rule) {
        (Kind::String(rules), StringRule::MinLength) => rules.min_length.is_some(),
        (Kind::String(rules), StringRule::MaxLength) => rules.max_length.is_some(),
        (Kind::String(rules), StringRule::Pattern) => rules.pattern.is_some(),
        _ => false,
    }
}

/// The format a string field's values have: the `format` attribute's, else its type's.
pub const fn declared_format(kind: Kind, attr: Option<StringFormat>) -> Option<StringFormat> {
    match (attr, kind) {
        (Some(format), _) => Some(format),
        (None, Kind::String(rules)) => rules.format,
        (None, _) => None,
    }
}

/// The type's own format when a `format` attribute names another one.
pub const fn format_clash(kind: Kind, attr: StringFormat) -> Option<StringFormat> {
    match kind {
        Kind::String(StringRules {
            format: Some(own), ..
        }) if own as u8 != attr as u8 => Some(own),
        _ => None,
    }
}

/// How a `minimum` or `maximum` fails to fit the field's type.
#[derive(Clone, Copy)]
pub enum BoundMisfit {
    /// A float bound on an integer field.
    NotAnInteger,
    /// Below the smallest value the field's type holds.
    BelowType,
    /// Above the largest value the field's type holds.
    AboveType,
    /// Past ±(2^53 - 1), where a wide integer type's mapping stops: a JSON number holds no exact
    /// integer beyond.
    BeyondJson,
}

impl BoundMisfit {
    /// What the derive's compile-time error says after the bound it quotes (`minimum = 300`).
    pub const fn says(self) -> &'static str {
        match self {
            BoundMisfit::NotAnInteger => {
                " is not an integer, but the field's type is: write a whole number, or make the field a float"
            }
            BoundMisfit::BelowType => {
                " is below the smallest value the field's type holds: raise it, or widen the type"
            }
            BoundMisfit::AboveType => {
                " is above the largest value the field's type holds: lower it, or widen the type"
            }
            BoundMisfit::BeyondJson => {
                " is beyond 2^53 - 1 (or below its negative), past which a JSON number holds no exact integer: integer fields of 64 bits and more are bounded there"
            }
        }
    }
}

/// Whether a `minimum` or `maximum` fits the field's type: an integer field takes integer bounds
/// within its type's range. The derive tests the answer in a constant it spans on the attribute
/// and panics there with the message ([`BoundMisfit::says`] after the bound as written), so the
/// error points at the user's attribute.
pub const fn bound_misfit(kind: Kind, bound: Option<Number>) -> Option<BoundMisfit> {
    match (kind, bound) {
        (Kind::Integer { minimum, maximum }, Some(bound)) => match bound.as_i64() {
            None => Some(BoundMisfit::NotAnInteger),
            Some(b) if b < minimum && minimum == -MAX_SAFE_INTEGER => Some(BoundMisfit::BeyondJson),
            Some(b) if b > maximum && maximum == MAX_SAFE_INTEGER => Some(BoundMisfit::BeyondJson),
            Some(b) if b < minimum => Some(BoundMisfit::BelowType),
            Some(b) if b > maximum => Some(BoundMisfit::AboveType),
            Some(_) => None,
        },
        _ => None,
    }
}

/// Whether `min_items` asks for more items than the multi-select has choices (spanned and
/// reported like [`bound_misfit`]).
pub const fn more_items_than_choices(kind: Kind, min_items: u64) -> bool {
    match kind {
        Kind::Multi(choices) => min_items > choices.values.len() as u64,
        _ => false,
    }
}

/// What a string `default` is on a field whose default is not text, so that the error says
/// what to write instead.
#[derive(Clone, Copy)]
pub enum TextDefaultMisfit {
    /// The field is a bool: `true` or `false`.
    Bool,
    /// The field is a number: a number literal.
    Number,
    /// The field is a single-select: its default is a variant, written as a path. `path` is the
    /// variant the text names (by its wire value, or its name) when `named`, else the first.
    Choice {
        /// Whether the text names `path`'s variant.
        named: bool,
        /// The variant as code names it: `Priority::High`.
        path: &'static str,
    },
    /// The field is a multi-select: its default is an array of variants (`path` as for
    /// [`Choice`](TextDefaultMisfit::Choice)).
    Multi {
        /// Whether the text names `path`'s variant.
        named: bool,
        /// The variant as code names it: `Color::Red`.
        path: &'static str,
    },
}

/// How a string `default` misfits a field of `kind`, `None` when the field's default is text (a
/// string, a typed value, a newtype of one). Checked at compile time before the default's type,
/// so that its error can name the fix (`default = true`, `default = Priority::High`).
pub const fn text_default_misfit(kind: Kind, text: &str) -> Option<TextDefaultMisfit> {
    match kind {
        Kind::String(_) => None,
        Kind::Boolean => Some(TextDefaultMisfit::Bool),
        Kind::Integer { .. } | Kind::Number { .. } => Some(TextDefaultMisfit::Number),
        Kind::Choice(choices) => {
            let (named, path) = variant_named(choices, text);
            Some(TextDefaultMisfit::Choice { named, path })
        }
        Kind::Multi(choices) => {
            let (named, path) = variant_named(choices, text);
            Some(TextDefaultMisfit::Multi { named, path })
        }
    }
}

/// The variant `text` means, with whether it means one: whose wire value is `text` (its
/// `rename` included), else whose name is (`High` of `Priority::High`), else the same two
/// ignoring ASCII case (`"high"` for `High`); else the first variant, as an example.
const fn variant_named(choices: Choices, text: &str) -> (bool, &'static str) {
    let mut ignore_case = false;
    loop {
        let mut i = 0;
        while i < choices.values.len() && i < choices.paths.len() {
            if let Cow::Borrowed(value) = &choices.values[i]
                && same(value, text, ignore_case)
            {
                return (true, choices.paths[i]);
            }
            i += 1;
        }
        let mut i = 0;
        while i < choices.paths.len() {
            if same(last_segment(choices.paths[i]), text, ignore_case) {
                return (true, choices.paths[i]);
            }
            i += 1;
        }
        if ignore_case {
            break;
        }
        ignore_case = true;
    }
    match choices.paths.first() {
        Some(path) => (false, path),
        None => (false, ""),
    }
}

/// The part of a path after its last `::`.
const fn last_segment(path: &'static str) -> &'static str {
    let bytes = path.as_bytes();
    let mut i = bytes.len();
    while i >= 2 {
        if bytes[i - 1] == b':' && bytes[i - 2] == b':' {
            return path.split_at(i).1;
        }
        i -= 1;
    }
    path
}

const fn same(a: &str, b: &str, ignore_case: bool) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let (x, y) = match ignore_case {
            true => (a[i].to_ascii_lowercase(), b[i].to_ascii_lowercase()),
            false => (a[i], b[i]),
        };
        if x != y {
            return false;
        }
        i += 1;
    }
    true
}
