//! Deserialization of the schema model: through JSON values, with errors that name the property
//! and keyword, keeping the sender's order of properties.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::{
    BooleanSchema, LegacyTitledEnumSchema, Number, NumberSchema, NumberType, PrimitiveSchema,
    Property, RequestedSchema, SchemaError, StringFormat, StringSchema, Text,
    TitledMultiSelectEnumSchema, TitledOption, TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};

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
pub(super) struct SchemaParts {
    pub(super) properties: Option<Vec<(String, Value)>>,
    pub(super) other: Vec<(String, Value)>,
}

impl SchemaParts {
    pub(super) fn build(self) -> Result<RequestedSchema, SchemaError> {
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
