//! What the derive's generated code calls. Not public API: no stability promise.
//!
//! Re-exports, under the paths the generated code names: the schema assembly (`const fn`s next
//! to the schema model, in `schema::derived`), the field traits, the reading of one field.
//! Defined here is only what nothing but generated code uses: the reading of a string default,
//! the assembly of a compile-time error message, the traits that word the errors of a type
//! behind a feature, the constants of a derived form, and the cache of a generic form's schema.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

pub use crate::form::defaults::put as put_default;
pub use crate::form::matcher::Matcher;
pub use serde_json::{Map, Value};

use crate::form::error::Problem;
use crate::form::field::ElicitChoice;
pub use crate::form::field::{
    Content, DerivedField, MultiSelectField, Newtype, NumberField, Slot, StringField, read as field,
};
pub use crate::form::read::{DefaultText, Errors, Pattern, default_matches};
use crate::schema::PrimitiveSchema;
pub use crate::schema::derived::{
    Attrs, Choices, DefaultValue, Kind, Message, StringRule, StringRules, TextDefaultMisfit,
    declared_format, float, narrow, property, refuse_bound_misfit, refuse_default_outside,
    refuse_format_clash, refuse_hidden_secret, refuse_more_items_than_choices,
    refuse_type_declared, text_default_misfit,
};
pub use crate::schema::json::{json_bytes, json_len, json_str};
pub use crate::schema::{Number, Property, RequestedSchema, StringFormat, Text, TitledOption};

pub use std::borrow::Cow::Borrowed;

/// The `schemars` impls' helpers, for the expansion of `__impl_json_schema!`.
#[cfg(feature = "schemars")]
pub use crate::form::json_schema::with_schemars as json_schema;

/// A string default as the field's default literal. Only a field whose default is text takes
/// one (a string, a typed value, a newtype of one: their literal is `&'static str`); on any
/// other field the derive's compile-time check ([`text_default_misfit`]) stops the build first,
/// with the default to write instead, so that no trait error speaks for it. The literal's type
/// is the field's, named by the generated code, so this never fails in a program that compiles;
/// the error it would give is the one of a default of the wrong type.
pub fn text_default<D: 'static>(text: &'static str) -> Result<D, Problem> {
    let mut text = Some(text);
    match (&mut text as &mut dyn Any).downcast_mut::<Option<D>>() {
        Some(literal) => literal.take().ok_or(Problem::Missing),
        None => Err(Problem::WrongType {
            expected: "the field's own type of default",
            found: "a string",
        }),
    }
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
    /// The form read from its content, borrowed (`from_content`) or given away
    /// (`from_content_owned`): one body for both, written by the derive.
    fn read_content<C: Content>(content: C) -> Result<Self, crate::ContentError>
    where
        Self: Sized;
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
    crate::form::validate::choice(schema, value)
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
