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
//! use elicit::schema::RequestedSchema;
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

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

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

// ---------------------------------------------------------------------------------------------
// Serialization: the key order follows the spec's own examples.

impl Serialize for RequestedSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(uri) = &self.schema_uri {
            map.serialize_entry("$schema", uri)?;
        }
        map.serialize_entry("type", "object")?;
        entry(&mut map, "title", &self.title)?;
        entry(&mut map, "description", &self.description)?;
        map.serialize_entry("properties", &PropertiesMap(&self.properties))?;
        if self.properties.iter().any(|p| p.required) {
            map.serialize_entry("required", &RequiredList(&self.properties))?;
        }
        map.end()
    }
}

struct PropertiesMap<'a>(&'a [Property]);

impl Serialize for PropertiesMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for property in self.0 {
            map.serialize_entry(&*property.name, &property.schema)?;
        }
        map.end()
    }
}

struct RequiredList<'a>(&'a [Property]);

impl Serialize for RequiredList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for property in self.0.iter().filter(|p| p.required) {
            seq.serialize_element(&*property.name)?;
        }
        seq.end()
    }
}

fn entry<M: SerializeMap, T: Serialize>(
    map: &mut M,
    key: &'static str,
    value: &Option<T>,
) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(key, value),
        None => Ok(()),
    }
}

struct Options<'a>(&'a [TitledOption]);

impl Serialize for Options<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for option in self.0 {
            seq.serialize_element(option)?;
        }
        seq.end()
    }
}

impl Serialize for TitledOption {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("const", &self.value)?;
        map.serialize_entry("title", &self.title)?;
        map.end()
    }
}

struct Items<'a>(&'a PrimitiveSchema);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self.0 {
            PrimitiveSchema::MultiSelect(s) => {
                map.serialize_entry("type", "string")?;
                map.serialize_entry("enum", &s.values)?;
            }
            PrimitiveSchema::TitledMultiSelect(s) => {
                map.serialize_entry("anyOf", &Options(&s.options))?;
            }
            _ => {}
        }
        map.end()
    }
}

impl Serialize for PrimitiveSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let (title, description) = self.texts();
        let kind = match self {
            PrimitiveSchema::Number(s) => s.kind.as_str(),
            PrimitiveSchema::Boolean(_) => "boolean",
            PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => "array",
            _ => "string",
        };
        map.serialize_entry("type", kind)?;
        entry(&mut map, "title", title)?;
        entry(&mut map, "description", description)?;
        match self {
            PrimitiveSchema::String(s) => {
                entry(&mut map, "minLength", &s.min_length)?;
                entry(&mut map, "maxLength", &s.max_length)?;
                entry(&mut map, "pattern", &s.pattern)?;
                entry(&mut map, "format", &s.format.map(StringFormat::as_str))?;
                entry(&mut map, "default", &s.default)?;
            }
            PrimitiveSchema::Number(s) => {
                entry(&mut map, "minimum", &s.minimum)?;
                entry(&mut map, "maximum", &s.maximum)?;
                entry(&mut map, "default", &s.default)?;
            }
            PrimitiveSchema::Boolean(s) => entry(&mut map, "default", &s.default)?,
            PrimitiveSchema::SingleSelect(s) => {
                map.serialize_entry("enum", &s.values)?;
                entry(&mut map, "default", &s.default)?;
            }
            PrimitiveSchema::TitledSingleSelect(s) => {
                map.serialize_entry("oneOf", &Options(&s.options))?;
                entry(&mut map, "default", &s.default)?;
            }
            PrimitiveSchema::LegacyTitled(s) => {
                map.serialize_entry("enum", &s.values)?;
                map.serialize_entry("enumNames", &s.names)?;
                entry(&mut map, "default", &s.default)?;
            }
            PrimitiveSchema::MultiSelect(UntitledMultiSelectEnumSchema {
                min_items,
                max_items,
                default,
                ..
            })
            | PrimitiveSchema::TitledMultiSelect(TitledMultiSelectEnumSchema {
                min_items,
                max_items,
                default,
                ..
            }) => {
                entry(&mut map, "minItems", min_items)?;
                entry(&mut map, "maxItems", max_items)?;
                map.serialize_entry("items", &Items(self))?;
                entry(&mut map, "default", default)?;
            }
        }
        map.end()
    }
}

