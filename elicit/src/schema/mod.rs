//! The typed model of the restricted `requestedSchema` subset of form-mode elicitation.
//!
//! A [`RequestedSchema`] is a flat object schema whose properties are each one
//! [`PrimitiveSchema`]: one variant per `PrimitiveSchemaDefinition` of the MCP spec
//! (revision 2025-11-25). It serializes into exactly the spec's JSON, and it deserializes any
//! incoming `requestedSchema`, rejecting what lies outside the subset with a [`SchemaError`]
//! that names the property.
//!
//! The types follow the spec and will grow with it, so they are `#[non_exhaustive]`: a `match`
//! on [`PrimitiveSchema`] or [`StringFormat`] needs a `_` arm, and a struct is built with its
//! `new(..)` (or `Default` when every member is optional) and chainable `with_*` setters. The
//! fields stay public to read and to change through `&mut`.
//!
//! ```
//! use elicit_mcp::schema::{
//!     NumberSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringFormat,
//!     StringSchema,
//! };
//!
//! let schema = RequestedSchema::new(vec![
//!     Property::new("email", true, PrimitiveSchema::String(
//!         StringSchema::default().with_title("Email").with_format(StringFormat::Email),
//!     )),
//!     Property::new("guests", false, PrimitiveSchema::Number(
//!         NumberSchema::new(NumberType::Integer).with_minimum(1).with_maximum(8),
//!     )),
//! ]);
//! assert_eq!(
//!     serde_json::to_value(&schema).unwrap()["properties"]["guests"],
//!     serde_json::json!({"type": "integer", "minimum": 1, "maximum": 8}),
//! );
//! ```
//!
//! Every text is a `Cow<'static, str>` and every list a `Cow<'static, [_]>`, so the schemas the
//! derive emits are built in constants (borrowed, no allocation) while parsed ones own their data.
//!
//! ```
//! use elicit_mcp::schema::RequestedSchema;
//!
//! let json = r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#;
//! let schema: RequestedSchema = serde_json::from_str(json).unwrap();
//! assert_eq!(schema.properties()[0].name, "name");
//! assert_eq!(serde_json::to_string(&schema).unwrap(), json);
//!
//! let nested = r#"{"type":"object","properties":{"address":{"type":"object"}}}"#;
//! let err = serde_json::from_str::<RequestedSchema>(nested).unwrap_err();
//! assert!(err.to_string().contains("property `address`"));
//! ```

mod error;
pub(crate) mod json;
mod parse;
mod serialize;

pub use error::SchemaError;
use parse::SchemaParts;
pub(crate) use parse::kind_of;

use std::borrow::Cow;

use serde_json::Value;

pub use crate::number::{MAX_SAFE_INTEGER, Number};

/// A text of the schema: borrowed in emitted schemas, owned in parsed ones.
pub type Text = Cow<'static, str>;

/// A list of the schema: borrowed in emitted schemas, owned in parsed ones.
pub type List<T> = Cow<'static, [T]>;

/// The `requestedSchema` of a form-mode `elicitation/create` request.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RequestedSchema {
    /// `$schema`: the JSON Schema dialect, rarely sent.
    pub schema_uri: Option<Text>,
    /// `title` of the whole form (not part of the spec's subset, but sent by some SDKs).
    pub title: Option<Text>,
    /// `description` of the whole form (as `title`).
    pub description: Option<Text>,
    /// The properties in order; `required` is carried per property.
    pub properties: List<Property>,
}

/// One property of the form: its wire name, whether it is in `required`, and its schema.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Property {
    /// The key in `properties` and in the accepted `content`.
    pub name: Text,
    /// Whether the name is listed in `required`.
    pub required: bool,
    /// The property's schema.
    pub schema: PrimitiveSchema,
}

