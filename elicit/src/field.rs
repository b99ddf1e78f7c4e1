//! Which Rust types a form field may have, and how each maps to a property and is parsed.
//!
//! The mapping is a trait, not a list of type names in the derive, so it works through type
//! aliases and re-exports, and a type without a mapping is refused by the compiler with a
//! message about the flat form schema.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use regex::Regex;
use serde_json::Value;

use crate::error::Problem;
use crate::number::{MAX_SAFE_INTEGER, Number};
use crate::schema::{PrimitiveSchema, StringFormat, Text, TitledOption};
use crate::validate;

/// The shape a type gives its property, with the constraints the type itself declares, before
/// a field's attributes narrow it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    String(StringRules),
    /// An integer type, with the range it holds (or its newtype declares).
    Integer {
        minimum: i64,
        maximum: i64,
    },
    /// A float type, with the range it holds (or its newtype declares) when that is narrower
    /// than a JSON number's.
    Number {
        minimum: Option<Number>,
        maximum: Option<Number>,
    },
    Boolean,
    Choice(Choices),
    Multi(Choices),
}

/// What a string type declares about its values: a typed value its format, a newtype its
/// pattern and lengths.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct StringRules {
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<&'static str>,
    pub format: Option<StringFormat>,
}

impl StringRules {
    /// A plain string: nothing declared.
    pub const NONE: StringRules = StringRules {
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
    };
}

/// The choices of a unit-only enum, as the derive lays them down.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Choices {
    pub values: &'static [Text],
    /// `Some` when any variant has a title: the enum is then a titled select.
    pub titled: Option<&'static [TitledOption]>,
}

/// A type that can be the value of one form field: a string, a boolean, a number, a choice enum,
/// a multi-select of one, a typed value ([`Email`](crate::Email), and with their features the
/// dates, times and URLs of `chrono`, `time`, `jiff` and `url`), or a newtype of any of these.
/// `Option<T>` of such a type is an optional field.
///
/// This is the extension point for your own types. Implement it with `#[derive(Elicit)]` on a
/// tuple struct of one field: the newtype maps to its field's property, narrowed by the
/// constraints written on the struct (`pattern`, `min_length`, `max_length` and `format` for a
/// string, `minimum` and `maximum` for a number). Every form that uses the type inherits them,
/// and parsing gives the newtype only when they hold.
///
/// ```
/// use elicit_mcp::Elicit;
///
/// /// A UK-style postcode, checked wherever it is asked for.
/// #[derive(Elicit, Debug, PartialEq)]
/// #[elicit(pattern = "^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$", max_length = 8)]
/// struct Postcode(String);
///
/// #[derive(Elicit, Debug, PartialEq)]
/// #[elicit(minimum = 0, maximum = 100)]
/// struct Percent(u8);
///
/// #[derive(Elicit, Debug)]
/// struct Delivery {
///     postcode: Postcode,
///     #[elicit(default = 50)]
///     tip: Percent,
/// }
///
/// let json = Delivery::requested_schema_json();
/// assert!(json.contains(r#""postcode":{"type":"string","maxLength":8,"pattern":"#));
/// assert!(json.contains(r#""tip":{"type":"integer","minimum":0,"maximum":100,"default":50}"#));
///
/// let ok = serde_json::json!({"postcode": "SW1A 1AA", "tip": 15});
/// let delivery = Delivery::from_content(ok.as_object().unwrap()).unwrap();
/// assert_eq!(delivery.postcode, Postcode("SW1A 1AA".into()));
/// assert_eq!(delivery.tip, Percent(15));
///
/// let bad = serde_json::json!({"postcode": "nowhere", "tip": 120});
/// let errors = Delivery::from_content(bad.as_object().unwrap()).unwrap_err();
/// assert_eq!(errors.errors().len(), 2);
/// ```
///
/// The trait is sealed: this crate implements it for the types of
/// [the type mapping](derive@crate::Elicit#type-mapping), and the derive for choice enums and
/// newtypes, and nothing else can. Its members describe the schema in the crate's internal terms,
/// which may change between versions; a newtype with the derive is the way to a field type of
/// your own, and a hand-written impl is a compile error that says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the type of an elicitation form field",
    label = "no form-schema mapping for `{Self}`",
    note = "the requestedSchema of form-mode elicitation is flat: a field is a String, bool, integer, f32/f64, elicit_mcp::Email, a date, time or URL of chrono, time, jiff or url (with the elicit-mcp feature of that crate's name), a unit-only enum with #[derive(Elicit)], a Vec/BTreeSet/HashSet of such an enum (a multi-select), or a newtype of one of these (a tuple struct of one field with #[derive(Elicit)]), optionally wrapped in one Option",
    note = "give each part of a nested struct, map or tuple its own field, or ask for it in a separate elicitation; for a list of free values, ask for one String, or list the choices in an enum"
)]
pub trait ElicitValue: Sized + DerivedField {
    #[doc(hidden)]
    const KIND: Kind;
    /// Whether `KIND` carries constraints the type declares beyond its own range (a newtype's),
    /// which a field's default must then keep.
    #[doc(hidden)]
    const NARROWED: bool = false;
    /// The type of a `#[elicit(default = ..)]` for this field: `&'static str` for `String` and
    /// typed values (their wire text), the type itself for numbers, booleans and enums,
    /// `&'static [E]` for multi-selects.
    #[doc(hidden)]
    type DefaultLiteral;
    /// The value of the default. Fallible for typed values: the derive checks their default's
    /// text against the format at compile time, but only the type's own parser has the last word.
    #[doc(hidden)]
    fn from_default(literal: Self::DefaultLiteral) -> Result<Self, Problem>;
    #[doc(hidden)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Regex>,
    ) -> Result<Self, Problem>;
}

