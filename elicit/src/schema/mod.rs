//! The typed model of the restricted `requestedSchema` subset of form-mode elicitation.
//!
//! A [`RequestedSchema`] is a flat object schema whose properties are each one
//! [`PrimitiveSchema`]: one variant per `PrimitiveSchemaDefinition` of the MCP spec
//! (revision 2025-11-25). It serializes into exactly the spec's JSON, and it deserializes any
//! incoming `requestedSchema`, rejecting what lies outside the subset with a [`SchemaError`]
//! that names the property.
//!
#![doc = include_str!("../docs/schema.md")]

// Before the modules, so that theirs see it: a `macro_rules!` is in scope from its definition on.
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

pub(crate) mod derived;
mod error;
pub(crate) mod json;
pub(crate) mod number;
mod parse;
mod primitive;
mod serialize;
mod variants;

pub use error::SchemaError;
use parse::SchemaParts;
pub(crate) use parse::kind_of;
pub use primitive::PrimitiveSchema;
pub use variants::{
    BooleanSchema, LegacyTitledEnumSchema, NumberSchema, NumberType, StringFormat, StringSchema,
    TitledMultiSelectEnumSchema, TitledOption, TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};

use std::borrow::Cow;

use serde_json::Value;

pub use number::{MAX_SAFE_INTEGER, Number};

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