// ---------------------------------------------------------------------------------------------
// Deserialization: through JSON values, with errors that name the property and keyword.

/// Why an incoming `requestedSchema` lies outside the spec's restricted subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    property: Option<String>,
    keyword: Option<String>,
    message: String,
}

impl SchemaError {
    fn top(keyword: Option<&str>, message: String) -> Self {
        SchemaError {
            property: None,
            keyword: keyword.map(str::to_owned),
            message,
        }
    }

    pub(crate) fn at(property: &str, keyword: Option<&str>, message: impl Into<String>) -> Self {
        SchemaError {
            property: Some(property.to_owned()),
            keyword: keyword.map(str::to_owned),
            message: message.into(),
        }
    }

    /// The property at fault, or `None` when the fault is in the schema's outer object.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// The keyword at fault (`minLength`, `items`, ...), when one is.
    pub fn keyword(&self) -> Option<&str> {
        self.keyword.as_deref()
    }

    /// What is wrong, without the location.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("requestedSchema")?;
        if let Some(property) = &self.property {
            write!(f, " property `{property}`")?;
        }
        if let Some(keyword) = &self.keyword {
            write!(f, " keyword `{keyword}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SchemaError {}

pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The outer object, split as it is read: `properties` keeps the sender's order.
#[derive(Default)]
struct SchemaParts {
    properties: Option<Vec<(String, Value)>>,
    other: Vec<(String, Value)>,
}

impl SchemaParts {
    fn build(self) -> Result<RequestedSchema, SchemaError> {
        let mut schema = RequestedSchema::new(Vec::new());
        let mut required: Option<Vec<String>> = None;
        let mut saw_type = false;
        for (key, value) in self.other {
            let text = || -> Result<Text, SchemaError> {
                match &value {
                    Value::String(s) => Ok(Cow::Owned(s.clone())),
                    other => Err(SchemaError::top(
                        Some(&key),
                        format!("must be a string, found {}", kind_of(other)),
                    )),
                }
            };
            match key.as_str() {
                "type" => {
                    if value != "object" {
                        return Err(SchemaError::top(
                            Some("type"),
                            format!("must be \"object\", found {value}"),
                        ));
                    }
                    saw_type = true;
                }
                "$schema" => schema.schema_uri = Some(text()?),
                "title" => schema.title = Some(text()?),
                "description" => schema.description = Some(text()?),
                "required" => {
                    required = Some(
                        string_list(&value).map_err(|m| SchemaError::top(Some("required"), m))?,
                    )
                }
                _ => {
                    return Err(SchemaError::top(
                        Some(&key),
                        "is not part of the restricted requestedSchema subset (allowed: $schema, \
                         type, title, description, properties, required)"
                            .to_owned(),
                    ));
                }
            }
        }
        if !saw_type {
            return Err(SchemaError::top(
                Some("type"),
                "is missing; it must be \"object\"".to_owned(),
            ));
        }
        let properties = self
            .properties
            .ok_or_else(|| SchemaError::top(Some("properties"), "is missing".to_owned()))?;
        let required = required.unwrap_or_default();
        let mut seen = HashSet::new();
        for name in &required {
            if !seen.insert(name.as_str()) {
                return Err(SchemaError::at(
                    name,
                    Some("required"),
                    "is listed twice in `required`",
                ));
            }
            if !properties.iter().any(|(n, _)| n == name) {
                return Err(SchemaError::at(
                    name,
                    Some("required"),
                    "is listed in `required` but not defined in `properties`",
                ));
            }
        }
        let properties = properties
            .into_iter()
            .map(|(name, value)| {
                let schema = primitive_from_value(&name, &value)?;
                Ok(Property {
                    required: seen.contains(name.as_str()),
                    name: Cow::Owned(name),
                    schema,
                })
            })
            .collect::<Result<Vec<_>, SchemaError>>()?;
        schema.properties = Cow::Owned(properties);
        Ok(schema)
    }
}

fn string_list(value: &Value) -> Result<Vec<String>, String> {
    let items = value
        .as_array()
        .ok_or_else(|| format!("must be an array of strings, found {}", kind_of(value)))?;
    items
        .iter()
        .map(|item| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(format!(
                "must be an array of strings, found {} in it",
                kind_of(other)
            )),
        })
        .collect()
}

/// Reads the keywords of one property, checking each against the variant's allowed set.
struct Keywords<'a> {
    property: &'a str,
    object: &'a Map<String, Value>,
}

impl<'a> Keywords<'a> {
    fn err(&self, keyword: &str, message: impl Into<String>) -> SchemaError {
        SchemaError::at(self.property, Some(keyword), message)
    }

