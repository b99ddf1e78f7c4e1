//! What the derive's generated code calls. Not public API: no stability promise.
//!
//! The schema of a derived form is assembled here by `const fn`s from each field type's
//! [`Kind`] and the field's attributes, so it is a constant of the program; [`bound_misfit`] and
//! [`more_items_than_choices`] run in constants the derive spans on the user's attribute, so a
//! contradiction that only the field's type reveals (through an alias, say) is still a compile
//! error there.

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

pub use regex::Regex;
pub use serde_json::{Map, Value};

use crate::error::Problem;
use crate::field::ElicitChoice;
pub use crate::field::{
    Choices, DerivedField, Kind, MultiSelectField, Newtype, NumberField, StringField, StringRules,
};
use crate::number::MAX_SAFE_INTEGER;
pub use crate::read::{DefaultText, Errors, Pattern, default_matches, field};
pub use crate::schema::json::{json_bytes, json_len, json_str};
use crate::schema::{
    BooleanSchema, NumberSchema, NumberType, PrimitiveSchema, StringSchema,
    TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema, UntitledMultiSelectEnumSchema,
    UntitledSingleSelectEnumSchema,
};
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

/// A float literal of an attribute, with the JSON text the derive computed for it.
pub const fn float(value: f64, text: &'static str) -> Number {
    Number::from_f64_text(value, text)
}

