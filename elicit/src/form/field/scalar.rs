//! The scalar field types: a string, a boolean, the integers and the floats.

use crate::form::matcher::Matcher;
use serde_json::Value;

use super::{ElicitValue, Kind, StringRules};
use crate::form::error::Problem;
use crate::form::validate;
use crate::schema::PrimitiveSchema;
use crate::schema::number::{MAX_SAFE_INTEGER, Number};

#[diagnostic::do_not_recommend]
impl ElicitValue for String {
    const KIND: Kind = Kind::String(StringRules::NONE);
    type DefaultLiteral = &'static str;
    fn from_default(literal: &'static str) -> Result<Self, Problem> {
        Ok(literal.to_owned())
    }
    #[inline(always)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        checked_str(value, schema, pattern).map(str::to_owned)
    }
    #[inline(always)]
    fn from_json_owned(
        value: Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        match value {
            Value::String(text) => {
                if let PrimitiveSchema::String(s) = schema {
                    validate::check_string(s, &text, pattern)?;
                }
                Ok(text)
            }
            // Not a string: the same wrong-type problem as the borrowed read.
            other => checked_str(&other, schema, pattern).map(str::to_owned),
        }
    }
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

/// A string value checked against the property's lengths, pattern and format.
///
/// A deliberate near-copy of `typed.rs`'s `text_of`, which leaves the format to the typed
/// value's own parser: folded into one function with a format switch, the derived
/// `from_content` measured about 10% slower (the bench `from_content`, issue 10), so the two
/// stay apart. Change one, change the other.
#[inline(always)]
pub(super) fn checked_str<'v>(
    value: &'v Value,
    schema: &PrimitiveSchema,
    pattern: Option<&Matcher>,
) -> Result<&'v str, Problem> {
    let text = validate::as_text(value)?;
    if let PrimitiveSchema::String(s) = schema {
        validate::check_string(s, text, pattern)?;
    }
    Ok(text)
}

#[diagnostic::do_not_recommend]
impl ElicitValue for bool {
    const KIND: Kind = Kind::Boolean;
    type DefaultLiteral = bool;
    fn from_default(literal: bool) -> Result<Self, Problem> {
        Ok(literal)
    }
    fn from_json(value: &Value, _: &PrimitiveSchema, _: Option<&Matcher>) -> Result<Self, Problem> {
        value.as_bool().ok_or_else(|| Problem::WrongType {
            expected: "a boolean",
            found: crate::schema::kind_of(value),
        })
    }
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

macro_rules! integers {
    ($($ty:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl ElicitValue for $ty {
            // Bounds past what a double holds exactly are clamped to ±(2^53 - 1).
            const KIND: Kind = Kind::Integer {
                minimum: if (<$ty>::MIN as i128) < -(MAX_SAFE_INTEGER as i128) {
                    -MAX_SAFE_INTEGER
                } else {
                    <$ty>::MIN as i64
                },
                // Compared as u128: `u128::MAX as i128` wraps to -1, which gave u128 fields
                // a maximum of -1 (every value out of range).
                maximum: if (<$ty>::MAX as u128) > MAX_SAFE_INTEGER as u128 {
                    MAX_SAFE_INTEGER
                } else {
                    <$ty>::MAX as i64
                },
            };
            type DefaultLiteral = $ty;
            fn from_default(literal: $ty) -> Result<Self, Problem> {
                Ok(literal)
            }
            #[inline(always)]
            fn from_json(value: &Value, schema: &PrimitiveSchema, _: Option<&Matcher>) -> Result<Self, Problem> {
                let exact = validate::integer(schema, value)?;
                <$ty>::try_from(exact).map_err(|_| Problem::OutOfRange {
                    value: value.as_number().cloned().unwrap_or_else(|| 0.into()),
                    minimum: Some(Number::from_i64(integer_bounds(<$ty as ElicitValue>::KIND).0)),
                    maximum: Some(Number::from_i64(integer_bounds(<$ty as ElicitValue>::KIND).1)),
                })
            }
            fn to_json(&self) -> Value {
                // Exactly when `serde_json` holds it (64 bits), else the nearest double, which
                // is past every integer field's bounds and refused as such when checked.
                let value = *self;
                match (i64::try_from(value), u64::try_from(value)) {
                    (Ok(small), _) => Value::from(small),
                    (_, Ok(large)) => Value::from(large),
                    _ => Value::from(value as f64),
                }
            }
        }
        crate::__impl_field_for_value!($ty);
    )*};
}

/// The bounds an integer kind carries, for the error of a value the type cannot hold.
fn integer_bounds(kind: Kind) -> (i64, i64) {
    match kind {
        Kind::Integer { minimum, maximum } => (minimum, maximum),
        _ => (i64::MIN, i64::MAX),
    }
}

integers!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

#[diagnostic::do_not_recommend]
impl ElicitValue for f64 {
    const KIND: Kind = Kind::Number {
        minimum: None,
        maximum: None,
    };
    type DefaultLiteral = f64;
    fn from_default(literal: f64) -> Result<Self, Problem> {
        Ok(literal)
    }
    #[inline(always)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        _: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        validate::float(schema, value)
    }
    fn to_json(&self) -> Value {
        // NaN and the infinities, which JSON cannot carry, become `null`: refused as a default.
        Value::from(*self)
    }
}

#[diagnostic::do_not_recommend]
impl ElicitValue for f32 {
    // f32 holds less than a JSON number: bounded by ±f32::MAX so nothing overflows to infinity.
    // The texts are serde_json's (zmij's), exponent sign included.
    const KIND: Kind = Kind::Number {
        minimum: Some(Number::from_f64_text(
            f32::MIN as f64,
            "-3.4028234663852886e+38",
        )),
        maximum: Some(Number::from_f64_text(
            f32::MAX as f64,
            "3.4028234663852886e+38",
        )),
    };
    type DefaultLiteral = f32;
    fn from_default(literal: f32) -> Result<Self, Problem> {
        Ok(literal)
    }
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        _: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        validate::float(schema, value).map(|f| f as f32)
    }
    fn to_json(&self) -> Value {
        // By the shortest text that reads back as this `f32` (`0.1`, not 0.10000000149011612,
        // which `as f64` would give).
        let shortest = self.to_string().parse::<f64>().unwrap_or(f64::NAN);
        Value::from(shortest)
    }
}

crate::__impl_field_for_value!(String, bool, f64, f32);
