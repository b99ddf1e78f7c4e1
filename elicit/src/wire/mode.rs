//! The two modes of elicitation, and the one rule for reading a request's `mode`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The two modes of elicitation.
///
/// ```
/// use elicit_mcp::wire::ElicitMode;
/// assert_eq!(serde_json::to_string(&ElicitMode::Url).unwrap(), r#""url""#);
/// assert_eq!(ElicitMode::Form.as_str(), "form");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitMode {
    /// In-band structured data collection through a form the client renders.
    Form,
    /// Out-of-band interaction: the user opens a URL; nothing but the URL passes the client.
    Url,
}

impl ElicitMode {
    /// The mode's name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ElicitMode::Form => "form",
            ElicitMode::Url => "url",
        }
    }
}

impl fmt::Display for ElicitMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `mode` that is neither `"form"` nor `"url"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnknownMode(pub(crate) String);

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown elicitation mode \"{}\" (expected \"form\" or \"url\")",
            self.0
        )
    }
}

impl ElicitMode {
    /// The mode of a request whose `mode` member is `mode`: the spec's rule that clients MUST
    /// treat a request without `mode` as form mode is written here and nowhere else.
    pub(crate) fn from_wire(mode: Option<&str>) -> Result<ElicitMode, UnknownMode> {
        match mode {
            None | Some("form") => Ok(ElicitMode::Form),
            Some("url") => Ok(ElicitMode::Url),
            Some(other) => Err(UnknownMode(other.to_owned())),
        }
    }
}