    fn only(&self, allowed: &[&str], variant: &str) -> Result<(), SchemaError> {
        match self.object.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(()),
            Some(extra) => Err(self.err(
                extra,
                format!(
                    "is not allowed in a {variant} property of the restricted subset (allowed: {})",
                    allowed.join(", ")
                ),
            )),
        }
    }

    fn text(&self, keyword: &str) -> Result<Option<Text>, SchemaError> {
        match self.object.get(keyword) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(Cow::Owned(s.clone()))),
            Some(other) => Err(self.err(
                keyword,
                format!("must be a string, found {}", kind_of(other)),
            )),
        }
    }

    fn count(&self, keyword: &str) -> Result<Option<u64>, SchemaError> {
        match self.object.get(keyword) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .or_else(|| {
                    n.as_f64()
                        .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 2f64.powi(64))
                        .map(|f| f as u64)
                })
                .map(Some)
                .ok_or_else(|| {
                    self.err(
                        keyword,
                        format!("must be a non-negative integer, found {n}"),
                    )
                }),
            Some(other) => Err(self.err(
                keyword,
                format!("must be a non-negative integer, found {}", kind_of(other)),
            )),
        }
    }

    fn number(&self, keyword: &str) -> Result<Option<Number>, SchemaError> {
        match self.object.get(keyword) {
            None => Ok(None),
            Some(Value::Number(n)) => Number::from_json(n)
                .map(Some)
                .ok_or_else(|| self.err(keyword, format!("{n} is not a finite number"))),
            Some(other) => Err(self.err(
                keyword,
                format!("must be a number, found {}", kind_of(other)),
            )),
        }
    }

    fn boolean(&self, keyword: &str) -> Result<Option<bool>, SchemaError> {
        match self.object.get(keyword) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.err(
                keyword,
                format!("must be a boolean, found {}", kind_of(other)),
            )),
        }
    }

    fn texts(&self, keyword: &str) -> Result<Option<Vec<Text>>, SchemaError> {
        match self.object.get(keyword) {
            None => Ok(None),
            Some(value) => string_list(value)
                .map(|list| Some(list.into_iter().map(Cow::Owned).collect()))
                .map_err(|m| self.err(keyword, m)),
        }
    }

    fn options(
        &self,
        keyword: &str,
        value: Option<&Value>,
    ) -> Result<Vec<TitledOption>, SchemaError> {
        let items = value.and_then(Value::as_array).ok_or_else(|| {
            self.err(
                keyword,
                "must be an array of {\"const\", \"title\"} objects",
            )
        })?;
        items
            .iter()
            .map(|item| {
                let object = item.as_object().ok_or_else(|| {
                    self.err(
                        keyword,
                        format!("options must be objects, found {}", kind_of(item)),
                    )
                })?;
                let field = |name: &str| match object.get(name) {
                    Some(Value::String(s)) => Ok(Cow::Owned(s.clone())),
                    _ => Err(self.err(keyword, format!("every option needs a string `{name}`"))),
                };
                if let Some(extra) = object.keys().find(|k| *k != "const" && *k != "title") {
                    return Err(self.err(
                        keyword,
                        format!("an option has `{extra}`; only `const` and `title` are allowed"),
                    ));
                }
                Ok(TitledOption {
                    value: field("const")?,
                    title: field("title")?,
                })
            })
            .collect()
    }
}