/// A type that can be a form field: an [`ElicitValue`], or an `Option` of one. Sealed, as
/// [`ElicitValue`] is.
///
/// The derive requires it of every field that is not `skip`ped, so a field of another type is a
/// compile error on that type, with a note on what the flat schema allows (see
/// [the derive's rules](derive@crate::Elicit#field-types-the-schema-is-flat)).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the type of an elicitation form field",
    label = "no form-schema mapping for `{Self}`",
    note = "the requestedSchema of form-mode elicitation is flat: a field is a String, bool, integer, f32/f64, elicit_mcp::Email, a date, time or URL of chrono, time, jiff or url (with the elicit-mcp feature of that crate's name), a unit-only enum with #[derive(Elicit)], a Vec/BTreeSet/HashSet of such an enum (a multi-select), or a newtype of one of these (a tuple struct of one field with #[derive(Elicit)]), optionally wrapped in one Option",
    note = "give each part of a nested struct, map or tuple its own field, or ask for it in a separate elicitation; for a list of free values, ask for one String, or list the choices in an enum"
)]
pub trait ElicitField: Sized + DerivedField {
    #[doc(hidden)]
    const KIND: Kind;
    #[doc(hidden)]
    const NARROWED: bool = false;
    #[doc(hidden)]
    const OPTIONAL: bool;
    #[doc(hidden)]
    type DefaultLiteral;
    #[doc(hidden)]
    fn from_default(literal: Self::DefaultLiteral) -> Result<Self, Problem>;
    #[doc(hidden)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Regex>,
    ) -> Result<Self, Problem>;
    /// The value of an absent (or `null`) field without a default.
    #[doc(hidden)]
    fn absent() -> Option<Self>;
    /// Reads the field for the derive. Called as `<T as ElicitField>::__read` rather than through
    /// a bounded function, so an unmapped `T` fails with the same error here as in the derive's
    /// other uses of `T`, and the compiler reports it once.
    #[doc(hidden)]
    #[inline(always)]
    fn __read(
        slot: Option<&Value>,
        property: &'static crate::schema::Property,
        pattern: Option<&crate::read::Pattern>,
        default: Option<fn() -> Result<Self, Problem>>,
        errors: &mut crate::read::Errors,
    ) -> Option<Self> {
        crate::read::field(slot, property, pattern, default, errors)
    }
}

