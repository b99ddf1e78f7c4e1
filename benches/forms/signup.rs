//! The 8-field sign-up form the rmcp benches ask (`rmcp_elicit`, `waiting_memory`): as elicit
//! derives it, and as an rmcp user writes it (serde and schemars), with the answer both accept.

use elicit_mcp::Elicit;
use serde::Deserialize;
use serde_json::{Value, json};

/// The form, derived by elicit.
#[derive(Elicit, Debug)]
#[elicit(message = "Sign up", key = "signup")]
#[allow(dead_code)]
pub struct Signup {
    #[elicit(min_length = 1, max_length = 40)]
    pub name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(minimum = 18)]
    age: u8,
    #[elicit(minimum = 0.0, maximum = 100.0)]
    score: f64,
    status: Status,
    #[elicit(min_items = 1)]
    tags: Vec<Tag>,
    newsletter: bool,
    #[elicit(max_length = 500)]
    note: Option<String>,
}

#[derive(Elicit, Debug)]
#[elicit(rename_all = "lowercase")]
pub enum Status {
    Active,
    Paused,
}

#[derive(Elicit, Debug)]
#[elicit(rename_all = "lowercase")]
pub enum Tag {
    Rust,
    Music,
    Chess,
}

/// The same form as an rmcp user writes it: schemars and serde. The enums are inlined, since
/// rmcp's schema model cannot follow a `$ref`.
#[derive(schemars::JsonSchema, Deserialize, Debug)]
#[allow(dead_code)]
pub struct SignupSchemars {
    #[schemars(length(min = 1, max = 40))]
    pub name: String,
    #[schemars(email)]
    email: String,
    #[schemars(range(min = 18))]
    age: u8,
    #[schemars(range(min = 0.0, max = 100.0))]
    score: f64,
    status: StatusSchemars,
    #[schemars(length(min = 1))]
    tags: Vec<TagSchemars>,
    newsletter: bool,
    #[schemars(length(max = 500))]
    note: Option<String>,
}

#[derive(schemars::JsonSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
#[allow(dead_code)]
pub enum StatusSchemars {
    Active,
    Paused,
}

#[derive(schemars::JsonSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
#[allow(dead_code)]
pub enum TagSchemars {
    Rust,
    Music,
    Chess,
}

rmcp::elicit_safe!(SignupSchemars);

pub fn answer() -> Value {
    json!({"name": "Ada", "email": "ada@example.com", "age": 36, "score": 87.5,
        "status": "active", "tags": ["rust", "chess"], "newsletter": true, "note": "hi"})
}
