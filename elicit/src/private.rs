//! What the derive's generated code calls. Not public API: no stability promise.
//!
//! Re-exports, under the paths the generated code names: the schema assembly (`const fn`s next
//! to the schema model, in `schema::derived`), the field traits, the reading of one field.
//! Defined here is only what nothing but generated code uses: the traits that word the
//! errors of a misused attribute or a type behind a feature, the constants of a derived form,
//! and the cache of a generic form's schema.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

pub use regex::Regex;
pub use serde_json::{Map, Value};

use crate::error::Problem;
use crate::field::ElicitChoice;
pub use crate::field::{
    DerivedField, MultiSelectField, Newtype, NumberField, StringField, read as field,
};
pub use crate::read::{DefaultText, Errors, Pattern, default_matches};
use crate::schema::PrimitiveSchema;
pub use crate::schema::derived::{
    Attrs, BoundMisfit, Choices, DefaultValue, Kind, StringRule, StringRules, bound_misfit,
    declared_format, default_outside, float, format_clash, more_items_than_choices, narrow,
    property, type_declares,
};
pub use crate::schema::json::{json_bytes, json_len, json_str};
pub use crate::schema::{Number, Property, RequestedSchema, StringFormat, Text, TitledOption};

pub use std::borrow::Cow::Borrowed;

/// The `schemars` impls' helpers, for the expansion of `__impl_json_schema!`.
#[cfg(feature = "schemars")]
pub use crate::json_schema::with_schemars as json_schema;

/// The type of a string `default`, which only a field whose default is text takes (a string, a
/// typed value, a newtype of one). The derive reads a string default through
/// [`str_default`], so a string on another field is this error, with
/// the form its default takes, rather than a bare type mismatch.
#[diagnostic::on_unimplemented(
    message = "a string cannot be this field's default: its default is a `{Self}`",
    label = "a string, where the field's default is a `{Self}`",
    note = "write the default as a value of the field's type: a choice enum's variant as a path (`default = {Self}::Variant`), a multi-select's variants as an array (`default = [Color::Red]`), a number as a number literal (`default = 3`), a bool as `true` or `false`"
)]
pub trait StrDefault {
    fn from_text(text: &'static str) -> Self;
}

impl StrDefault for &'static str {
    fn from_text(text: &'static str) -> Self {
        text
    }
}

/// A string default as the field's default literal, which [`StrDefault`] says it must be.
/// Called with the type inferred, so an error of the bound points at the call: the derive spans
/// it on the user's literal.
pub fn str_default<D: StrDefault>(text: &'static str) -> D {
    D::from_text(text)
}

/// The types only a feature of this crate maps, named in the error of a field of such a type
/// when the feature is off. The derive cannot see the runtime crate's features, so it requires
/// the trait of a field whose type has the name of one (`NaiveDate`, `Url` ...). With the
/// feature off, the trait is implemented for the mapped types alone: an unmapped type of that
/// name (the crate's own) is refused with the feature to turn on, while a type of the user's
/// that has the name and a mapping passes. With it on, every type has it, and the field traits'
/// own error speaks for an unmapped type.
macro_rules! feature_types {
    ($($(#[$attr:meta])* $name:ident: [$($feature:literal),+];)*) => {$(
        $(#[$attr])*
        pub trait $name {
            const CHECKED: () = ();
        }
        #[cfg(all($(feature = $feature),+))]
        impl<T: ?Sized> $name for T {}
        #[cfg(not(all($(feature = $feature),+)))]
        #[diagnostic::do_not_recommend]
        impl<T: crate::ElicitField> $name for T {}
    )*};
}

feature_types! {
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is a form field type only with elicit-mcp's `chrono` feature",
        label = "chrono's dates and times are mapped by the `chrono` feature, which is off",
        note = "if this is chrono's `NaiveDate`, `DateTime<FixedOffset>` or `DateTime<Utc>`, turn the feature on: `cargo add elicit-mcp --features chrono`, or `features = [\"chrono\"]` on elicit-mcp in Cargo.toml"
    )]
    ChronoType: ["chrono"];
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is a form field type only with elicit-mcp's `time` feature",
        label = "the time crate's dates and times are mapped by the `time` feature, which is off",
        note = "if this is `time::Date` or `time::OffsetDateTime`, turn the feature on: `cargo add elicit-mcp --features time`, or `features = [\"time\"]` on elicit-mcp in Cargo.toml"
    )]
    TimeType: ["time"];
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is a form field type only with elicit-mcp's `jiff` feature",
        label = "jiff's dates and timestamps are mapped by the `jiff` feature, which is off",
        note = "if this is `jiff::civil::Date` or `jiff::Timestamp`, turn the feature on: `cargo add elicit-mcp --features jiff`, or `features = [\"jiff\"]` on elicit-mcp in Cargo.toml"
    )]
    JiffType: ["jiff"];
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is a form field type only with elicit-mcp's `time` or `jiff` feature",
        label = "the dates of time and jiff are mapped by the features of those names",
        note = "if this is `time::Date`, turn the `time` feature on (`cargo add elicit-mcp --features time`); if it is `jiff::civil::Date`, the `jiff` feature (`cargo add elicit-mcp --features jiff`)"
    )]
    DateType: ["time", "jiff"];
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is a form field type only with elicit-mcp's `url` feature",
        label = "`url::Url` is mapped by the `url` feature, which is off",
        note = "if this is `url::Url`, turn the feature on: `cargo add elicit-mcp --features url`, or `features = [\"url\"]` on elicit-mcp in Cargo.toml"
    )]
    UrlType: ["url"];
}

/// The constants of a derived form, kept out of the public `Elicit` trait.
pub trait FormSchema {
    /// The properties, in declaration order.
    const PROPERTIES: &'static [Property];
    /// Evaluating this runs the compile-time checks that need the field types.
    const CHECKS: ();
}

/// A single-select's value as the enum's variant. The derived schema's choices are the enum's,
/// so `from_wire` is the membership test; the schema is only read to report an error.
#[inline]
pub fn choice<E: ElicitChoice>(value: &Value, schema: &PrimitiveSchema) -> Result<E, Problem> {
    match value.as_str().and_then(E::from_wire) {
        Some(choice) => Ok(choice),
        None => Err(not_a_choice::<E>(value, schema)),
    }
}

/// Why a value is not one of the choices, worded as the shared validator words it.
#[cold]
fn not_a_choice<E: ElicitChoice>(value: &Value, schema: &PrimitiveSchema) -> Problem {
    crate::validate::choice(schema, value)
        .err()
        .unwrap_or_else(|| Problem::NotAChoice {
            value: value.as_str().unwrap_or_default().to_owned(),
            choices: E::CHOICES.values.iter().map(|v| v.to_string()).collect(),
        })
}

type Leaked = (&'static RequestedSchema, &'static str);

/// The schema of a generic form type, built from its constant on first use and kept for the life
/// of the process: a `static` cannot depend on type parameters.
pub fn generic_schema<T: 'static>(build: fn() -> RequestedSchema) -> Leaked {
    static CACHE: OnceLock<RwLock<HashMap<TypeId, Leaked>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let id = TypeId::of::<T>();
    if let Some(found) = cache.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return *found;
    }
    let mut write = cache.write().unwrap_or_else(|e| e.into_inner());
    *write.entry(id).or_insert_with(|| {
        let schema: &'static RequestedSchema = Box::leak(Box::new(build()));
        let json = serde_json::to_string(schema).unwrap_or_default();
        (schema, Box::leak(json.into_boxed_str()))
    })
}
