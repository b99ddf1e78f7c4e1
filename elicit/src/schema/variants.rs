//! The schema of each kind of property (string, number, boolean, the single- and
//! multi-selects), with their constructors and chainable setters.

use std::borrow::Cow;

use super::{List, Number, Text, into, text_list};

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