/// One `PrimitiveSchemaDefinition` of the spec.
///
/// A client renders a form by walking its properties, one widget per variant:
///
/// ```
/// use elicit_mcp::schema::{PrimitiveSchema, RequestedSchema};
///
/// // Read from the request's text, the properties keep the sender's order.
/// let schema: RequestedSchema = serde_json::from_str(r#"{
///     "type": "object",
///     "properties": {
///         "name": {"type": "string", "title": "Your name", "minLength": 1},
///         "guests": {"type": "integer", "minimum": 1, "maximum": 8, "default": 2},
///         "room": {"type": "string", "oneOf": [
///             {"const": "std", "title": "Standard"}, {"const": "ste", "title": "Suite"}
///         ]},
///         "extras": {"type": "array", "items": {"type": "string", "enum": ["breakfast", "parking"]}}
///     },
///     "required": ["name"]
/// }"#)
/// .unwrap();
///
/// let widgets: Vec<String> = schema
///     .properties()
///     .iter()
///     .map(|property| {
///         let label = property.schema.title().unwrap_or(&property.name);
///         let mark = if property.required { "*" } else { "" };
///         match &property.schema {
///             PrimitiveSchema::String(_) => format!("text {label}{mark}"),
///             PrimitiveSchema::Number(number) => {
///                 format!("number {label}{mark} {:?}..{:?}", number.minimum, number.maximum)
///             }
///             PrimitiveSchema::Boolean(_) => format!("checkbox {label}{mark}"),
///             PrimitiveSchema::SingleSelect(_)
///             | PrimitiveSchema::TitledSingleSelect(_)
///             | PrimitiveSchema::LegacyTitled(_) => format!("dropdown {label}{mark}"),
///             PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => {
///                 format!("checkboxes {label}{mark}: {}", property.schema.choices().unwrap().join(", "))
///             }
///             // The spec's list of primitive schemas grows; a later one is shown as text.
///             _ => format!("text {label}{mark}"),
///         }
///     })
///     .collect();
/// assert_eq!(widgets[0], "text Your name*");
/// assert_eq!(widgets[2], "dropdown room");
/// assert_eq!(widgets[3], "checkboxes extras: breakfast, parking");
/// assert_eq!(schema.properties()[1].schema.default_value(), Some(serde_json::json!(2)));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PrimitiveSchema {
    /// `{"type": "string", ...}`
    String(StringSchema),
    /// `{"type": "number" | "integer", ...}`
    Number(NumberSchema),
    /// `{"type": "boolean", ...}`
    Boolean(BooleanSchema),
    /// `{"type": "string", "enum": [...]}`
    SingleSelect(UntitledSingleSelectEnumSchema),
    /// `{"type": "string", "oneOf": [{"const", "title"}, ...]}`
    TitledSingleSelect(TitledSingleSelectEnumSchema),
    /// `{"type": "array", "items": {"type": "string", "enum": [...]}}`
    MultiSelect(UntitledMultiSelectEnumSchema),
    /// `{"type": "array", "items": {"anyOf": [{"const", "title"}, ...]}}`
    TitledMultiSelect(TitledMultiSelectEnumSchema),
    /// `{"type": "string", "enum": [...], "enumNames": [...]}`: deprecated by the spec, accepted
    /// from peers; the derive emits `oneOf` instead.
    LegacyTitled(LegacyTitledEnumSchema),
}

/// The `format`s a string property may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StringFormat {
    /// `email`: an email address (RFC 5321 mailbox syntax).
    Email,
    /// `uri`: an absolute URI (RFC 3986).
    Uri,
    /// `date`: an RFC 3339 full-date, `2024-02-29`.
    Date,
    /// `date-time`: an RFC 3339 date-time, `2024-02-29T12:00:00Z`.
    DateTime,
}

impl StringFormat {
    /// The keyword's value on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            StringFormat::Email => "email",
            StringFormat::Uri => "uri",
            StringFormat::Date => "date",
            StringFormat::DateTime => "date-time",
        }
    }

    /// The format with this wire name, if the spec allows it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "email" => Some(StringFormat::Email),
            "uri" => Some(StringFormat::Uri),
            "date" => Some(StringFormat::Date),
            "date-time" => Some(StringFormat::DateTime),
            _ => None,
        }
    }
}

