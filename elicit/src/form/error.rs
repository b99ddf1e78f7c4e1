//! Errors of accepted form content: every field at fault, each with what was expected.

use std::borrow::Cow;
use std::fmt;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::form::format::described;
use crate::schema::number::compare;
use crate::schema::{Number, StringFormat};

/// Why accepted form `content` does not match the form: one [`FieldError`] per field at fault.
///
/// Its `Display` lists every error on its own line, ready to show back to the user or the model,
/// and it serializes as `{"errors": [{"field": "age", "message": "..."}]}`.
///
/// ```
/// # use elicit_mcp::{Elicit, ContentError};
/// #[derive(Elicit)]
/// struct Age {
///     #[elicit(minimum = 18)]
///     age: u8,
/// }
/// let content = serde_json::json!({"age": 12});
/// let err: ContentError = Age::from_content(content.as_object().unwrap()).err().unwrap();
/// assert_eq!(err.to_string(), "`age`: must be at least 18, got 12");
/// assert_eq!(err.errors()[0].field(), "age");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ContentError {
    errors: Vec<FieldError>,
}

/// One field's error: the wire name and the problem.
///
/// ```
/// use elicit_mcp::{Elicit, Problem};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(rename_all = "camelCase")]
/// struct Signup {
///     #[elicit(format = "email")]
///     work_email: String,
/// }
///
/// let bad = serde_json::json!({"workEmail": 42});
/// let errors = Signup::from_content(bad.as_object().unwrap()).unwrap_err();
/// let error = &errors.errors()[0];
/// assert_eq!(error.field(), "workEmail"); // the wire name, as the client knows it
/// assert_eq!(error.problem(), &Problem::WrongType { expected: "a string", found: "an integer" });
/// assert_eq!(error.message(), "must be a string, got an integer");
/// assert_eq!(error.to_string(), "`workEmail`: must be a string, got an integer");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    field: Cow<'static, str>,
    problem: Problem,
}

/// What is wrong with one field's value.
///
/// Its `Display` is a sentence for the user or the model (`must be at least 3 characters long,
/// got 2`); match on the variants to react in code, for instance to ask again only for the
/// fields at fault.
///
/// ```
/// use elicit_mcp::{Elicit, Problem};
///
/// #[derive(Elicit, Debug)]
/// struct Booking {
///     #[elicit(minimum = 1, maximum = 8)]
///     guests: u8,
///     #[elicit(format = "date")]
///     day: String,
/// }
///
/// let bad = serde_json::json!({"guests": 20});
/// let errors = Booking::from_content(bad.as_object().unwrap()).unwrap_err();
/// assert!(matches!(errors.field("guests").unwrap().problem(), Problem::OutOfRange { .. }));
/// assert_eq!(errors.field("day").unwrap().problem(), &Problem::Missing);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Problem {
    /// A required field is absent (or `null`).
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        /// What the schema asks for, such as `"a string"`.
        expected: &'static str,
        /// What was sent, such as `"a boolean"`.
        found: &'static str,
    },
    /// An integer field got a number with a fractional part.
    NotAnInteger {
        /// The number sent.
        value: serde_json::Number,
    },
    /// A number outside the field's inclusive bounds.
    OutOfRange {
        /// The number sent.
        value: serde_json::Number,
        /// The smallest allowed value.
        minimum: Option<Number>,
        /// The largest allowed value.
        maximum: Option<Number>,
    },
    /// A string shorter than `minLength` code points.
    TooShort {
        /// The length sent, in Unicode code points.
        length: usize,
        /// The minimum length.
        min_length: u64,
    },
    /// A string longer than `maxLength` code points.
    TooLong {
        /// The length sent, in Unicode code points.
        length: usize,
        /// The maximum length.
        max_length: u64,
    },
    /// A string with no match of the field's `pattern`.
    PatternMismatch {
        /// The pattern.
        pattern: String,
    },
    /// The field's `pattern` is not a valid regular expression (only in schemas from a peer).
    InvalidPattern {
        /// The pattern.
        pattern: String,
        /// Why it does not compile.
        reason: String,
    },
    /// A string that is not of the field's `format`.
    InvalidFormat {
        /// The format.
        format: StringFormat,
        /// Why the value is not of it, as the end of a sentence; empty where the format's
        /// example in the message says it all (a date not written `YYYY-MM-DD`).
        reason: String,
    },
    /// A value that is not one of the choices.
    NotAChoice {
        /// The value sent.
        value: String,
        /// The allowed values.
        choices: Vec<String>,
    },
    /// An item of a multi-select that is not a string.
    ItemWrongType {
        /// The item's position.
        index: usize,
        /// What was sent.
        found: &'static str,
    },
    /// An item of a multi-select that is not one of the choices.
    ItemNotAChoice {
        /// The item's position.
        index: usize,
        /// The value sent.
        value: String,
        /// The allowed values.
        choices: Vec<String>,
    },
    /// The same choice twice in a multi-select.
    DuplicateItem {
        /// The repeated value.
        value: String,
    },
    /// Fewer items than `minItems`.
    TooFewItems {
        /// The number of items sent.
        count: usize,
        /// The minimum.
        min_items: u64,
    },
    /// More items than `maxItems`.
    TooManyItems {
        /// The number of items sent.
        count: usize,
        /// The maximum.
        max_items: u64,
    },
    /// The server's own `default` for an absent field breaks a rule of the field's type: a
    /// mistake in the form, not in the answer. The derive refuses such defaults at compile time
    /// where it can; a newtype's `pattern` can only be run when the default is used.
    InvalidDefault {
        /// The default, as written.
        default: String,
        /// The rule it breaks.
        problem: Box<Problem>,
    },
    /// A value given for a field the form does not have: a run-time default naming a field
    /// that is not in the form.
    NotInForm,
}

