//! Checks of one value against one property schema. The derived parsers and the client-side
//! validation of any incoming schema both go through these functions, so the two cannot drift.

use std::borrow::Cow;

use crate::form::matcher::Matcher;
use serde_json::{Map, Value};

use crate::form::error::{ContentError, FieldError, Problem};
use crate::form::format;
use crate::schema::number::compare;
use crate::schema::{
    NumberSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringSchema, kind_of,
};

/// Checks a string against `minLength`, `maxLength`, `pattern` and `format`.
#[inline(always)]
pub(crate) fn check_string(
    schema: &StringSchema,
    value: &str,
    pattern: Option<&Matcher>,
) -> Result<(), Problem> {
    check_length_and_pattern(schema, value, pattern)?;
    if let Some(format) = schema.format {
        format::check(format, value).map_err(|reason| Problem::InvalidFormat { format, reason })?;
    }
    Ok(())
}

/// Checks a string against `minLength`, `maxLength` and `pattern`: all but its format, which a
/// typed value's parser checks.
#[inline(always)]
pub(crate) fn check_length_and_pattern(
    schema: &StringSchema,
    value: &str,
    pattern: Option<&Matcher>,
) -> Result<(), Problem> {
    if length_needs_count(schema, value.len()) {
        // JSON Schema counts length in code points, not bytes or graphemes.
        let length = value.chars().count();
        if let Some(min_length) = schema.min_length
            && (length as u64) < min_length
        {
            return Err(Problem::TooShort { length, min_length });
        }
        if let Some(max_length) = schema.max_length
            && (length as u64) > max_length
        {
            return Err(Problem::TooLong { length, max_length });
        }
    }
    if let Some(regex) = pattern
        && !regex.is_match(value)
    {
        return Err(Problem::PatternMismatch {
            pattern: regex.as_str().to_owned(),
        });
    }
    Ok(())
}

/// Whether the byte length leaves the code-point length bounds undecided. A UTF-8 text of `n`
/// bytes has between `n / 4` and `n` code points, so most texts pass both bounds without being
/// counted.
fn length_needs_count(schema: &StringSchema, bytes: usize) -> bool {
    let bytes = bytes as u64;
    let min_undecided = schema.min_length.is_some_and(|min| bytes / 4 < min);
    let max_undecided = schema.max_length.is_some_and(|max| bytes > max);
    min_undecided || max_undecided
}

/// Checks a JSON number against the schema's type (integer-ness) and inclusive bounds.
/// Always inlined: in a derived parser the schema is a constant, so the bounds it does not
/// have and the comparisons of the kind it is not fold away.
#[inline(always)]
pub(crate) fn check_number(
    schema: &NumberSchema,
    value: &serde_json::Number,
) -> Result<(), Problem> {
    if schema.kind == NumberType::Integer && !is_integral(value) {
        return Err(Problem::NotAnInteger {
            value: value.clone(),
        });
    }
    let below = schema
        .minimum
        .is_some_and(|min| compare(value, &min).is_lt());
    let above = schema
        .maximum
        .is_some_and(|max| compare(value, &max).is_gt());
    if below || above {
        return Err(Problem::OutOfRange {
            value: value.clone(),
            minimum: schema.minimum,
            maximum: schema.maximum,
        });
    }
    Ok(())
}

