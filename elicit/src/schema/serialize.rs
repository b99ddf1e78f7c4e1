//! Serialization of the schema model: the key order follows the spec's own examples. The const
//! writer beside it (`json.rs`) lays down the same bytes at compile time for derived forms.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::{
    PrimitiveSchema, Property, RequestedSchema, StringFormat, TitledMultiSelectEnumSchema,
    TitledOption, UntitledMultiSelectEnumSchema,
};

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
