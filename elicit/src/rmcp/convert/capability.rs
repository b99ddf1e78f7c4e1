//! Capability: the client's `elicitation` capability.

use ::rmcp::model as sdk;
use serde_json::{Map, Value};

use super::UnrepresentableError;
use crate::wire::ElicitationCapability;

impl From<&sdk::ElicitationCapability> for ElicitationCapability {
    fn from(capability: &sdk::ElicitationCapability) -> Self {
        ElicitationCapability {
            form: capability.form.as_ref().map(|form| {
                let mut settings = Map::new();
                if let Some(validation) = form.schema_validation {
                    settings.insert("schemaValidation".to_owned(), Value::Bool(validation));
                }
                settings
            }),
            url: capability.url.as_ref().map(|_| Map::new()),
            other: Map::new(),
        }
    }
}

impl From<sdk::ElicitationCapability> for ElicitationCapability {
    fn from(capability: sdk::ElicitationCapability) -> Self {
        ElicitationCapability::from(&capability)
    }
}

impl TryFrom<&ElicitationCapability> for sdk::ElicitationCapability {
    type Error = UnrepresentableError;

    /// rmcp's capability has `form.schemaValidation` and nothing else: any other member would
    /// be dropped, so it is refused.
    fn try_from(capability: &ElicitationCapability) -> Result<Self, UnrepresentableError> {
        if let Some(key) = capability.other.keys().next() {
            return Err(UnrepresentableError::top(format!(
                "rmcp's elicitation capability has no `{key}` member"
            )));
        }
        let mut converted = sdk::ElicitationCapability::new();
        if let Some(settings) = &capability.form {
            let mut form = sdk::FormElicitationCapability::new();
            for (key, value) in settings {
                match (key.as_str(), value) {
                    ("schemaValidation", Value::Bool(validation)) => {
                        form.schema_validation = Some(*validation);
                    }
                    _ => {
                        return Err(UnrepresentableError::top(format!(
                            "rmcp's form capability has only a boolean `schemaValidation`, not `{key}`: {value}"
                        )));
                    }
                }
            }
            converted.form = Some(form);
        }
        if let Some(settings) = &capability.url {
            if let Some(key) = settings.keys().next() {
                return Err(UnrepresentableError::top(format!(
                    "rmcp's URL capability has no members, not `{key}`"
                )));
            }
            converted.url = Some(sdk::UrlElicitationCapability::new());
        }
        Ok(converted)
    }
}

/// The capabilities of an rmcp client that declares `capability` for elicitation and nothing
/// else, for its `ClientHandler::get_info`; refused as the conversion to rmcp's
/// `ElicitationCapability` refuses.
///
/// ```
/// use elicit_mcp::wire::ElicitationCapability;
/// use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
///
/// let declared = ElicitationCapability::form_and_url();
/// let capabilities = ClientCapabilities::try_from(&declared).unwrap();
/// let info = ClientConfig::new(capabilities, Implementation::new("my-client", "1.0.0"));
/// // And back: what a server reads from the client's declaration.
/// let declared = info.capabilities.elicitation.as_ref().map(ElicitationCapability::from);
/// assert_eq!(declared, Some(ElicitationCapability::form_and_url()));
/// ```
impl TryFrom<&ElicitationCapability> for sdk::ClientCapabilities {
    type Error = UnrepresentableError;

    fn try_from(capability: &ElicitationCapability) -> Result<Self, UnrepresentableError> {
        let mut capabilities = sdk::ClientCapabilities::default();
        capabilities.elicitation = Some(sdk::ElicitationCapability::try_from(capability)?);
        Ok(capabilities)
    }
}