fn primitive_from_value(property: &str, value: &Value) -> Result<PrimitiveSchema, SchemaError> {
    let object = value.as_object().ok_or_else(|| {
        SchemaError::at(
            property,
            None,
            format!("must be a schema object, found {}", kind_of(value)),
        )
    })?;
    let k = Keywords { property, object };
    let kind = match object.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(other) => {
            return Err(k.err(
                "type",
                format!("must be a string, found {}", kind_of(other)),
            ));
        }
        None => return Err(k.err("type", "is missing: every property needs `type`")),
    };
    let title = k.text("title")?;
    let description = k.text("description")?;
    let schema = match kind {
        "string" if object.contains_key("oneOf") => {
            k.only(
                &["type", "title", "description", "oneOf", "default"],
                "titled single-select",
            )?;
            PrimitiveSchema::TitledSingleSelect(TitledSingleSelectEnumSchema {
                title,
                description,
                options: Cow::Owned(k.options("oneOf", object.get("oneOf"))?),
                default: k.text("default")?,
            })
        }
        "string" if object.contains_key("enumNames") => {
            k.only(
                &[
                    "type",
                    "title",
                    "description",
                    "enum",
                    "enumNames",
                    "default",
                ],
                "legacy titled enum",
            )?;
            let values = k
                .texts("enum")?
                .ok_or_else(|| k.err("enum", "is required beside `enumNames`"))?;
            let names = k.texts("enumNames")?.unwrap_or_default();
            if names.len() != values.len() {
                return Err(k.err(
                    "enumNames",
                    format!("has {} names for {} values", names.len(), values.len()),
                ));
            }
            PrimitiveSchema::LegacyTitled(LegacyTitledEnumSchema {
                title,
                description,
                values: Cow::Owned(values),
                names: Cow::Owned(names),
                default: k.text("default")?,
            })
        }
        "string" if object.contains_key("enum") => {
            k.only(
                &["type", "title", "description", "enum", "default"],
                "single-select",
            )?;
            PrimitiveSchema::SingleSelect(UntitledSingleSelectEnumSchema {
                title,
                description,
                values: Cow::Owned(k.texts("enum")?.unwrap_or_default()),
                default: k.text("default")?,
            })
        }
        "string" => {
            k.only(
                &[
                    "type",
                    "title",
                    "description",
                    "minLength",
                    "maxLength",
                    "pattern",
                    "format",
                    "default",
                ],
                "string",
            )?;
            let format = match k.text("format")? {
                None => None,
                Some(name) => Some(StringFormat::from_name(&name).ok_or_else(|| {
                    k.err(
                        "format",
                        format!("\"{name}\" is not one of email, uri, date, date-time"),
                    )
                })?),
            };
            PrimitiveSchema::String(StringSchema {
                title,
                description,
                min_length: k.count("minLength")?,
                max_length: k.count("maxLength")?,
                pattern: k.text("pattern")?,
                format,
                default: k.text("default")?,
            })
        }
        "number" | "integer" => {
            k.only(
                &[
                    "type",
                    "title",
                    "description",
                    "minimum",
                    "maximum",
                    "default",
                ],
                kind,
            )?;
            PrimitiveSchema::Number(NumberSchema {
                kind: if kind == "integer" {
                    NumberType::Integer
                } else {
                    NumberType::Number
                },
                title,
                description,
                minimum: k.number("minimum")?,
                maximum: k.number("maximum")?,
                default: k.number("default")?,
            })
        }
        "boolean" => {
            k.only(&["type", "title", "description", "default"], "boolean")?;
            PrimitiveSchema::Boolean(BooleanSchema {
                title,
                description,
                default: k.boolean("default")?,
            })
        }
        "array" => multi_select_from(&k, title, description)?,
        "object" => {
            return Err(k.err(
                "type",
                "is \"object\": the form schema is flat, nested objects are not allowed",
            ));
        }
        other => {
            return Err(k.err(
                "type",
                format!("\"{other}\" is not one of string, number, integer, boolean, array"),
            ));
        }
    };
    Ok(schema)
}

