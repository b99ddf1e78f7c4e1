//! Which Rust types a form field may have, and how each maps to a property and is parsed.
//!
//! The mapping is a trait, not a list of type names in the derive, so it works through type
//! aliases and re-exports, and a type without a mapping is refused by the compiler with a
//! message about the flat form schema.

use std::borrow::Cow;

use crate::form::matcher::Matcher;
use serde_json::Value;

use crate::form::error::{FieldError, Problem};
use crate::form::read::{Errors, Pattern};
use crate::schema::derived::{Choices, Kind, StringRules};
use crate::schema::{PrimitiveSchema, Property};

mod markers;
mod multi;
mod scalar;
mod secret;

pub use markers::{MultiSelectField, Newtype, NumberField, StringField};
pub use secret::Secret;

/// A type that can be the value of one form field: a string, a boolean, a number, a choice enum, a
/// multi-select of one, a secret ([`Secret<String>`](Secret)), a typed value
/// ([`Email`](crate::Email), and with their features the dates, times and URLs of `chrono`,
/// `time`, `jiff` and `url`), or a newtype of any of these. `Option<T>` of such a type is an
/// optional field.
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
/// assert!(json.contains(
///     r#""postcode":{"type":"string","title":"Postcode","maxLength":8,"pattern":"#
/// ));
/// assert!(json.contains(
///     r#""tip":{"type":"integer","title":"Tip","minimum":0,"maximum":100,"default":50}"#
/// ));
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
    /// Whether the value is a secret ([`Secret`]), which the spec forbids asking for in form
    /// mode. A newtype's is its field's.
    #[doc(hidden)]
    const SECRET: bool = false;
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
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem>;
    /// `from_json` on a value the caller gives away: a type that keeps text (a `String`) takes
    /// it out of the value rather than copying it. The same checks, the same errors.
    #[doc(hidden)]
    #[inline(always)]
    fn from_json_owned(
        value: Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        Self::from_json(&value, schema, pattern)
    }
    /// The value as the client sends it: a string's text, a typed value's wire text (a date's
    /// `YYYY-MM-DD`), a choice's wire value, a multi-select's array of them, a newtype's
    /// field's. What a run-time default ([`FormDefault`](crate::FormDefault)) is shown as.
    #[doc(hidden)]
    fn to_json(&self) -> Value;
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
    /// Whether the field's values are secrets (see [`ElicitValue::SECRET`]).
    #[doc(hidden)]
    const SECRET: bool = false;
    #[doc(hidden)]
    const OPTIONAL: bool;
    /// The type of the field's values: the `T` of an `Option<T>`, else the type itself. A
    /// run-time default of the field is one ([`FormDefault::set`](crate::FormDefault::set)).
    #[doc(hidden)]
    type Value: ElicitValue;
    #[doc(hidden)]
    type DefaultLiteral;
    #[doc(hidden)]
    fn from_default(literal: Self::DefaultLiteral) -> Result<Self, Problem>;
    #[doc(hidden)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem>;
    /// `from_json` on a value the caller gives away (see [`ElicitValue::from_json_owned`]).
    #[doc(hidden)]
    #[inline(always)]
    fn from_json_owned(
        value: Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        Self::from_json(&value, schema, pattern)
    }
    /// The value of an absent (or `null`) field without a default.
    #[doc(hidden)]
    fn absent() -> Option<Self>;
    /// Reads the field for the derive, from a slot that holds the value by reference
    /// (`from_content`) or by value (`from_content_owned`): one reading of a form serves both.
    /// Called as `<T as ElicitField>::__read_from` rather than through a bounded function, so an
    /// unmapped `T` fails with the same error here as in the derive's other uses of `T`, and
    /// the compiler reports it once.
    #[doc(hidden)]
    #[inline(always)]
    fn __read_from<S: Slot>(
        slot: Option<S>,
        property: &'static Property,
        pattern: Option<&Pattern>,
        default: Option<fn() -> Result<Self, Problem>>,
        errors: &mut Errors,
    ) -> Option<Self> {
        S::read(slot, property, pattern, default, errors)
    }
}

/// The value found under a field's name, held by reference (`from_content`) or by value
/// (`from_content_owned`): how the field reads it.
#[doc(hidden)]
pub trait Slot: Sized {
    /// [`read`] or [`read_owned`].
    fn read<T: ElicitField>(
        slot: Option<Self>,
        property: &'static Property,
        pattern: Option<&Pattern>,
        default: Option<fn() -> Result<T, Problem>>,
        errors: &mut Errors,
    ) -> Option<T>;
}

impl Slot for &Value {
    #[inline(always)]
    fn read<T: ElicitField>(
        slot: Option<Self>,
        property: &'static Property,
        pattern: Option<&Pattern>,
        default: Option<fn() -> Result<T, Problem>>,
        errors: &mut Errors,
    ) -> Option<T> {
        read(slot, property, pattern, default, errors)
    }
}

