//! Typed MCP elicitation for Rust.
//!
//! `#[derive(Elicit)]` on a struct emits, at compile time, the flat `requestedSchema` that form
//! mode of the MCP spec (revision 2025-11-25) allows, and a validating parser for the client's
//! `accept` content. Forms the spec forbids (nested objects, unsupported types, fields that look
//! like secrets) do not compile.
//!
//! ```
//! use elicit::{Elicit, ElicitOutcome, ElicitResult};
//!
//! #[derive(Elicit, Debug)]
//! #[elicit(message = "Please provide your contact information", rename_all = "camelCase")]
//! struct Contact {
//!     /// Your full name
//!     #[elicit(min_length = 3, max_length = 50)]
//!     full_name: String,
//!     #[elicit(format = "email")]
//!     email: String,
//!     #[elicit(minimum = 18)]
//!     age: Option<u8>,
//!     #[elicit(default = Color::Red)]
//!     favorite: Color,
//!     #[elicit(min_items = 1, max_items = 2)]
//!     colors: Vec<Color>,
//! }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! enum Color {
//!     #[elicit(rename = "#FF0000", title = "Red")]
//!     Red,
//!     #[elicit(rename = "#00FF00", title = "Green")]
//!     Green,
//! }
//!
//! // The schema is a constant of the program.
//! let json: &'static str = Contact::requested_schema_json();
//! assert!(json.starts_with(r#"{"type":"object","properties":{"fullName":{"type":"string","#));
//!
//! // The client's answer, parsed and validated.
//! let result: ElicitResult = serde_json::from_str(r##"{"action": "accept", "content": {
//!     "fullName": "Monalisa Octocat", "email": "octocat@github.com", "colors": ["#00FF00"]
//! }}"##).unwrap();
//! let ElicitOutcome::Accepted(contact) = Contact::from_result(&result).unwrap() else { panic!() };
//! assert_eq!(contact.favorite, Color::Red); // filled from the default
//! assert_eq!(contact.age, None);
//!
//! // A bad answer gives every field error at once.
//! let bad = serde_json::json!({"fullName": "Al", "email": "not-an-email", "age": 12, "colors": []});
//! let errors = Contact::from_content(bad.as_object().unwrap()).unwrap_err();
//! assert_eq!(errors.errors().len(), 4);
//! ```
//!
//! See the README for the attribute reference and how each rule of the spec is enforced.
//!
//! # Features
//!
//! Both off by default:
//!
//! - `rmcp`: the `rmcp` module, elicitation on [rmcp](https://docs.rs/rmcp), the official Rust
//!   MCP SDK: a typed form call on its server peer that checks the client's modes and validates
//!   the reply, the URL-mode call wired to the tracker, the -32042 error and the completion
//!   notification, and conversions both ways between this crate's model and rmcp's.
//! - `schemars`: every derived form and choice enum also implements `schemars::JsonSchema`,
//!   with the same schema, so schemars-based tooling (rmcp's own
//!   `ElicitationSchema::from_type`, among others) takes the derived types as they are.
#![deny(missing_docs)]

pub mod client;
mod error;
mod field;
mod format;
#[cfg(feature = "url-mode")]
mod host;
mod number;
pub mod schema;
pub mod server;
mod typed;
mod validate;
mod wire;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[doc(hidden)]
#[path = "json_schema.rs"]
pub mod __json_schema;

#[cfg(feature = "rmcp")]
pub mod rmcp;

pub use elicit_derive::Elicit;
pub use error::{ContentError, FieldError, Problem};
pub use field::{ElicitChoice, ElicitField, ElicitValue};
pub use schema::RequestedSchema;
pub use typed::{Email, InvalidEmail};
#[cfg(feature = "url-mode")]
pub use wire::RandomnessUnavailable;
pub use wire::{
    ElicitAction, ElicitMode, ElicitOutcome, ElicitRequest, ElicitRequestFormParams,
    ElicitRequestParams, ElicitRequestUrlParams, ElicitResult, ElicitationCapability,
    ElicitationCompleteNotification, ElicitationCompleteParams, ElicitationId, InvalidCapability,
    JsonRpcError, ModeNotSupported, NotUrlElicitationRequired, RequestId, UnexpectedContent,
    UrlElicitOutcome, UrlElicitationRequiredError,
};

/// A form that can be asked for through form-mode elicitation: implemented by
/// `#[derive(Elicit)]` on a struct with named fields.
///
/// For a non-generic type, [`requested_schema`](Elicit::requested_schema) and
/// [`requested_schema_json`](Elicit::requested_schema_json) return statics laid down by const
/// evaluation: calling them allocates nothing and serializes nothing. A generic type's schema
/// cannot live in a `static`, so it is built from the same constant on first use per
/// instantiation, cached for the life of the process, and returned from the cache afterwards.
pub trait Elicit: Sized {
    /// The `requestedSchema` of this form.
    fn requested_schema() -> &'static RequestedSchema;

    /// The same schema as JSON text, exactly what `serde_json::to_string` gives for it.
    fn requested_schema_json() -> &'static str;

    /// Parses and validates accepted form content: every rule of the schema is checked, missing
    /// fields with a default take it, unknown keys are ignored, and every field at fault is
    /// reported at once.
    fn from_content(
        content: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self, ContentError>;

    /// The typed outcome of a client's result. An accept without content is parsed as empty
    /// content, so required fields are reported missing rather than anything crashing.
    fn from_result(result: &ElicitResult) -> Result<ElicitOutcome<Self>, ContentError> {
        match result.action {
            ElicitAction::Accept => {
                let empty = serde_json::Map::new();
                let content = result.content.as_ref().unwrap_or(&empty);
                Self::from_content(content).map(ElicitOutcome::Accepted)
            }
            ElicitAction::Decline => Ok(ElicitOutcome::Declined),
            ElicitAction::Cancel => Ok(ElicitOutcome::Cancelled),
        }
    }

    /// The params of a form-mode `elicitation/create` for this form, with the message of
    /// `#[elicit(message = "..")]`. Without that attribute this does not compile; use
    /// [`form_request_with`](Elicit::form_request_with).
    fn form_request() -> ElicitRequestFormParams
    where
        Self: HasMessage,
    {
        Self::form_request_with(<Self as HasMessage>::MESSAGE)
    }

    /// The params of a form-mode `elicitation/create` for this form, with `message`.
    fn form_request_with(message: impl Into<String>) -> ElicitRequestFormParams {
        ElicitRequestFormParams::new(message, Self::requested_schema())
    }
}

/// A form with `#[elicit(message = "..")]`: implemented by the derive when the attribute is given.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `#[elicit(message = \"..\")]`",
    label = "this form has no default message",
    note = "add `#[elicit(message = \"..\")]` to the struct, or call `form_request_with(message)`"
)]
pub trait HasMessage: Elicit {
    /// The message.
    const MESSAGE: &'static str;
}