/// A unit-only enum with `#[derive(Elicit)]`: a single-select, or the items of a multi-select.
///
/// The derive also implements [`ElicitValue`] and [`ElicitField`] for the enum, so it can be a
/// field's type, and a `Vec`, `BTreeSet` or `HashSet` of it a multi-select. Each variant's wire
/// value is its name, or its `rename`, or the enum's `rename_all` applied to its name (see
/// [the derive's reference](derive@crate::Elicit#variant-attributes)).
///
/// ```
/// use elicit_mcp::ElicitChoice;
///
/// #[derive(elicit_mcp::Elicit, Debug, PartialEq)]
/// #[elicit(rename_all = "snake_case")]
/// enum Plan {
///     FreeTier,
///     #[elicit(rename = "pro", title = "Pro (billed monthly)")]
///     Professional,
/// }
///
/// assert_eq!(Plan::FreeTier.to_wire(), "free_tier");
/// assert_eq!(Plan::from_wire("pro"), Some(Plan::Professional));
/// assert_eq!(Plan::from_wire("Professional"), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a choice enum, so it cannot be an item of a multi-select",
    label = "not a unit-only enum with #[derive(Elicit)]",
    note = "the form schema of MCP elicitation is flat: an array field is a multi-select among the variants of a unit-only enum with #[derive(Elicit)]; lists of free text, numbers or objects are not allowed"
)]
pub trait ElicitChoice: Sized + 'static {
    #[doc(hidden)]
    const CHOICES: Choices;
    /// The variant with this wire value.
    fn from_wire(value: &str) -> Option<Self>;
    /// The variant's wire value.
    fn to_wire(&self) -> &'static str;
}

/// What seals [`ElicitValue`] and [`ElicitField`]: implemented with them by this crate and by
/// the derive (through `__impl_field_for_value!`), reachable only through the hidden
/// `__private`, so a hand-written impl of either trait fails on it, with this message.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot implement elicit-mcp's field traits by hand: they are sealed",
    label = "`ElicitValue` and `ElicitField` are implemented by #[derive(Elicit)] only",
    note = "to make a field type of your own, derive it on a newtype: `#[derive(Elicit)] struct {Self}(String);` with the constraints as attributes (`pattern`, `min_length`, `max_length`, `format`, `minimum`, `maximum`), or on a unit-only enum for a choice"
)]
pub trait DerivedField {}

// Unbounded, here and for the multi-selects: with a bound, an `Option` or `Vec` of an unmapped
// type would fail on this seal first, and the error would speak of a hand-written impl. Other
// crates cannot implement the field traits for these foreign types anyway (orphan rules).
impl<T> DerivedField for Option<T> {}

#[diagnostic::do_not_recommend]
impl<T: ElicitValue> ElicitField for Option<T> {
    const KIND: Kind = T::KIND;
    const NARROWED: bool = T::NARROWED;
    const OPTIONAL: bool = true;
    type DefaultLiteral = T::DefaultLiteral;
    fn from_default(literal: Self::DefaultLiteral) -> Result<Self, Problem> {
        T::from_default(literal).map(Some)
    }
    #[inline(always)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Regex>,
    ) -> Result<Self, Problem> {
        T::from_json(value, schema, pattern).map(Some)
    }
    fn absent() -> Option<Self> {
        Some(None)
    }
}