impl Slot for Value {
    #[inline(always)]
    fn read<T: ElicitField>(
        slot: Option<Self>,
        property: &'static Property,
        pattern: Option<&Pattern>,
        default: Option<fn() -> Result<T, Problem>>,
        errors: &mut Errors,
    ) -> Option<T> {
        read_owned(slot, property, pattern, default, errors)
    }
}

/// A form's content, borrowed or given away: its pairs of a key and the value under it.
#[doc(hidden)]
pub trait Content: IntoIterator<Item = (Self::Key, Self::Slot)> {
    /// `&String` or `String`.
    type Key: AsRef<str>;
    /// `&Value` or `Value`.
    type Slot: Slot;
}

impl<'a> Content for &'a serde_json::Map<String, Value> {
    type Key = &'a String;
    type Slot = &'a Value;
}

impl Content for serde_json::Map<String, Value> {
    type Key = String;
    type Slot = Value;
}

/// Reads one field from the value found under its name (`slot`): absent or `null` falls back on
/// the default, then on `None` for optional fields; a present value is checked against the
/// property's schema.
///
/// Inlined into each derived `from_content`, where `property` is a constant: the checks its
/// schema does not ask for fold away.
#[inline(always)]
pub fn read<T: ElicitField>(
    slot: Option<&Value>,
    property: &'static Property,
    pattern: Option<&Pattern>,
    default: Option<fn() -> Result<T, Problem>>,
    errors: &mut Errors,
) -> Option<T> {
    let outcome = match slot {
        None | Some(Value::Null) => absent(default),
        Some(value) => match pattern.map(Pattern::get).transpose() {
            Ok(regex) => T::from_json(value, &property.schema, regex),
            Err(problem) => Err(problem),
        },
    };
    recorded(outcome, property, errors)
}

/// [`read`] of a value the caller gives away: the same checks and errors, and a string the
/// field keeps is taken out of the value rather than copied.
#[inline(always)]
pub fn read_owned<T: ElicitField>(
    slot: Option<Value>,
    property: &'static Property,
    pattern: Option<&Pattern>,
    default: Option<fn() -> Result<T, Problem>>,
    errors: &mut Errors,
) -> Option<T> {
    let outcome = match slot {
        None | Some(Value::Null) => absent(default),
        Some(value) => match pattern.map(Pattern::get).transpose() {
            Ok(regex) => T::from_json_owned(value, &property.schema, regex),
            Err(problem) => Err(problem),
        },
    };
    recorded(outcome, property, errors)
}

/// The value of an absent or `null` field: its default, else `None` when optional.
#[inline(always)]
fn absent<T: ElicitField>(default: Option<fn() -> Result<T, Problem>>) -> Result<T, Problem> {
    match default {
        Some(default) => default(),
        None => T::absent().ok_or(Problem::Missing),
    }
}

/// The field's value, or `None` with its problem recorded under its name.
#[inline(always)]
fn recorded<T>(
    outcome: Result<T, Problem>,
    property: &'static Property,
    errors: &mut Errors,
) -> Option<T> {
    match outcome {
        Ok(value) => Some(value),
        Err(problem) => {
            errors.push(FieldError::new(name_of(property), problem));
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
    const SECRET: bool = T::SECRET;
    const OPTIONAL: bool = true;
    type Value = T;
    type DefaultLiteral = T::DefaultLiteral;
    fn from_default(literal: Self::DefaultLiteral) -> Result<Self, Problem> {
        T::from_default(literal).map(Some)
    }
    #[inline(always)]
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        T::from_json(value, schema, pattern).map(Some)
    }
    #[inline(always)]
    fn from_json_owned(
        value: Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        T::from_json_owned(value, schema, pattern).map(Some)
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
            const SECRET: bool = <$ty as $crate::ElicitValue>::SECRET;
            const OPTIONAL: bool = false;
            type Value = $ty;
            type DefaultLiteral = <$ty as $crate::ElicitValue>::DefaultLiteral;
            fn from_default(__literal: Self::DefaultLiteral) -> ::core::result::Result<Self, $crate::Problem> {
                <$ty as $crate::ElicitValue>::from_default(__literal)
            }
            #[inline(always)]
            fn from_json(
                __value: &$crate::__private::Value,
                __schema: &$crate::schema::PrimitiveSchema,
                __pattern: ::core::option::Option<&$crate::__private::Matcher>,
            ) -> ::core::result::Result<Self, $crate::Problem> {
                <$ty as $crate::ElicitValue>::from_json(__value, __schema, __pattern)
            }
            #[inline(always)]
            fn from_json_owned(
                __value: $crate::__private::Value,
                __schema: &$crate::schema::PrimitiveSchema,
                __pattern: ::core::option::Option<&$crate::__private::Matcher>,
            ) -> ::core::result::Result<Self, $crate::Problem> {
                <$ty as $crate::ElicitValue>::from_json_owned(__value, __schema, __pattern)
            }
            fn absent() -> ::core::option::Option<Self> {
                ::core::option::Option::None
            }
        }
    )*};
}
