//! The schema of a derived form, assembled in constants: a field type's [`Kind`] (what the
//! type maps to, with what it declares itself), narrowed by the field's [`Attrs`], becomes its
//! [`Property`]. The generated code calls these `const fn`s through `__private`, so a form's
//! schema is a constant of the program.

use std::borrow::Cow;

use crate::schema::{
    BooleanSchema, Number, NumberSchema, NumberType, PrimitiveSchema, Property, StringFormat,
    StringSchema, Text, TitledMultiSelectEnumSchema, TitledOption, TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
};

mod checks;
mod refuse;

pub use checks::{
    StringRule, TextDefaultMisfit, bound_misfit, declared_format, default_outside, format_clash,
    more_items_than_choices, text_default_misfit, type_declares,
};
pub use refuse::{
    Message, refuse_bound_misfit, refuse_default_outside, refuse_format_clash,
    refuse_hidden_secret, refuse_more_items_than_choices, refuse_type_declared,
};

/// The shape a type gives its property, with the constraints the type itself declares, before
/// a field's attributes narrow it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    String(StringRules),
    /// An integer type, with the range it holds (or its newtype declares).
    Integer {
        minimum: i64,
        maximum: i64,
    },
    /// A float type, with the range it holds (or its newtype declares) when that is narrower
    /// than a JSON number's.
    Number {
        minimum: Option<Number>,
        maximum: Option<Number>,
    },
    Boolean,
    Choice(Choices),
    Multi(Choices),
}

/// What a string type declares about its values: a typed value its format, a newtype its
/// pattern and lengths.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct StringRules {
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<&'static str>,
    pub format: Option<StringFormat>,
}

impl StringRules {
    /// A plain string: nothing declared.
    pub const NONE: StringRules = StringRules {
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
    };
}

/// The choices of a unit-only enum, as the derive lays them down.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Choices {
    pub values: &'static [Text],
    /// `Some` when any variant has a title: the enum is then a titled select.
    pub titled: Option<&'static [TitledOption]>,
    /// Each variant as code names it (`Priority::High`), in the order of `values`: what a
    /// compile error tells the user to write as the default.
    pub paths: &'static [&'static str],
}

/// A float literal of an attribute, with the JSON text the derive computed for it.
pub const fn float(value: f64, text: &'static str) -> Number {
    Number::from_f64_text(value, text)
}

/// A field's `default`, as the derive read it from the attribute.
#[derive(Clone, Copy)]
pub enum DefaultValue {
    /// No `default`.
    None,
    /// A string default.
    Str(&'static str),
    /// A number default.
    Number(Number),
    /// A boolean default.
    Bool(bool),
    /// A choice enum's variant, as its wire value.
    Choice(&'static str),
    /// A multi-select's variants, as their wire values.
    Choices(&'static [Text]),
}

/// A field's attributes, as far as they shape the schema.
#[derive(Clone, Copy)]
pub struct Attrs {
    /// `title`
    pub title: Option<&'static str>,
    /// `description`
    pub description: Option<&'static str>,
    /// `min_length`
    pub min_length: Option<u64>,
    /// `max_length`
    pub max_length: Option<u64>,
    /// `pattern`
    pub pattern: Option<&'static str>,
    /// `format`
    pub format: Option<StringFormat>,
    /// `minimum`
    pub minimum: Option<Number>,
    /// `maximum`
    pub maximum: Option<Number>,
    /// `min_items`
    pub min_items: Option<u64>,
    /// `max_items`
    pub max_items: Option<u64>,
    /// `default`
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
            ..
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
            ..
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
/// A bound that does not fit the field's type is refused first ([`refuse_bound_misfit`]).
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