/// `type: "string"`, with optional length bounds, pattern and format.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct StringSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `minLength`, in Unicode code points.
    pub min_length: Option<u64>,
    /// `maxLength`, in Unicode code points.
    pub max_length: Option<u64>,
    /// `pattern`, a regular expression the value must contain a match of.
    pub pattern: Option<Text>,
    /// `format`
    pub format: Option<StringFormat>,
    /// `default`
    pub default: Option<Text>,
}

/// Whether a number property takes any number or only integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumberType {
    /// `type: "number"`
    Number,
    /// `type: "integer"`
    Integer,
}

impl NumberType {
    /// The keyword's value on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            NumberType::Number => "number",
            NumberType::Integer => "integer",
        }
    }
}

/// `type: "number"` or `type: "integer"`, with optional inclusive bounds.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct NumberSchema {
    /// `type`
    pub kind: NumberType,
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `minimum`, inclusive.
    pub minimum: Option<Number>,
    /// `maximum`, inclusive.
    pub maximum: Option<Number>,
    /// `default`
    pub default: Option<Number>,
}

/// `type: "boolean"`.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct BooleanSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `default`
    pub default: Option<bool>,
}

/// A choice with a display title: `{"const": value, "title": title}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TitledOption {
    /// `const`: the value sent back in `content`.
    pub value: Text,
    /// `title`: what the user sees.
    pub title: Text,
}

/// Single-select without titles: `{"type": "string", "enum": [...]}`.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct UntitledSingleSelectEnumSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `enum`: the values to choose from.
    pub values: List<Text>,
    /// `default`
    pub default: Option<Text>,
}

/// Single-select with titles: `{"type": "string", "oneOf": [{"const", "title"}, ...]}`.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct TitledSingleSelectEnumSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `oneOf`: the options to choose from.
    pub options: List<TitledOption>,
    /// `default`
    pub default: Option<Text>,
}

/// Multi-select without titles: `{"type": "array", "items": {"type": "string", "enum": [...]}}`.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct UntitledMultiSelectEnumSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `minItems`
    pub min_items: Option<u64>,
    /// `maxItems`
    pub max_items: Option<u64>,
    /// `items.enum`: the values to choose from.
    pub values: List<Text>,
    /// `default`
    pub default: Option<List<Text>>,
}

/// Multi-select with titles: `{"type": "array", "items": {"anyOf": [{"const", "title"}, ...]}}`.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct TitledMultiSelectEnumSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `minItems`
    pub min_items: Option<u64>,
    /// `maxItems`
    pub max_items: Option<u64>,
    /// `items.anyOf`: the options to choose from.
    pub options: List<TitledOption>,
    /// `default`
    pub default: Option<List<Text>>,
}

/// The deprecated titled single-select: `{"type": "string", "enum": [...], "enumNames": [...]}`.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub struct LegacyTitledEnumSchema {
    /// `title`
    pub title: Option<Text>,
    /// `description`
    pub description: Option<Text>,
    /// `enum`: the values to choose from.
    pub values: List<Text>,
    /// `enumNames`: the display name of each value, in the same order.
    pub names: List<Text>,
    /// `default`
    pub default: Option<Text>,
}