#[inline(always)]
fn is_integral(value: &serde_json::Number) -> bool {
    value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// The value of an integer field, exactly, or why it is none.
#[inline(always)]
pub(crate) fn integer(schema: &PrimitiveSchema, value: &Value) -> Result<i128, Problem> {
    let number = value.as_number().ok_or_else(|| Problem::WrongType {
        expected: "an integer",
        found: kind_of(value),
    })?;
    if let PrimitiveSchema::Number(s) = schema {
        check_number(s, number)?;
    }
    if let Some(i) = number.as_i64() {
        Ok(i.into())
    } else if let Some(u) = number.as_u64() {
        Ok(u.into())
    } else {
        match number.as_f64() {
            // Within ±2^63 the cast is exact for a float with no fractional part.
            Some(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(f as i128),
            Some(f) if f.fract() == 0.0 => Err(Problem::OutOfRange {
                value: number.clone(),
                minimum: None,
                maximum: None,
            }),
            _ => Err(Problem::NotAnInteger {
                value: number.clone(),
            }),
        }
    }
}

/// The value of a number field, or why it is none.
#[inline(always)]
pub(crate) fn float(schema: &PrimitiveSchema, value: &Value) -> Result<f64, Problem> {
    let number = value.as_number().ok_or_else(|| Problem::WrongType {
        expected: "a number",
        found: kind_of(value),
    })?;
    if let PrimitiveSchema::Number(s) = schema {
        check_number(s, number)?;
    }
    // The refusal is built only when it is one: built ahead, it would be dropped, out of line,
    // on every read that succeeds.
    match number.as_f64() {
        Some(float) => Ok(float),
        None => Err(Problem::WrongType {
            expected: "a number",
            found: "a number out of range",
        }),
    }
}

/// The choices of a select, for the error that lists them.
fn choices(schema: &PrimitiveSchema) -> Vec<String> {
    schema
        .choices()
        .unwrap_or_default()
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The text of a string value, or the wrong-type problem every string-shaped field reports.
pub(crate) fn as_text(value: &Value) -> Result<&str, Problem> {
    value.as_str().ok_or_else(|| Problem::WrongType {
        expected: "a string",
        found: kind_of(value),
    })
}

/// A single-select's value, checked to be a string and one of the choices.
pub(crate) fn choice<'v>(schema: &PrimitiveSchema, value: &'v Value) -> Result<&'v str, Problem> {
    let text = as_text(value)?;
    if schema.contains_choice(text) {
        Ok(text)
    } else {
        Err(Problem::NotAChoice {
            value: text.to_owned(),
            choices: choices(schema),
        })
    }
}

/// A multi-select's items, checked for count, type, membership and duplicates.
pub(crate) fn multi<'v>(
    schema: &PrimitiveSchema,
    value: &'v Value,
) -> Result<Vec<&'v str>, Problem> {
    let items = value.as_array().ok_or_else(|| Problem::WrongType {
        expected: "an array of strings",
        found: kind_of(value),
    })?;
    let (min_items, max_items) = match schema {
        PrimitiveSchema::MultiSelect(s) => (s.min_items, s.max_items),
        PrimitiveSchema::TitledMultiSelect(s) => (s.min_items, s.max_items),
        _ => (None, None),
    };
    let mut picked: Vec<&str> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let text = item.as_str().ok_or_else(|| Problem::ItemWrongType {
            index,
            found: kind_of(item),
        })?;
        if !schema.contains_choice(text) {
            return Err(Problem::ItemNotAChoice {
                index,
                value: text.to_owned(),
                choices: choices(schema),
            });
        }
        if picked.contains(&text) {
            return Err(Problem::DuplicateItem {
                value: text.to_owned(),
            });
        }
        picked.push(text);
    }
    if let Some(min_items) = min_items
        && (picked.len() as u64) < min_items
    {
        return Err(Problem::TooFewItems {
            count: picked.len(),
            min_items,
        });
    }
    if let Some(max_items) = max_items
        && (picked.len() as u64) > max_items
    {
        return Err(Problem::TooManyItems {
            count: picked.len(),
            max_items,
        });
    }
    Ok(picked)
}

