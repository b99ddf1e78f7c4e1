//! Conversions between this crate's wire model and rmcp's: schema, request params, result,
//! capability, the -32042 error and the completion notification.
//!
//! Each direction is exact or refuses. rmcp's model is the smaller one, so rmcp to elicit is
//! exact whenever it succeeds, and fails only where elicit's checks of the restricted subset do
//! (a `required` name that is not a property, say). Elicit to rmcp fails, with
//! [`UnrepresentableError`], where rmcp's model has no place for a value: a string `pattern`, a
//! length past `u32`, a number a double cannot hold exactly, capability members other than
//! `form.schemaValidation`. Two differences are not losses: `required` is a set (rmcp keeps its
//! own order, elicit lists it in property order, and an empty list is the same as none), and
//! rmcp writes a `number` schema's integral bounds as floats (`30.0` for `30`).

mod capability;
mod error;
mod notification;
mod params;
mod result;
mod schema;

pub use notification::NotElicitationCompleteError;
pub(crate) use params::form_to_sdk;
pub use result::InvalidResultError;
pub(crate) use schema::Patterns;

use std::fmt;

/// Something of elicit's model that rmcp's model cannot carry exactly, so a conversion into it
/// refuses rather than drop or round it.
///
/// ```
/// use elicit_mcp::Elicit;
/// use elicit_mcp::rmcp::UnrepresentableError;
///
/// #[derive(Elicit)]
/// struct Code {
///     #[elicit(pattern = "^[A-Z]{3}$")]
///     code: String,
/// }
/// let err: UnrepresentableError =
///     rmcp::model::ElicitationSchema::try_from(Code::requested_schema()).unwrap_err();
/// assert_eq!(err.property(), Some("code"));
/// assert_eq!(
///     err.to_string(),
///     "rmcp's model cannot carry property `code`: rmcp's StringSchema has no `pattern`"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnrepresentableError {
    property: Option<String>,
    reason: String,
}

impl UnrepresentableError {
    fn at(property: &str, reason: impl Into<String>) -> Self {
        UnrepresentableError {
            property: Some(property.to_owned()),
            reason: reason.into(),
        }
    }

    fn top(reason: impl Into<String>) -> Self {
        UnrepresentableError {
            property: None,
            reason: reason.into(),
        }
    }

    pub(crate) fn unserializable(error: serde_json::Error) -> Self {
        UnrepresentableError::top(format!("it does not serialize to JSON: {error}"))
    }

    /// The form property at fault, when the value is in one.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What rmcp's model has no place for.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

const NO_PATTERN: &str = "rmcp's StringSchema has no `pattern`";

impl fmt::Display for UnrepresentableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.property {
            Some(property) => write!(
                f,
                "rmcp's model cannot carry property `{property}`: {}",
                self.reason
            ),
            None => write!(f, "rmcp's model cannot carry this: {}", self.reason),
        }
    }
}

impl std::error::Error for UnrepresentableError {}
