//! One property's schema: [`PrimitiveSchema`], one variant per `PrimitiveSchemaDefinition` of
//! the spec, and what a client reads off any of them.

use serde_json::Value;

use super::{
    BooleanSchema, LegacyTitledEnumSchema, List, Number, NumberSchema, StringSchema, Text,
    TitledMultiSelectEnumSchema, TitledOption, TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};

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
///         "extras": {
///             "type": "array",
///             "items": {"type": "string", "enum": ["breakfast", "parking"]}
///         }
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
///                 let choices = property.schema.choices().unwrap().join(", ");
///                 format!("checkboxes {label}{mark}: {choices}")
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

impl PrimitiveSchema {
    /// `title`, whatever the variant.
    pub fn title(&self) -> Option<&str> {
        self.texts().0.as_deref()
    }

    /// `description`, whatever the variant.
    pub fn description(&self) -> Option<&str> {
        self.texts().1.as_deref()
    }

    pub(super) fn texts(&self) -> (&Option<Text>, &Option<Text>) {
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

fn number_value(n: &Number) -> Value {
    match n.as_i64() {
        Some(i) => Value::from(i),
        None => serde_json::Number::from_f64(n.as_f64())
            .map(Value::Number)
            .unwrap_or(Value::Null),
    }
}