/// Chainable setters for the optional members of a schema struct: `with_title(..)` sets
/// `title`, and so on. One macro so that every struct names its setters the same way.
macro_rules! with_setters {
    ($ty:ident { $($(#[$doc:meta])* $setter:ident: $field:ident: $value:ty),* $(,)? }) => {
        impl $ty {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $setter(mut self, $field: $value) -> Self {
                    self.$field = Some(into($field));
                    self
                }
            )*
        }
    };
}

/// `Into::into`, callable alike on a value that needs converting and on one of the field's own
/// type (a `u64`, a `bool`) that the setters take as it is.
fn into<T, U: Into<T>>(value: U) -> T {
    value.into()
}

/// A list of texts from any iterator of texts, owned.
fn text_list<I>(items: I) -> List<Text>
where
    I: IntoIterator,
    I::Item: Into<Text>,
{
    Cow::Owned(items.into_iter().map(Into::into).collect())
}

with_setters!(StringSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `minLength`, in Unicode code points.
    with_min_length: min_length: u64,
    /// Sets `maxLength`, in Unicode code points.
    with_max_length: max_length: u64,
    /// Sets `pattern`.
    with_pattern: pattern: impl Into<Text>,
    /// Sets `format`.
    with_format: format: StringFormat,
    /// Sets `default`.
    with_default: default: impl Into<Text>,
});

impl NumberSchema {
    /// A number property of this `type` with no bounds, texts or default.
    pub fn new(kind: NumberType) -> Self {
        NumberSchema {
            kind,
            title: None,
            description: None,
            minimum: None,
            maximum: None,
            default: None,
        }
    }
}

with_setters!(NumberSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `minimum`, inclusive.
    with_minimum: minimum: impl Into<Number>,
    /// Sets `maximum`, inclusive.
    with_maximum: maximum: impl Into<Number>,
    /// Sets `default`.
    with_default: default: impl Into<Number>,
});

with_setters!(BooleanSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `default`.
    with_default: default: bool,
});

impl TitledOption {
    /// An option sending `value` and showing `title`.
    pub fn new(value: impl Into<Text>, title: impl Into<Text>) -> Self {
        TitledOption {
            value: value.into(),
            title: title.into(),
        }
    }

    /// An option sending `value` and showing `title`, usable in constants.
    pub const fn from_static(value: &'static str, title: &'static str) -> Self {
        TitledOption {
            value: Cow::Borrowed(value),
            title: Cow::Borrowed(title),
        }
    }
}

impl UntitledSingleSelectEnumSchema {
    /// A single-select among these values.
    pub fn new<I>(values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Text>,
    {
        UntitledSingleSelectEnumSchema {
            values: text_list(values),
            ..Default::default()
        }
    }
}

with_setters!(UntitledSingleSelectEnumSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `default`.
    with_default: default: impl Into<Text>,
});

impl TitledSingleSelectEnumSchema {
    /// A single-select among these options.
    pub fn new(options: impl IntoIterator<Item = TitledOption>) -> Self {
        TitledSingleSelectEnumSchema {
            options: Cow::Owned(options.into_iter().collect()),
            ..Default::default()
        }
    }
}

with_setters!(TitledSingleSelectEnumSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `default`.
    with_default: default: impl Into<Text>,
});

impl UntitledMultiSelectEnumSchema {
    /// A multi-select among these values.
    pub fn new<I>(values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Text>,
    {
        UntitledMultiSelectEnumSchema {
            values: text_list(values),
            ..Default::default()
        }
    }

    /// Sets `default`: the values checked at first.
    #[must_use]
    pub fn with_default<I>(mut self, values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Text>,
    {
        self.default = Some(text_list(values));
        self
    }
}

with_setters!(UntitledMultiSelectEnumSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `minItems`.
    with_min_items: min_items: u64,
    /// Sets `maxItems`.
    with_max_items: max_items: u64,
});

impl TitledMultiSelectEnumSchema {
    /// A multi-select among these options.
    pub fn new(options: impl IntoIterator<Item = TitledOption>) -> Self {
        TitledMultiSelectEnumSchema {
            options: Cow::Owned(options.into_iter().collect()),
            ..Default::default()
        }
    }