fn multi_select_from(
    k: &Keywords<'_>,
    title: Option<Text>,
    description: Option<Text>,
) -> Result<PrimitiveSchema, SchemaError> {
    k.only(
        &[
            "type",
            "title",
            "description",
            "minItems",
            "maxItems",
            "items",
            "default",
        ],
        "multi-select",
    )?;
    let items = match k.object.get("items") {
        Some(Value::Object(items)) => items,
        _ => {
            return Err(k.err(
                "items",
                "must be an object: an array property is a multi-select of string choices",
            ));
        }
    };
    let min_items = k.count("minItems")?;
    let max_items = k.count("maxItems")?;
    let default = k.texts("default")?.map(Cow::Owned);
    if items.contains_key("anyOf") {
        if let Some(extra) = items.keys().find(|key| *key != "anyOf") {
            return Err(k.err(
                "items",
                format!("has `{extra}`; titled items carry only `anyOf`"),
            ));
        }
        Ok(PrimitiveSchema::TitledMultiSelect(
            TitledMultiSelectEnumSchema {
                title,
                description,
                min_items,
                max_items,
                options: Cow::Owned(k.options("items", items.get("anyOf"))?),
                default,
            },
        ))
    } else {
        if items.get("type").and_then(Value::as_str) != Some("string") {
            return Err(k.err(
                "items",
                "must be {\"type\": \"string\", \"enum\": [...]} or {\"anyOf\": [...]}: arrays of anything but string choices are not allowed",
            ));
        }
        if let Some(extra) = items.keys().find(|key| *key != "type" && *key != "enum") {
            return Err(k.err(
                "items",
                format!("has `{extra}`; untitled items carry only `type` and `enum`"),
            ));
        }
        let values = match items.get("enum") {
            Some(list) => string_list(list).map_err(|m| k.err("items", format!("`enum` {m}")))?,
            None => return Err(k.err("items", "needs `enum`: the choices of the multi-select")),
        };
        Ok(PrimitiveSchema::MultiSelect(
            UntitledMultiSelectEnumSchema {
                title,
                description,
                min_items,
                max_items,
                values: Cow::Owned(values.into_iter().map(Cow::Owned).collect()),
                default,
            },
        ))
    }
}

impl<'de> Deserialize<'de> for RequestedSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let parts = deserializer.deserialize_map(SchemaVisitor)?;
        parts.build().map_err(de::Error::custom)
    }
}

struct SchemaVisitor;

impl<'de> Visitor<'de> for SchemaVisitor {
    type Value = SchemaParts;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a requestedSchema object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SchemaParts, A::Error> {
        let mut parts = SchemaParts::default();
        while let Some(key) = map.next_key::<String>()? {
            if key == "properties" {
                parts.properties = Some(map.next_value_seed(OrderedEntries)?);
            } else {
                let value = map.next_value::<Value>()?;
                parts.other.push((key, value));
            }
        }
        Ok(parts)
    }
}

/// Reads an object's entries in the order they were written.
struct OrderedEntries;

impl<'de> DeserializeSeed<'de> for OrderedEntries {
    type Value = Vec<(String, Value)>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for OrderedEntries {
    type Value = Vec<(String, Value)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the `properties` object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(String, Value)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(de::Error::custom(format_args!(
                    "requestedSchema property `{key}`: defined twice in `properties`"
                )));
            }
            entries.push((key, value));
        }
        Ok(entries)
    }
}
