//! Schema: `RequestedSchema` and rmcp's `ElicitationSchema`, property by property.

use std::borrow::Cow;
use std::collections::BTreeMap;

use ::rmcp::model as sdk;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{NO_PATTERN, Unrepresentable};
use crate::schema::{
    Number, NumberSchema, NumberType, PrimitiveSchema, RequestedSchema, SchemaError, StringFormat,
    StringSchema, TitledOption,
};

/// What to do with a string `pattern`, which rmcp's `StringSchema` has no field for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Patterns {
    /// Refuse the conversion: it must be exact.
    Refuse,
    /// Leave the pattern out of the schema sent; the derived parser still enforces it.
    Omit,
}

impl TryFrom<&RequestedSchema> for sdk::ElicitationSchema {
    type Error = Unrepresentable;

    /// The same schema in rmcp's model, properties in the same order.
    fn try_from(schema: &RequestedSchema) -> Result<Self, Unrepresentable> {
        to_sdk_schema(schema, Patterns::Refuse)
    }
}

impl TryFrom<RequestedSchema> for sdk::ElicitationSchema {
    type Error = Unrepresentable;

    fn try_from(schema: RequestedSchema) -> Result<Self, Unrepresentable> {
        to_sdk_schema(&schema, Patterns::Refuse)
    }
}

pub(crate) fn to_sdk_schema(
    schema: &RequestedSchema,
    patterns: Patterns,
) -> Result<sdk::ElicitationSchema, Unrepresentable> {
    let mut properties = BTreeMap::new();
    let mut order = Vec::with_capacity(schema.properties.len());
    for property in schema.properties() {
        let definition = to_sdk_property(&property.name, &property.schema, patterns)?;
        properties.insert(property.name.to_string(), definition);
        order.push(property.name.to_string());
    }
    let mut converted = sdk::ElicitationSchema::new(properties);
    converted.property_order = Some(order);
    converted.schema = schema.schema_uri.clone();
    converted.title = schema.title.clone();
    converted.description = schema.description.clone();
    let required: Vec<String> = schema.required().map(str::to_owned).collect();
    // As elicit writes it: no `required` member when nothing is required.
    converted.required = (!required.is_empty()).then_some(required);
    Ok(converted)
}

fn to_sdk_property(
    name: &str,
    schema: &PrimitiveSchema,
    patterns: Patterns,
) -> Result<sdk::PrimitiveSchemaDefinition, Unrepresentable> {
    use sdk::PrimitiveSchemaDefinition as Def;
    let definition = match schema {
        PrimitiveSchema::String(s) => Def::String(to_sdk_string(name, s, patterns)?),
        PrimitiveSchema::Number(s) => match s.kind {
            NumberType::Number => Def::Number(to_sdk_number(name, s)?),
            NumberType::Integer => Def::Integer(to_sdk_integer(name, s)?),
        },
        PrimitiveSchema::Boolean(s) => {
            let mut boolean = sdk::BooleanSchema::new();
            boolean.title = s.title.clone();
            boolean.description = s.description.clone();
            boolean.default = s.default;
            Def::Boolean(boolean)
        }
        PrimitiveSchema::SingleSelect(s) => {
            let mut select: sdk::UntitledSingleSelectEnumSchema =
                from_shape(name, json!({"type": "string", "enum": s.values}))?;
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.default = s.default.as_deref().map(str::to_owned);
            Def::Enum(sdk::EnumSchema::Single(
                sdk::SingleSelectEnumSchema::Untitled(select),
            ))
        }
        PrimitiveSchema::TitledSingleSelect(s) => {
            let mut select = sdk::TitledSingleSelectEnumSchema::new(const_titles(&s.options));
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.default = s.default.as_deref().map(str::to_owned);
            Def::Enum(sdk::EnumSchema::Single(
                sdk::SingleSelectEnumSchema::Titled(select),
            ))
        }
        PrimitiveSchema::LegacyTitled(s) => {
            let mut select = sdk::LegacyEnumSchema::new(strings(&s.values));
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.enum_names = Some(strings(&s.names));
            select.default = s.default.as_deref().map(str::to_owned);
            Def::Enum(sdk::EnumSchema::Legacy(select))
        }
        PrimitiveSchema::MultiSelect(s) => {
            let mut select: sdk::UntitledMultiSelectEnumSchema = from_shape(
                name,
                json!({"type": "array", "items": {"type": "string", "enum": s.values}}),
            )?;
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.min_items = s.min_items;
            select.max_items = s.max_items;
            select.default = s.default.as_deref().map(strings);
            Def::Enum(sdk::EnumSchema::Multi(
                sdk::MultiSelectEnumSchema::Untitled(select),
            ))
        }
        PrimitiveSchema::TitledMultiSelect(s) => {
            let mut select = sdk::TitledMultiSelectEnumSchema::new(sdk::TitledItems::new(
                const_titles(&s.options),
            ));
            select.title = s.title.clone();
            select.description = s.description.clone();
            select.min_items = s.min_items;
            select.max_items = s.max_items;
            select.default = s.default.as_deref().map(strings);
            Def::Enum(sdk::EnumSchema::Multi(sdk::MultiSelectEnumSchema::Titled(
                select,
            )))
        }
    };
    Ok(definition)
}

/// The two untitled selects of rmcp have no constructor; serde builds them from their shape.
fn from_shape<T: for<'de> Deserialize<'de>>(
    name: &str,
    shape: Value,
) -> Result<T, Unrepresentable> {
    T::deserialize(shape).map_err(|e| Unrepresentable::at(name, e.to_string()))
}

