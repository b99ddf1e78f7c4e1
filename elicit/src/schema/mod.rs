//! The typed model of the restricted `requestedSchema` subset of form-mode elicitation.
//!
//! A [`RequestedSchema`] is a flat object schema whose properties are each one
//! [`PrimitiveSchema`]: one variant per `PrimitiveSchemaDefinition` of the MCP spec
//! (revision 2025-11-25). It serializes into exactly the spec's JSON, and it deserializes any
//! incoming `requestedSchema`, rejecting what lies outside the subset with a [`SchemaError`]
//! that names the property.
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
///         }
///     })
///     .collect();
/// assert_eq!(widgets[0], "text Your name*");
/// assert_eq!(widgets[2], "dropdown room");
/// assert_eq!(widgets[3], "checkboxes extras: breakfast, parking");
/// assert_eq!(schema.properties()[1].schema.default_value(), Some(serde_json::json!(2)));
/// ```
#[derive(Clone, Debug, PartialEq)]
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
pub struct TitledOption {
    /// `const`: the value sent back in `content`.
    pub value: Text,
    /// `title`: what the user sees.
    pub title: Text,
}

/// Single-select without titles: `{"type": "string", "enum": [...]}`.
#[derive(Clone, Debug, PartialEq, Default)]
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
    /// A property, usable in constants.
    pub const fn new(name: &'static str, required: bool, schema: PrimitiveSchema) -> Self {
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