    /// Sets `default`: the values checked at first.
    #[must_use]
    pub fn with_default<I>(mut self, values: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Text>,
    {
        self.default = Some(text_list(values));
        self
    }
}

with_setters!(TitledMultiSelectEnumSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `minItems`.
    with_min_items: min_items: u64,
    /// Sets `maxItems`.
    with_max_items: max_items: u64,
});

impl LegacyTitledEnumSchema {
    /// A legacy titled single-select among these options: each option's value goes to `enum`
    /// and its title to `enumNames`, so the two lists cannot disagree in length.
    pub fn new(options: impl IntoIterator<Item = TitledOption>) -> Self {
        let (values, names): (Vec<Text>, Vec<Text>) = options
            .into_iter()
            .map(|option| (option.value, option.title))
            .unzip();
        LegacyTitledEnumSchema {
            values: Cow::Owned(values),
            names: Cow::Owned(names),
            ..Default::default()
        }
    }
}

with_setters!(LegacyTitledEnumSchema {
    /// Sets `title`.
    with_title: title: impl Into<Text>,
    /// Sets `description`.
    with_description: description: impl Into<Text>,
    /// Sets `default`.
    with_default: default: impl Into<Text>,
});

with_setters!(RequestedSchema {
    /// Sets `$schema`, the JSON Schema dialect.
    with_schema_uri: schema_uri: impl Into<Text>,
    /// Sets the whole form's `title`.
    with_title: title: impl Into<Text>,
    /// Sets the whole form's `description`.
    with_description: description: impl Into<Text>,
});

impl RequestedSchema {
    /// A schema over these properties, usable in constants.
    pub const fn from_static(properties: &'static [Property]) -> Self {
        RequestedSchema {
            schema_uri: None,
            title: None,
            description: None,
            properties: Cow::Borrowed(properties),
        }
    }

    /// A schema over these properties.
    pub fn new(properties: Vec<Property>) -> Self {
        RequestedSchema {
            schema_uri: None,
            title: None,
            description: None,
            properties: Cow::Owned(properties),
        }
    }

    /// The properties, in order.
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }

    /// The property with this wire name.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }

    /// The names listed in `required`, in order.
    pub fn required(&self) -> impl Iterator<Item = &str> {
        self.properties
            .iter()
            .filter(|p| p.required)
            .map(|p| &*p.name)
    }

    /// Reads a `requestedSchema` from its members: `properties` as (name, schema) pairs in the
    /// sender's order, and the outer object's other members. The same checks as
    /// [`from_value`](Self::from_value); for models that hold the properties in order but cannot
    /// go through a JSON object without losing it.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn from_members(
        properties: Vec<(String, Value)>,
        other: Vec<(String, Value)>,
    ) -> Result<Self, SchemaError> {
        SchemaParts {
            properties: Some(properties),
            other,
        }
        .build()
    }

    /// Reads a `requestedSchema` from a JSON value, rejecting anything outside the subset.
    ///
    /// Properties come in the map's iteration order; use `serde_json::from_str` (or any
    /// `Deserializer`) on the text to keep the sender's order.
    pub fn from_value(value: &Value) -> Result<Self, SchemaError> {
        let object = value.as_object().ok_or_else(|| {
            SchemaError::top(None, format!("must be an object, found {}", kind_of(value)))
        })?;
        let mut parts = SchemaParts::default();
        for (key, value) in object {
            if key == "properties" {
                let properties = value.as_object().ok_or_else(|| {
                    SchemaError::top(
                        Some("properties"),
                        format!("must be an object, found {}", kind_of(value)),
                    )
                })?;
                parts.properties = Some(
                    properties
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                );
            } else {
                parts.other.push((key.clone(), value.clone()));
            }
        }
        parts.build()
    }
}

impl Property {
    /// A property named `name`, listed in `required` if `required`.
    pub fn new(name: impl Into<Text>, required: bool, schema: PrimitiveSchema) -> Self {
        Property {
            name: name.into(),
            required,
            schema,
        }
    }

    /// A property, usable in constants.
    pub const fn from_static(name: &'static str, required: bool, schema: PrimitiveSchema) -> Self {
        Property {
            name: Cow::Borrowed(name),
            required,
            schema,
        }
    }
}