fn strings(texts: &[Cow<'static, str>]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

fn const_titles(options: &[TitledOption]) -> Vec<sdk::ConstTitle> {
    options
        .iter()
        .map(|o| sdk::ConstTitle::new(o.value.to_string(), o.title.to_string()))
        .collect()
}

fn to_sdk_string(
    name: &str,
    s: &StringSchema,
    patterns: Patterns,
) -> Result<sdk::StringSchema, Unrepresentable> {
    if s.pattern.is_some() && patterns == Patterns::Refuse {
        return Err(Unrepresentable::at(name, NO_PATTERN));
    }
    let length = |keyword: &str, value: Option<u64>| -> Result<Option<u32>, Unrepresentable> {
        value
            .map(|n| {
                u32::try_from(n).map_err(|_| {
                    Unrepresentable::at(
                        name,
                        format!("rmcp's `{keyword}` is a u32; {n} is past it"),
                    )
                })
            })
            .transpose()
    };
    let mut string = sdk::StringSchema::new();
    string.title = s.title.clone();
    string.description = s.description.clone();
    string.min_length = length("minLength", s.min_length)?;
    string.max_length = length("maxLength", s.max_length)?;
    string.format = s.format.map(|format| match format {
        StringFormat::Email => sdk::StringFormat::Email,
        StringFormat::Uri => sdk::StringFormat::Uri,
        StringFormat::Date => sdk::StringFormat::Date,
        StringFormat::DateTime => sdk::StringFormat::DateTime,
    });
    string.default = s.default.as_deref().map(str::to_owned);
    Ok(string)
}

fn to_sdk_number(name: &str, s: &NumberSchema) -> Result<sdk::NumberSchema, Unrepresentable> {
    // rmcp holds `number` bounds as f64: an integer past 2^53 would be rounded.
    let float = |keyword: &str, value: Option<Number>| -> Result<Option<f64>, Unrepresentable> {
        match value {
            None => Ok(None),
            Some(n) => match n.as_i64() {
                Some(i) if i.unsigned_abs() > crate::schema::MAX_SAFE_INTEGER.unsigned_abs() => {
                    Err(Unrepresentable::at(
                        name,
                        format!(
                            "rmcp holds `{keyword}` as a double, which cannot hold {i} exactly"
                        ),
                    ))
                }
                _ => Ok(Some(n.as_f64())),
            },
        }
    };
    let mut number = sdk::NumberSchema::new();
    number.title = s.title.clone();
    number.description = s.description.clone();
    number.minimum = float("minimum", s.minimum)?;
    number.maximum = float("maximum", s.maximum)?;
    number.default = float("default", s.default)?;
    Ok(number)
}

fn to_sdk_integer(name: &str, s: &NumberSchema) -> Result<sdk::IntegerSchema, Unrepresentable> {
    // rmcp holds `integer` bounds as i64; a float that is a whole number (`2.0`, as a peer may
    // write it) converts exactly, a fraction cannot.
    let integer = |keyword: &str, value: Option<Number>| -> Result<Option<i64>, Unrepresentable> {
        match value {
            None => Ok(None),
            Some(n) => exact_i64(n).map(Some).ok_or_else(|| {
                Unrepresentable::at(
                    name,
                    format!("rmcp holds an integer's `{keyword}` as an i64, which cannot hold {n}"),
                )
            }),
        }
    };
    let mut number = sdk::IntegerSchema::new();
    number.title = s.title.clone();
    number.description = s.description.clone();
    number.minimum = integer("minimum", s.minimum)?;
    number.maximum = integer("maximum", s.maximum)?;
    number.default = integer("default", s.default)?;
    Ok(number)
}

fn exact_i64(n: Number) -> Option<i64> {
    match n.as_i64() {
        Some(i) => Some(i),
        None => {
            let f = n.as_f64();
            // 2^63 is the first float past i64::MAX; every float below it in magnitude that is
            // a whole number converts exactly.
            let in_range = (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f);
            (f.fract() == 0.0 && in_range).then_some(f as i64)
        }
    }
}

impl TryFrom<&sdk::ElicitationSchema> for RequestedSchema {
    type Error = SchemaError;

    /// The same schema in elicit's model, read with the same checks as a schema from the wire.
    /// Properties keep rmcp's order (its `property_order`, then the rest by name, as rmcp
    /// writes them).
    fn try_from(schema: &sdk::ElicitationSchema) -> Result<Self, SchemaError> {
        let mut names: Vec<&String> = Vec::with_capacity(schema.properties.len());
        if let Some(order) = &schema.property_order {
            names.extend(order.iter().filter(|n| schema.properties.contains_key(*n)));
        }
        let rest: Vec<&String> = schema
            .properties
            .keys()
            .filter(|n| !names.contains(n))
            .collect();
        names.extend(rest);
        let mut properties = Vec::with_capacity(names.len());
        for name in names {
            let definition = &schema.properties[name];
            let value = serde_json::to_value(definition).map_err(|e| {
                SchemaError::at(
                    name,
                    None,
                    format!("rmcp's definition does not serialize: {e}"),
                )
            })?;
            properties.push((name.clone(), value));
        }
        let mut other = vec![("type".to_owned(), Value::from("object"))];
        let mut text = |key: &str, value: &Option<Cow<'static, str>>| {
            if let Some(value) = value {
                other.push((key.to_owned(), Value::from(value.as_ref())));
            }
        };
        text("$schema", &schema.schema);
        text("title", &schema.title);
        text("description", &schema.description);
        if let Some(required) = &schema.required {
            other.push(("required".to_owned(), Value::from(required.clone())));
        }
        RequestedSchema::from_members(properties, other)
    }
}

impl TryFrom<sdk::ElicitationSchema> for RequestedSchema {
    type Error = SchemaError;

    fn try_from(schema: sdk::ElicitationSchema) -> Result<Self, SchemaError> {
        RequestedSchema::try_from(&schema)
    }
}