/// A field's `default`, as the derive read it from the attribute.
#[derive(Clone, Copy)]
pub enum DefaultValue {
    None,
    Str(&'static str),
    Number(Number),
    Bool(bool),
    Choice(&'static str),
    Choices(&'static [Text]),
}

/// A field's attributes, as far as they shape the schema.
#[derive(Clone, Copy)]
pub struct Attrs {
    pub title: Option<&'static str>,
    pub description: Option<&'static str>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<&'static str>,
    pub format: Option<StringFormat>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub default: DefaultValue,
}

impl Attrs {
    /// No attribute: the property exactly as the type maps it.
    pub const NONE: Attrs = Attrs {
        title: None,
        description: None,
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
        minimum: None,
        maximum: None,
        min_items: None,
        max_items: None,
        default: DefaultValue::None,
    };
}

const fn text(value: Option<&'static str>) -> Option<Text> {
    match value {
        Some(s) => Some(Cow::Borrowed(s)),
        None => None,
    }
}

const fn default_text(default: DefaultValue) -> Option<Text> {
    match default {
        DefaultValue::Str(s) | DefaultValue::Choice(s) => Some(Cow::Borrowed(s)),
        _ => None,
    }
}

const fn default_texts(default: DefaultValue) -> Option<Cow<'static, [Text]>> {
    match default {
        DefaultValue::Choices(list) => Some(Cow::Borrowed(list)),
        _ => None,
    }
}

const fn or<T: Copy>(attr: Option<T>, fallback: Option<T>) -> Option<T> {
    match attr {
        Some(n) => Some(n),
        None => fallback,
    }
}

/// The property of a field of kind `kind`, narrowed by `attrs`.
pub const fn property(name: &'static str, optional: bool, kind: Kind, attrs: Attrs) -> Property {
    // A field with a default may be left out: the parser fills it in.
    let required = !optional && matches!(attrs.default, DefaultValue::None);
    let title = text(attrs.title);
    let description = text(attrs.description);
    let schema = match kind {
        Kind::String(rules) => PrimitiveSchema::String(StringSchema {
            title,
            description,
            min_length: or(attrs.min_length, rules.min_length),
            max_length: or(attrs.max_length, rules.max_length),
            pattern: text(or(attrs.pattern, rules.pattern)),
            format: or(attrs.format, rules.format),
            default: default_text(attrs.default),
        }),
        Kind::Boolean => PrimitiveSchema::Boolean(BooleanSchema {
            title,
            description,
            default: match attrs.default {
                DefaultValue::Bool(b) => Some(b),
                _ => None,
            },
        }),
        Kind::Integer { minimum, maximum } => PrimitiveSchema::Number(NumberSchema {
            kind: NumberType::Integer,
            title,
            description,
            minimum: or(attrs.minimum, Some(Number::from_i64(minimum))),
            maximum: or(attrs.maximum, Some(Number::from_i64(maximum))),
            default: number_default(attrs.default),
        }),
        Kind::Number { minimum, maximum } => PrimitiveSchema::Number(NumberSchema {
            kind: NumberType::Number,
            title,
            description,
            minimum: or(attrs.minimum, minimum),
            maximum: or(attrs.maximum, maximum),
            default: number_default(attrs.default),
        }),
        Kind::Choice(Choices {
            values,
            titled: None,
        }) => PrimitiveSchema::SingleSelect(UntitledSingleSelectEnumSchema {
            title,
            description,
            values: Cow::Borrowed(values),
            default: default_text(attrs.default),
        }),
        Kind::Choice(Choices {
            titled: Some(options),
            ..
        }) => PrimitiveSchema::TitledSingleSelect(TitledSingleSelectEnumSchema {
            title,
            description,
            options: Cow::Borrowed(options),
            default: default_text(attrs.default),
        }),
        Kind::Multi(Choices {
            values,
            titled: None,
        }) => PrimitiveSchema::MultiSelect(UntitledMultiSelectEnumSchema {
            title,
            description,
            min_items: attrs.min_items,
            max_items: attrs.max_items,
            values: Cow::Borrowed(values),
            default: default_texts(attrs.default),
        }),
        Kind::Multi(Choices {
            titled: Some(options),
            ..
        }) => PrimitiveSchema::TitledMultiSelect(TitledMultiSelectEnumSchema {
            title,
            description,
            min_items: attrs.min_items,
            max_items: attrs.max_items,
            options: Cow::Borrowed(options),
            default: default_texts(attrs.default),
        }),
    };
    Property {
        name: Cow::Borrowed(name),
        required,
        schema,
    }
}

const fn number_default(default: DefaultValue) -> Option<Number> {
    match default {
        DefaultValue::Number(n) => Some(n),
        _ => None,
    }
}

/// The kind of a newtype: its field's kind, narrowed by what the newtype's attributes declare.
/// A bound that does not fit the field's type is reported by [`bound_misfit`] first.
pub const fn narrow(kind: Kind, attrs: Attrs) -> Kind {
    match kind {
        Kind::String(rules) => Kind::String(StringRules {
            min_length: or(attrs.min_length, rules.min_length),
            max_length: or(attrs.max_length, rules.max_length),
            pattern: or(attrs.pattern, rules.pattern),
            format: or(attrs.format, rules.format),
        }),
        Kind::Integer { minimum, maximum } => Kind::Integer {
            minimum: match attrs.minimum {
                Some(n) => match n.as_i64() {
                    Some(i) => i,
                    None => minimum,
                },
                None => minimum,
            },
            maximum: match attrs.maximum {
                Some(n) => match n.as_i64() {
                    Some(i) => i,
                    None => maximum,
                },
                None => maximum,
            },
        },
        Kind::Number { minimum, maximum } => Kind::Number {
            minimum: or(attrs.minimum, minimum),
            maximum: or(attrs.maximum, maximum),
        },
        other => other,
    }
}

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
    MinLength,
    MaxLength,
    Pattern,
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

/// Whether a `minimum` or `maximum` fits the field's type: an integer field takes integer bounds
/// within its type's range. The derive matches on the answer in a constant it spans on the
/// attribute and panics there with the message, so the error points at the user's attribute.
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

/// The constants of a derived form, kept out of the public `Elicit` trait.
pub trait FormSchema {
    /// The properties, in declaration order.
    const PROPERTIES: &'static [Property];
    /// Evaluating this runs the compile-time checks that need the field types.
    const CHECKS: ();
}

/// A single-select's value as the enum's variant. The derived schema's choices are the enum's,
/// so `from_wire` is the membership test; the schema is only read to report an error.
pub fn choice<E: ElicitChoice>(value: &Value, schema: &PrimitiveSchema) -> Result<E, Problem> {
    match value.as_str().and_then(E::from_wire) {
        Some(choice) => Ok(choice),
        None => Err(crate::validate::choice(schema, value)
            .err()
            .unwrap_or_else(|| Problem::NotAChoice {
                value: value.as_str().unwrap_or_default().to_owned(),
                choices: E::CHOICES.values.iter().map(|v| v.to_string()).collect(),
            })),
    }
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