/// Checks any value against any property schema.
pub(crate) fn check_value(
    schema: &PrimitiveSchema,
    value: &Value,
    pattern: Option<&Matcher>,
) -> Result<(), Problem> {
    match schema {
        PrimitiveSchema::String(s) => {
            let text = as_text(value)?;
            check_string(s, text, pattern)
        }
        PrimitiveSchema::Number(s) => {
            let number = value.as_number().ok_or_else(|| Problem::WrongType {
                expected: if s.kind == NumberType::Integer {
                    "an integer"
                } else {
                    "a number"
                },
                found: kind_of(value),
            })?;
            check_number(s, number)
        }
        PrimitiveSchema::Boolean(_) => match value {
            Value::Bool(_) => Ok(()),
            other => Err(Problem::WrongType {
                expected: "a boolean",
                found: kind_of(other),
            }),
        },
        PrimitiveSchema::SingleSelect(_)
        | PrimitiveSchema::TitledSingleSelect(_)
        | PrimitiveSchema::LegacyTitled(_) => choice(schema, value).map(drop),
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => {
            multi(schema, value).map(drop)
        }
    }
}

/// A compiled `pattern`, or the problem that makes every value of the field fail. Compiled for
/// the one value at hand, so without the DFA a derived form's cached pattern gets.
fn compile(property: &Property) -> Result<Option<Matcher>, Problem> {
    match &property.schema {
        PrimitiveSchema::String(StringSchema {
            pattern: Some(pattern),
            ..
        }) => Matcher::for_one_use(pattern)
            .map(Some)
            .map_err(|e| Problem::InvalidPattern {
                pattern: pattern.to_string(),
                reason: e.to_string(),
            }),
        _ => Ok(None),
    }
}