impl ContentError {
    /// The field errors, in the form's property order.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// The error of one field, by wire name.
    pub fn field(&self, name: &str) -> Option<&FieldError> {
        self.errors.iter().find(|e| e.field == name)
    }

    /// Takes the field errors.
    pub fn into_errors(self) -> Vec<FieldError> {
        self.errors
    }

    pub(crate) fn from_errors(errors: Vec<FieldError>) -> Self {
        ContentError { errors }
    }
}

impl FieldError {
    /// An error of the field with this wire name.
    pub fn new(field: impl Into<Cow<'static, str>>, problem: Problem) -> Self {
        FieldError {
            field: field.into(),
            problem,
        }
    }

    /// The field's wire name.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// What is wrong, as a sentence without the field name.
    pub fn message(&self) -> String {
        self.problem.to_string()
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ContentError {}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.field, self.problem)
    }
}

fn list(choices: &[String]) -> String {
    let quoted: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
    quoted.join(", ")
}

/// Which bound of a range a number crossed.
enum Bound<'a> {
    Below(&'a Number),
    Above(&'a Number),
}

/// The bound `value` crossed, when it crossed one (`None` for a problem made by hand with a
/// value inside its range).
fn out_of<'a>(
    value: &serde_json::Number,
    minimum: Option<&'a Number>,
    maximum: Option<&'a Number>,
) -> Option<Bound<'a>> {
    let below = |min: &Number| compare(value, min).is_lt();
    let above = |max: &Number| compare(value, max).is_gt();
    match (minimum, maximum) {
        (Some(min), _) if below(min) => Some(Bound::Below(min)),
        (_, Some(max)) if above(max) => Some(Bound::Above(max)),
        _ => None,
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing => f.write_str("is required"),
            Problem::WrongType { expected, found } => write!(f, "must be {expected}, got {found}"),
            Problem::NotAnInteger { value } => write!(f, "must be a whole number, got {value}"),
            Problem::OutOfRange {
                value,
                minimum,
                maximum,
            } => match out_of(value, minimum.as_ref(), maximum.as_ref()) {
                // Only the bound the value crossed: a bound the field's type sets (`u32`'s
                // 4294967295) means nothing to a person who wrote -1.
                Some(Bound::Below(min)) => write!(f, "must be at least {min}, got {value}"),
                Some(Bound::Above(max)) => write!(f, "must be at most {max}, got {value}"),
                None => match (minimum, maximum) {
                    (Some(min), Some(max)) => {
                        write!(f, "must be between {min} and {max}, got {value}")
                    }
                    _ => write!(f, "is out of range: {value}"),
                },
            },
            Problem::TooShort { length, min_length } => write!(
                f,
                "must be at least {min_length} characters long, got {length}"
            ),
            Problem::TooLong { length, max_length } => write!(
                f,
                "must be at most {max_length} characters long, got {length}"
            ),
            Problem::PatternMismatch { pattern } => write!(f, "must match the pattern {pattern}"),
            Problem::InvalidPattern { pattern, reason } => {
                write!(
                    f,
                    "has a pattern that is not a valid regex ({pattern}): {reason}"
                )
            }
            Problem::InvalidFormat { format, reason } if reason.is_empty() => {
                write!(f, "must be {}", described(*format))
            }
            Problem::InvalidFormat { format, reason } => {
                write!(f, "must be {} ({reason})", described(*format))
            }
            Problem::NotAChoice { value, choices } => {
                write!(f, "must be one of {}, got \"{value}\"", list(choices))
            }
            Problem::ItemWrongType { index, found } => {
                write!(f, "item {index} must be a string, got {found}")
            }
            Problem::ItemNotAChoice {
                index,
                value,
                choices,
            } => write!(
                f,
                "item {index} must be one of {}, got \"{value}\"",
                list(choices)
            ),
            Problem::DuplicateItem { value } => write!(f, "lists \"{value}\" more than once"),
            Problem::TooFewItems { count, min_items } => {
                write!(f, "needs at least {min_items} selected, got {count}")
            }
            Problem::TooManyItems { count, max_items } => {
                write!(f, "allows at most {max_items} selected, got {count}")
            }
            Problem::InvalidDefault { default, problem } => write!(
                f,
                "was absent, and the form's default \"{default}\" {problem} (fix the default in the server's form)"
            ),
            Problem::NotInForm => write!(f, "is not a field of this form"),
        }
    }
}

impl Serialize for ContentError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ContentError", 1)?;
        s.serialize_field("errors", &self.errors)?;
        s.end()
    }
}

impl Serialize for FieldError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("field", &self.field)?;
        map.serialize_entry("message", &self.problem.to_string())?;
        map.end()
    }
}