/// Implements [`ElicitField`] for a non-optional [`ElicitValue`]. The derive emits it for enums.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_field_for_value {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::__private::DerivedField for $ty {}
        #[diagnostic::do_not_recommend]
        impl $crate::ElicitField for $ty {
            const KIND: $crate::__private::Kind = <$ty as $crate::ElicitValue>::KIND;
            const NARROWED: bool = <$ty as $crate::ElicitValue>::NARROWED;
            const OPTIONAL: bool = false;
            type DefaultLiteral = <$ty as $crate::ElicitValue>::DefaultLiteral;
            fn from_default(__literal: Self::DefaultLiteral) -> ::core::result::Result<Self, $crate::Problem> {
                <$ty as $crate::ElicitValue>::from_default(__literal)
            }
            #[inline(always)]
            fn from_json(
                __value: &$crate::__private::Value,
                __schema: &$crate::schema::PrimitiveSchema,
                __pattern: ::core::option::Option<&$crate::__private::Regex>,
            ) -> ::core::result::Result<Self, $crate::Problem> {
                <$ty as $crate::ElicitValue>::from_json(__value, __schema, __pattern)
            }
            fn absent() -> ::core::option::Option<Self> {
                ::core::option::Option::None
            }
        }
    )*};
}

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
        pattern: Option<&Regex>,
    ) -> Result<Self, Problem> {
        checked_str(value, schema, pattern).map(str::to_owned)
    }
}

/// A string value checked against the property's lengths, pattern and format.
///
/// A deliberate near-copy of `typed.rs`'s `text_of`, which leaves the format to the typed
/// value's own parser: folded into one function with a format switch, the derived
/// `from_content` measured about 10% slower (the bench `from_content`, issue 10), so the two
/// stay apart. Change one, change the other.
#[inline(always)]
pub(crate) fn checked_str<'v>(
    value: &'v Value,
    schema: &PrimitiveSchema,
    pattern: Option<&Regex>,
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
    fn from_json(value: &Value, _: &PrimitiveSchema, _: Option<&Regex>) -> Result<Self, Problem> {
        value.as_bool().ok_or_else(|| Problem::WrongType {
            expected: "a boolean",
            found: crate::schema::kind_of(value),
        })
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
            fn from_json(value: &Value, schema: &PrimitiveSchema, _: Option<&Regex>) -> Result<Self, Problem> {
                let exact = validate::integer(schema, value)?;
                <$ty>::try_from(exact).map_err(|_| Problem::OutOfRange {
                    value: value.as_number().cloned().unwrap_or_else(|| 0.into()),
                    minimum: Some(Number::from_i64(integer_bounds(<$ty as ElicitValue>::KIND).0)),
                    maximum: Some(Number::from_i64(integer_bounds(<$ty as ElicitValue>::KIND).1)),
                })
            }
        }
        __impl_field_for_value!($ty);
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
        _: Option<&Regex>,
    ) -> Result<Self, Problem> {
        validate::float(schema, value)
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
        _: Option<&Regex>,
    ) -> Result<Self, Problem> {
        validate::float(schema, value).map(|f| f as f32)
    }
}

__impl_field_for_value!(String, bool, f64, f32);

/// Parses a multi-select's items into any collection of the choice enum.
///
/// The success path makes one pass with no scratch allocation, using `from_wire` as the
/// membership test (a derived schema's choices are the enum's). On any failure the shared
/// validator runs instead, so the error is exactly the one `validate_content` reports.
fn collect<E: ElicitChoice, C: FromIterator<E>>(
    value: &Value,
    schema: &PrimitiveSchema,
) -> Result<C, Problem> {
    let fast = value
        .as_array()
        .filter(|items| within_counts(schema, items.len()))
        .and_then(|items| {
            items
                .iter()
                .enumerate()
                .map(|(index, item)| {
                    let text = item.as_str()?;
                    let repeated = items[..index]
                        .iter()
                        .any(|earlier| earlier.as_str() == Some(text));
                    if repeated { None } else { E::from_wire(text) }
                })
                .collect::<Option<C>>()
        });
    match fast {
        Some(collection) => Ok(collection),
        None => Err(validate::multi(schema, value)
            .err()
            .unwrap_or(Problem::WrongType {
                expected: "a selection of the enum's choices",
                found: crate::schema::kind_of(value),
            })),
    }
}

fn within_counts(schema: &PrimitiveSchema, count: usize) -> bool {
    let (min, max) = match schema {
        PrimitiveSchema::MultiSelect(s) => (s.min_items, s.max_items),
        PrimitiveSchema::TitledMultiSelect(s) => (s.min_items, s.max_items),
        _ => (None, None),
    };
    let count = count as u64;
    min.is_none_or(|min| count >= min) && max.is_none_or(|max| count <= max)
}

