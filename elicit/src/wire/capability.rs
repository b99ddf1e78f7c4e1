//! The client's `elicitation` capability, and the rule that a server sends only the modes it
//! declares.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::mode::ElicitMode;

/// The `elicitation` capability a client declares at initialization.
///
/// `{}` means form mode only (the spec's backwards compatibility rule); `form` and `url` may
/// each be present. Whatever is declared, at least one mode is supported: a capability naming
/// neither mode is `{}`, which is form mode. The sub-objects are kept as sent, so the
/// capability reads back as it was written.
///
/// ```
/// use elicit_mcp::wire::{ElicitMode, ElicitationCapability};
/// let legacy: ElicitationCapability = serde_json::from_str("{}").unwrap();
/// assert!(legacy.supports(ElicitMode::Form));
/// assert!(!legacy.supports(ElicitMode::Url));
///
/// let url_only: ElicitationCapability = serde_json::from_str(r#"{"url": {}}"#).unwrap();
/// assert!(!url_only.supports(ElicitMode::Form));
/// assert!(url_only.supports(ElicitMode::Url));
/// assert_eq!(serde_json::to_string(&url_only).unwrap(), r#"{"url":{}}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ElicitationCapability {
    pub(crate) form: Option<Map<String, Value>>,
    pub(crate) url: Option<Map<String, Value>>,
    /// Members other than `form` and `url` (a later revision's modes), kept for round trips.
    pub(crate) other: Map<String, Value>,
}

/// The client did not declare the mode of an elicitation: the server must not send it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeNotSupportedError {
    /// The mode asked for.
    pub mode: ElicitMode,
    /// Whether the client declared the `elicitation` capability at all.
    pub elicitation_declared: bool,
}

impl fmt::Display for ModeNotSupportedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elicitation_declared {
            let mode = match self.mode {
                ElicitMode::Form => "form-mode",
                ElicitMode::Url => "URL-mode",
            };
            write!(f, "the client did not declare {mode} elicitation")
        } else {
            f.write_str("the client did not declare the elicitation capability")
        }
    }
}

impl std::error::Error for ModeNotSupportedError {}

/// The client's `capabilities` has an `elicitation` member that is not a valid capability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidCapabilityError {
    reason: String,
}

impl fmt::Display for InvalidCapabilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid `elicitation` capability: {}", self.reason)
    }
}

impl std::error::Error for InvalidCapabilityError {}

impl ElicitationCapability {
    /// `{"form": {}}`: form mode only.
    pub fn form() -> Self {
        ElicitationCapability {
            form: Some(Map::new()),
            ..Default::default()
        }
    }

    /// `{"url": {}}`: URL mode only.
    pub fn url() -> Self {
        ElicitationCapability {
            url: Some(Map::new()),
            ..Default::default()
        }
    }

    /// `{"form": {}, "url": {}}`: both modes.
    pub fn form_and_url() -> Self {
        ElicitationCapability {
            form: Some(Map::new()),
            url: Some(Map::new()),
            other: Map::new(),
        }
    }

    /// Whether the client supports `mode`.
    pub fn supports(&self, mode: ElicitMode) -> bool {
        match mode {
            // `{}` (neither mode named) stands for `{"form": {}}`.
            ElicitMode::Form => self.form.is_some() || self.url.is_none(),
            ElicitMode::Url => self.url.is_some(),
        }
    }

    /// The modes the client supports, form first; never empty.
    pub fn modes(&self) -> Vec<ElicitMode> {
        [ElicitMode::Form, ElicitMode::Url]
            .into_iter()
            .filter(|mode| self.supports(*mode))
            .collect()
    }

    /// Checks that a client whose declared capability is `client` (`None`: it declared none)
    /// supports `mode`. This is the server's gate before sending anything of that mode.
    ///
    /// ```
    /// use elicit_mcp::wire::{ElicitMode, ElicitationCapability};
    /// assert!(ElicitationCapability::require(None, ElicitMode::Form).is_err());
    /// let caps = ElicitationCapability::form();
    /// assert!(ElicitationCapability::require(Some(&caps), ElicitMode::Form).is_ok());
    /// assert!(ElicitationCapability::require(Some(&caps), ElicitMode::Url).is_err());
    /// ```
    pub fn require(client: Option<&Self>, mode: ElicitMode) -> Result<(), ModeNotSupportedError> {
        match client {
            Some(capability) if capability.supports(mode) => Ok(()),
            declared => Err(ModeNotSupportedError {
                mode,
                elicitation_declared: declared.is_some(),
            }),
        }
    }

    /// Reads the `elicitation` member of a client's `capabilities` object (from its
    /// `initialize` request): `Ok(None)` if the client did not declare elicitation.
    ///
    /// ```
    /// use elicit_mcp::wire::{ElicitMode, ElicitationCapability};
    /// let caps = serde_json::json!({"roots": {}, "elicitation": {"form": {}, "url": {}}});
    /// let elicitation = ElicitationCapability::of_client(&caps).unwrap().unwrap();
    /// assert!(elicitation.supports(ElicitMode::Url));
    /// assert_eq!(ElicitationCapability::of_client(&serde_json::json!({})).unwrap(), None);
    /// ```
    pub fn of_client(capabilities: &Value) -> Result<Option<Self>, InvalidCapabilityError> {
        let Value::Object(capabilities) = capabilities else {
            return Err(InvalidCapabilityError {
                reason: "the client's `capabilities` is not an object".to_owned(),
            });
        };
        match capabilities.get("elicitation") {
            None | Some(Value::Null) => Ok(None),
            Some(value) => Self::from_value(value).map(Some),
        }
    }

    fn from_value(value: &Value) -> Result<Self, InvalidCapabilityError> {
        let Value::Object(members) = value else {
            return Err(InvalidCapabilityError {
                reason: "it must be an object".to_owned(),
            });
        };
        let mut capability = ElicitationCapability::default();
        for (key, value) in members {
            let slot = match key.as_str() {
                "form" => &mut capability.form,
                "url" => &mut capability.url,
                _ => {
                    capability.other.insert(key.clone(), value.clone());
                    continue;
                }
            };
            *slot = match value {
                Value::Object(settings) => Some(settings.clone()),
                // Some clients write an absent member as `null`.
                Value::Null => None,
                _ => {
                    return Err(InvalidCapabilityError {
                        reason: format!("`{key}` must be an object"),
                    });
                }
            };
        }
        Ok(capability)
    }
}

impl Serialize for ElicitationCapability {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(form) = &self.form {
            map.serialize_entry("form", form)?;
        }
        if let Some(url) = &self.url {
            map.serialize_entry("url", url)?;
        }
        for (key, value) in &self.other {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ElicitationCapability {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Self::from_value(&value).map_err(de::Error::custom)
    }
}