impl RequestedSchema {
    /// Checks accepted form `content` against this schema: required presence, types, bounds,
    /// lengths, patterns, formats, choices and multi-select counts, reporting every field at
    /// fault. Keys the schema does not define are ignored, as the derived parsers ignore them.
    ///
    /// This is the check a client runs before sending, and a server runs on a schema it did
    /// not derive; derived types run the same checks in
    /// [`Elicit::from_content`](crate::Elicit::from_content).
    ///
    /// ```
    /// use elicit_mcp::schema::RequestedSchema;
    /// let schema: RequestedSchema = serde_json::from_str(
    ///     r#"{"type":"object","properties":{"age":{"type":"integer","minimum":18}},
    ///         "required":["age"]}"#,
    /// ).unwrap();
    /// let content = serde_json::json!({"age": 17.5});
    /// let err = schema.validate_content(content.as_object().unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "`age`: must be a whole number, got 17.5");
    /// ```
    pub fn validate_content(&self, content: &Map<String, Value>) -> Result<(), ContentError> {
        let mut errors = Vec::new();
        for property in self.properties() {
            let problem = match content.get(&*property.name) {
                None | Some(Value::Null) if property.required => Some(Problem::Missing),
                None | Some(Value::Null) => None,
                Some(value) => match compile(property) {
                    Ok(regex) => check_value(&property.schema, value, regex.as_ref()).err(),
                    Err(problem) => Some(problem),
                },
            };
            if let Some(problem) = problem {
                errors.push(FieldError::new(
                    Cow::Owned(property.name.to_string()),
                    problem,
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ContentError::from_errors(errors))
        }
    }

    /// This schema with `values` as the defaults of their fields (by wire name), for defaults
    /// known only at run time and for a form asked again with the user's earlier answers.
    /// Each value is checked against its field first: every field the schema does not have,
    /// and every value its field refuses, is reported at once.
    ///
    /// `required` is left as it is: a client still shows the field as one to fill (pre-filled).
    /// Through rmcp's `Ask`, an answer that leaves it out all the same takes the default it was
    /// shown (the one rule for defaults).
    ///
    /// ```
    /// use elicit_mcp::schema::RequestedSchema;
    /// let schema: RequestedSchema = serde_json::from_str(
    ///     r#"{"type":"object","properties":{"nights":{"type":"integer","minimum":1}}}"#,
    /// ).unwrap();
    /// let defaults = serde_json::json!({"nights": 3});
    /// let filled = schema.with_defaults(defaults.as_object().unwrap()).unwrap();
    /// assert_eq!(filled.properties()[0].schema.default_value(), Some(serde_json::json!(3)));
    ///
    /// let wrong = serde_json::json!({"nights": 0, "rooms": 1});
    /// let errors = schema.with_defaults(wrong.as_object().unwrap()).unwrap_err();
    /// assert_eq!(
    ///     errors.to_string(),
    ///     "`nights`: must be at least 1, got 0\n`rooms`: is not a field of this form"
    /// );
    /// ```
    pub fn with_defaults(&self, values: &Map<String, Value>) -> Result<Self, ContentError> {
        let mut errors = Vec::new();
        let mut filled = self.clone();
        let properties = filled.properties.to_mut();
        for property in properties.iter_mut() {
            let Some(value) = values.get(&*property.name) else {
                continue;
            };
            let checked = compile(property)
                .and_then(|regex| check_value(&property.schema, value, regex.as_ref()));
            match checked.and_then(|()| set_default(&mut property.schema, value)) {
                Ok(()) => {}
                Err(problem) => errors.push(FieldError::new(property.name.to_string(), problem)),
            }
        }
        for name in values.keys() {
            if self.property(name).is_none() {
                errors.push(FieldError::new(name.clone(), Problem::NotInForm));
            }
        }
        if errors.is_empty() {
            Ok(filled)
        } else {
            Err(ContentError::from_errors(errors))
        }
    }

    /// Fills every field the user left out with the schema's `default`, where it has one.
    /// Returns the names filled in. Fields present (even `null`) are left as they are.
    ///
    /// ```
    /// use elicit_mcp::schema::RequestedSchema;
    /// let schema: RequestedSchema = serde_json::from_str(
    ///     r#"{"type":"object","properties":{"age":{"type":"integer","default":30}}}"#,
    /// ).unwrap();
    /// let mut content = serde_json::Map::new();
    /// assert_eq!(schema.apply_defaults(&mut content), vec!["age"]);
    /// assert_eq!(content["age"], 30);
    /// ```
    pub fn apply_defaults(&self, content: &mut Map<String, Value>) -> Vec<&str> {
        let mut filled = Vec::new();
        for property in self.properties() {
            if content.contains_key(&*property.name) {
                continue;
            }
            if let Some(default) = property.schema.default_value() {
                content.insert(property.name.to_string(), default);
                filled.push(&*property.name);
            }
        }
        filled
    }
}

/// Puts `value`, already checked against `schema`, as its default.
fn set_default(schema: &mut PrimitiveSchema, value: &Value) -> Result<(), Problem> {
    let text = || as_text(value).map(|t| Cow::Owned(t.to_owned()));
    let list = || -> Result<crate::schema::List<crate::schema::Text>, Problem> {
        let items = value.as_array().ok_or_else(|| Problem::WrongType {
            expected: "an array",
            found: crate::schema::kind_of(value),
        })?;
        items
            .iter()
            .map(|item| as_text(item).map(|t| Cow::Owned(t.to_owned())))
            .collect::<Result<Vec<_>, _>>()
            .map(Cow::Owned)
    };
    match schema {
        PrimitiveSchema::String(s) => s.default = Some(text()?),
        PrimitiveSchema::SingleSelect(s) => s.default = Some(text()?),
        PrimitiveSchema::TitledSingleSelect(s) => s.default = Some(text()?),
        PrimitiveSchema::LegacyTitled(s) => s.default = Some(text()?),
        PrimitiveSchema::MultiSelect(s) => s.default = Some(list()?),
        PrimitiveSchema::TitledMultiSelect(s) => s.default = Some(list()?),
        PrimitiveSchema::Boolean(s) => {
            s.default = Some(value.as_bool().ok_or_else(|| Problem::WrongType {
                expected: "a boolean",
                found: crate::schema::kind_of(value),
            })?)
        }
        PrimitiveSchema::Number(s) => {
            let number = value
                .as_i64()
                .map(crate::schema::Number::from_i64)
                .or_else(|| value.as_f64().and_then(crate::schema::Number::from_f64))
                .ok_or_else(|| Problem::WrongType {
                    expected: "a number",
                    found: crate::schema::kind_of(value),
                })?;
            s.default = Some(number);
        }
    }
    Ok(())
}
