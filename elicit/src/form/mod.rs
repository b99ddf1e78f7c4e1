//! Form mode at run time: what a derived form's fields are and how they are read from the
//! client's content. Which Rust types a field may have (`field`, with the typed values of
//! `typed`), the string formats (`format`) and patterns (`matcher`) they are checked against,
//! the checks shared by derived forms and the client (`validate`), what one reading of a form
//! shares (`read`), the errors of accepted content (`error`), the typed outcomes read from a
//! result (`outcome`), the defaults known only at run time (`defaults`), and `schemars` interop
//! (`json_schema`).
//!
//! It builds on `schema` (the properties it reads against) and `wire` (the result an outcome is
//! read from), and on nothing above them. Its public items are re-exported at the crate root.

pub(crate) mod defaults;
pub(crate) mod elicit;
pub(crate) mod error;
pub(crate) mod field;
pub(crate) mod format;
pub(crate) mod json_schema;
pub(crate) mod matcher;
pub(crate) mod outcome;
pub(crate) mod read;
pub(crate) mod typed;
pub(crate) mod validate;