fn copy_all<E: ElicitChoice, C: FromIterator<E>>(literal: &'static [E]) -> Result<C, Problem> {
    Ok(literal
        .iter()
        .filter_map(|e| E::from_wire(e.to_wire()))
        .collect())
}

macro_rules! multi_selects {
    ($([$($param:tt)*] [$($unbounded:tt)*] $ty:ty;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($param)*> ElicitValue for $ty {
            const KIND: Kind = Kind::Multi(E::CHOICES);
            type DefaultLiteral = &'static [E];
            fn from_default(literal: &'static [E]) -> Result<Self, Problem> {
                copy_all(literal)
            }
            fn from_json(value: &Value, schema: &PrimitiveSchema, _: Option<&Regex>) -> Result<Self, Problem> {
                collect(value, schema)
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($param)*> ElicitField for $ty {
            const KIND: Kind = <$ty as ElicitValue>::KIND;
            const OPTIONAL: bool = false;
            type DefaultLiteral = &'static [E];
            fn from_default(literal: &'static [E]) -> Result<Self, Problem> {
                copy_all(literal)
            }
            fn from_json(value: &Value, schema: &PrimitiveSchema, _: Option<&Regex>) -> Result<Self, Problem> {
                collect(value, schema)
            }
            fn absent() -> Option<Self> {
                None
            }
        }

        impl<$($unbounded)*> DerivedField for $ty {}

        #[diagnostic::do_not_recommend]
        impl<$($param)*> MultiSelectField for $ty {}
        #[diagnostic::do_not_recommend]
        impl<$($param)*> MultiSelectField for Option<$ty> {}
    )*};
}

multi_selects! {
    [E: ElicitChoice] [E] Vec<E>;
    [E: ElicitChoice + Ord] [E] BTreeSet<E>;
    [E: ElicitChoice + Hash + Eq, S: BuildHasher + Default] [E, S] HashSet<E, S>;
}

// The derive proves these with `<T as StringField>::PROVEN`, a projection, rather than with a
// bounded function, so the error names no function inside elicit. The impls are
// `do_not_recommend` so the error does not list them all.

/// Fields that take `min_length`, `max_length`, `pattern` and `format`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`min_length`, `max_length`, `pattern` and `format` apply only to string fields, and `{Self}` is not one",
    label = "this attribute needs a `String` field"
)]
pub trait StringField {
    #[doc(hidden)]
    const PROVEN: () = ();
}
#[diagnostic::do_not_recommend]
impl StringField for String {}
#[diagnostic::do_not_recommend]
impl StringField for Option<String> {}

/// Fields that take `minimum` and `maximum`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`minimum` and `maximum` apply only to number fields, and `{Self}` is not one",
    label = "this attribute needs an integer or float field"
)]
pub trait NumberField {
    #[doc(hidden)]
    const PROVEN: () = ();
}

/// Fields that take `min_items` and `max_items`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`min_items` and `max_items` apply only to multi-select fields, and `{Self}` is not one",
    label = "this attribute needs a Vec, BTreeSet or HashSet of a choice enum"
)]
pub trait MultiSelectField {
    #[doc(hidden)]
    const PROVEN: () = ();
}

macro_rules! markers {
    ($marker:ident: $($ty:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl $marker for $ty {}
        #[diagnostic::do_not_recommend]
        impl $marker for Option<$ty> {}
    )*};
}
markers!(NumberField: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

/// A newtype derived with `#[derive(Elicit)]`: it takes the attributes its field's type takes.
#[doc(hidden)]
pub trait Newtype {
    type Inner;
}

macro_rules! newtype_markers {
    ($($marker:ident),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: Newtype> $marker for T where T::Inner: $marker {}
        #[diagnostic::do_not_recommend]
        impl<T: Newtype> $marker for Option<T> where T::Inner: $marker {}
    )*};
}
newtype_markers!(StringField, NumberField);
