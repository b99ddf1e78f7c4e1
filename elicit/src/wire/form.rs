//! The params of a form-mode `elicitation/create` request.

use std::borrow::Cow;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::mode::ElicitMode;
use crate::schema::RequestedSchema;

/// The params of a form-mode `elicitation/create`: `mode: "form"`, `message`, `requestedSchema`.
///
/// Built from a derived type with [`Elicit::form_request`](crate::Elicit::form_request) (message
/// from `#[elicit(message = "..")]`) or
/// [`Elicit::form_request_with_message`](crate::Elicit::form_request_with_message). The schema of
/// a derived type is borrowed from its static, not copied.
///
/// ```
/// use elicit_mcp::Elicit;
/// #[derive(Elicit)]
/// #[elicit(message = "Please provide your GitHub username")]
/// struct GitHub {
///     name: String,
/// }
/// let params = serde_json::to_value(GitHub::form_request()).unwrap();
/// assert_eq!(params, serde_json::json!({
///     "mode": "form",
///     "message": "Please provide your GitHub username",
///     "requestedSchema": {
///         "type": "object",
///         "properties": {"name": {"type": "string", "title": "Name"}},
///         "required": ["name"]
///     }
/// }));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ElicitRequestFormParams {
    /// Why the server asks.
    pub message: String,
    /// What it asks for.
    pub requested_schema: Cow<'static, RequestedSchema>,
    /// `_meta`, passed through untouched.
    pub meta: Option<Map<String, Value>>,
}

impl ElicitRequestFormParams {
    /// Params asking for `schema` with `message`.
    pub fn new(
        message: impl Into<String>,
        schema: impl Into<Cow<'static, RequestedSchema>>,
    ) -> Self {
        ElicitRequestFormParams {
            message: message.into(),
            requested_schema: schema.into(),
            meta: None,
        }
    }

    /// The same params with `_meta`.
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }
}

impl From<&'static RequestedSchema> for Cow<'static, RequestedSchema> {
    fn from(schema: &'static RequestedSchema) -> Self {
        Cow::Borrowed(schema)
    }
}

impl From<RequestedSchema> for Cow<'static, RequestedSchema> {
    fn from(schema: RequestedSchema) -> Self {
        Cow::Owned(schema)
    }
}

impl Serialize for ElicitRequestFormParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("mode", "form")?;
        map.serialize_entry("message", &self.message)?;
        map.serialize_entry("requestedSchema", &*self.requested_schema)?;
        if let Some(meta) = &self.meta {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ElicitRequestFormParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire {
            #[serde(default)]
            mode: Option<String>,
            message: String,
            requested_schema: RequestedSchema,
            #[serde(rename = "_meta", default)]
            meta: Option<Map<String, Value>>,
        }
        let wire = Wire::deserialize(deserializer)?;
        match ElicitMode::from_wire(wire.mode.as_deref()).map_err(de::Error::custom)? {
            ElicitMode::Form => {}
            ElicitMode::Url => return Err(de::Error::custom("form-mode params with mode \"url\"")),
        }
        Ok(ElicitRequestFormParams {
            message: wire.message,
            requested_schema: Cow::Owned(wire.requested_schema),
            meta: wire.meta,
        })
    }
}
