//! A JSON number as the restricted schema carries it: an exact integer or a finite float.

use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest integer a JSON number (an IEEE 754 double) holds exactly: 2^53 - 1.
///
/// Integer fields of 64-bit and pointer-sized types are bounded by `±MAX_SAFE_INTEGER` in the
/// emitted schema, since a client working with doubles cannot represent anything past it.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// A number in a schema: `minimum`, `maximum` or `default` of a number or integer property.
///
/// Integers stay integers on the wire (`18`, not `18.0`), floats keep their shortest
/// round-trip form. Two numbers compare equal when they denote the same value.
///
/// ```
/// use elicit_mcp::schema::Number;
/// assert_eq!(Number::from(18), Number::from_f64(18.0).unwrap());
/// assert_eq!(Number::from_f64(f64::NAN), None);
/// ```
#[derive(Clone, Copy)]
pub struct Number(Repr);

#[derive(Clone, Copy)]
enum Repr {
    Int(i64),
    /// `text` is the float as `serde_json` prints it, present when the number was built at
    /// compile time, so that the const JSON writer needs no float formatting.
    Float {
        value: f64,
        text: Option<&'static str>,
    },
}

impl Number {
    /// A float, or `None` for NaN and infinities, which JSON cannot carry.
    pub fn from_f64(value: f64) -> Option<Self> {
        value
            .is_finite()
            .then_some(Number(Repr::Float { value, text: None }))
    }

    /// An integer, usable in constants.
    pub const fn from_i64(value: i64) -> Self {
        Number(Repr::Int(value))
    }

    /// A float literal with its JSON text, computed by the derive (through
    /// `__private::float`) so that the const JSON writer needs no float formatting.
    pub(crate) const fn from_f64_text(value: f64, text: &'static str) -> Self {
        Number(Repr::Float {
            value,
            text: Some(text),
        })
    }

    /// The value as a float (exact for integers up to [`MAX_SAFE_INTEGER`]).
    pub const fn as_f64(&self) -> f64 {
        match self.0 {
            Repr::Int(i) => i as f64,
            Repr::Float { value, .. } => value,
        }
    }

    /// The value as an integer, when it is one.
    pub const fn as_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::Int(i) => Some(i),
            Repr::Float { .. } => None,
        }
    }

    /// Whether the number has no fractional part (`30` and `30.0` both do).
    pub fn is_integral(&self) -> bool {
        match self.0 {
            Repr::Int(_) => true,
            Repr::Float { value, .. } => value.fract() == 0.0,
        }
    }

    /// The JSON text of a number built at compile time (`None` for floats parsed at run time).
    pub(crate) const fn const_json(&self) -> Result<ConstNumber, ()> {
        match self.0 {
            Repr::Int(i) => Ok(ConstNumber::Int(i)),
            Repr::Float {
                text: Some(text), ..
            } => Ok(ConstNumber::Text(text)),
            Repr::Float { text: None, .. } => Err(()),
        }
    }

    pub(crate) fn from_json(number: &serde_json::Number) -> Option<Self> {
        if let Some(i) = number.as_i64() {
            Some(Number(Repr::Int(i)))
        } else {
            number.as_f64().and_then(Number::from_f64)
        }
    }
}

pub(crate) enum ConstNumber {
    Int(i64),
    Text(&'static str),
}

impl From<i64> for Number {
    fn from(value: i64) -> Self {
        Number(Repr::Int(value))
    }
}

impl From<i32> for Number {
    fn from(value: i32) -> Self {
        Number(Repr::Int(value.into()))
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        match (self.0, other.0) {
            (Repr::Int(a), Repr::Int(b)) => a == b,
            _ => self.as_f64() == other.as_f64(),
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        match (self.0, other.0) {
            (Repr::Int(a), Repr::Int(b)) => Some(a.cmp(&b)),
            _ => self.as_f64().partial_cmp(&other.as_f64()),
        }
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Repr::Int(i) => write!(f, "{i}"),
            Repr::Float { value, .. } => write!(f, "{value}"),
        }
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Repr::Int(i) => serializer.serialize_i64(i),
            Repr::Float { value, .. } => serializer.serialize_f64(value),
        }
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let number = serde_json::Number::deserialize(deserializer)?;
        Number::from_json(&number).ok_or_else(|| {
            serde::de::Error::custom(format_args!("{number} is not a finite number"))
        })
    }
}

/// Compares exactly when both sides are integers, so bounds near 2^63 do not round.
#[inline(always)]
pub(crate) fn compare(value: &serde_json::Number, bound: &Number) -> std::cmp::Ordering {
    let exact = value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from));
    match (exact, bound.as_i64()) {
        (Some(v), Some(b)) => v.cmp(&i128::from(b)),
        _ => {
            let v = value.as_f64().unwrap_or(f64::NAN);
            v.partial_cmp(&bound.as_f64())
                .unwrap_or(std::cmp::Ordering::Equal)
        }
    }
}
