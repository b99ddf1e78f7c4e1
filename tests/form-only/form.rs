//! The root package's form tests (`tests/form/`), compiled against elicit-mcp without its default
//! features: serde_json's default map order, and no URL mode.

#[path = "../form/agreement.rs"]
mod agreement;
#[path = "../form/defaults.rs"]
mod defaults;
#[path = "../form/parse.rs"]
mod parse;
#[path = "../form/protocol.rs"]
mod protocol;
#[path = "../form/schema.rs"]
mod schema;
#[path = "../form/schema_model.rs"]
mod schema_model;
#[path = "../form/secret.rs"]
mod secret;
#[path = "../form/titles.rs"]
mod titles;
#[path = "../form/typed_values.rs"]
mod typed_values;

mod map_order;
