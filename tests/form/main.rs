//! Forms: the schemas `#[derive(Elicit)]` emits and the parser it derives, held to the spec's
//! schema and examples and to an independent validator; typed values as fields; the client-side
//! schema model; and the protocol's messages read and written as the spec writes them.
//!
//! One test binary, so that the crates it links are built once. `tests/form-only` compiles this
//! same binary again with the runtime's default features off (no rmcp, so serde_json's map
//! order is its default, and no URL mode).

mod agreement;
mod defaults;
mod parse;
mod protocol;
mod schema;
mod schema_model;
mod secret;
mod titles;
mod typed_values;

// Only `tests/form-only` turns the feature on: its check holds only in that package's build.
#[cfg(feature = "map-order")]
mod map_order;
