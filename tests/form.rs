//! Forms: the schemas `#[derive(Elicit)]` emits and the parser it derives, held to the spec's
//! schema and examples and to an independent validator; typed values as fields; the client-side
//! schema model; and the protocol's messages read and written as the spec writes them.
//!
//! One test binary, so that the crates it links are built once.
//! `tests/form-only` runs these modules again with the runtime's default features off (no rmcp,
//! so serde_json's map order is its default, and no URL mode).

#[path = "form/agreement.rs"]
mod agreement;
#[path = "form/defaults.rs"]
mod defaults;
#[path = "form/parse.rs"]
mod parse;
#[path = "form/protocol.rs"]
mod protocol;
#[path = "form/schema.rs"]
mod schema;
#[path = "form/schema_model.rs"]
mod schema_model;
#[path = "form/secret.rs"]
mod secret;
#[path = "form/titles.rs"]
mod titles;
#[path = "form/typed_values.rs"]
mod typed_values;