impl PrimitiveSchema {
    /// `title`, whatever the variant.
    pub fn title(&self) -> Option<&str> {
        self.texts().0.as_deref()
    }

    /// `description`, whatever the variant.
    pub fn description(&self) -> Option<&str> {
        self.texts().1.as_deref()
    }

    fn texts(&self) -> (&Option<Text>, &Option<Text>) {
        match self {
            PrimitiveSchema::String(s) => (&s.title, &s.description),
            PrimitiveSchema::Number(s) => (&s.title, &s.description),
            PrimitiveSchema::Boolean(s) => (&s.title, &s.description),
            PrimitiveSchema::SingleSelect(s) => (&s.title, &s.description),
            PrimitiveSchema::TitledSingleSelect(s) => (&s.title, &s.description),
            PrimitiveSchema::MultiSelect(s) => (&s.title, &s.description),
            PrimitiveSchema::TitledMultiSelect(s) => (&s.title, &s.description),
            PrimitiveSchema::LegacyTitled(s) => (&s.title, &s.description),
        }
    }

    /// The allowed values of a single- or multi-select, `None` for other variants.
    pub fn choices(&self) -> Option<Vec<&str>> {
        fn titled(options: &[TitledOption]) -> Vec<&str> {
            options.iter().map(|o| &*o.value).collect()
        }
        fn plain(values: &[Text]) -> Vec<&str> {
            values.iter().map(|v| &**v).collect()
        }
        match self {
            PrimitiveSchema::SingleSelect(s) => Some(plain(&s.values)),
            PrimitiveSchema::MultiSelect(s) => Some(plain(&s.values)),
            PrimitiveSchema::LegacyTitled(s) => Some(plain(&s.values)),
            PrimitiveSchema::TitledSingleSelect(s) => Some(titled(&s.options)),
            PrimitiveSchema::TitledMultiSelect(s) => Some(titled(&s.options)),
            _ => None,
        }
    }

    /// Whether the property is a choice among values (`true` for every select variant).
    pub fn contains_choice(&self, value: &str) -> bool {
        match self {
            PrimitiveSchema::SingleSelect(s) => s.values.iter().any(|v| v == value),
            PrimitiveSchema::MultiSelect(s) => s.values.iter().any(|v| v == value),
            PrimitiveSchema::LegacyTitled(s) => s.values.iter().any(|v| v == value),
            PrimitiveSchema::TitledSingleSelect(s) => s.options.iter().any(|o| o.value == value),
            PrimitiveSchema::TitledMultiSelect(s) => s.options.iter().any(|o| o.value == value),
            _ => false,
        }
    }

    /// The `default`, as the JSON value it stands for in `content`.
    pub fn default_value(&self) -> Option<Value> {
        let text = |t: &Option<Text>| t.as_ref().map(|t| Value::String(t.to_string()));
        let texts = |t: &Option<List<Text>>| {
            t.as_ref().map(|list| {
                Value::Array(list.iter().map(|t| Value::String(t.to_string())).collect())
            })
        };
        match self {
            PrimitiveSchema::String(s) => text(&s.default),
            PrimitiveSchema::Number(s) => s.default.map(|n| number_value(&n)),
            PrimitiveSchema::Boolean(s) => s.default.map(Value::Bool),
            PrimitiveSchema::SingleSelect(s) => text(&s.default),
            PrimitiveSchema::TitledSingleSelect(s) => text(&s.default),
            PrimitiveSchema::LegacyTitled(s) => text(&s.default),
            PrimitiveSchema::MultiSelect(s) => texts(&s.default),
            PrimitiveSchema::TitledMultiSelect(s) => texts(&s.default),
        }
    }
}

pub(crate) fn number_value(n: &Number) -> Value {
    match n.as_i64() {
        Some(i) => Value::from(i),
        None => serde_json::Number::from_f64(n.as_f64())
            .map(Value::Number)
            .unwrap_or(Value::Null),
    }
}
