//! Why an incoming `requestedSchema` lies outside the spec's restricted subset.

use std::fmt;

/// Why an incoming `requestedSchema` lies outside the spec's restricted subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    property: Option<String>,
    keyword: Option<String>,
    message: String,
}

impl SchemaError {
    pub(super) fn top(keyword: Option<&str>, message: String) -> Self {
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
