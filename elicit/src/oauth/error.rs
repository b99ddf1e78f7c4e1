//! Why a verifier could not be set up.

use std::fmt;

use super::config::ConfigError;

/// Why a verifier could not be built: its configuration, or what the authorization server
/// answered (or did not) when asked for its metadata and keys. Its `Display` says which URL
/// and what was wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum VerifierSetupError {
    /// A setting, or a URL the authorization server's metadata names, is not usable.
    Config(ConfigError),
    /// The metadata or the keys could not be had, or are not the issuer's.
    Discovery(String),
}

impl fmt::Display for VerifierSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifierSetupError::Config(error) => error.fmt(f),
            VerifierSetupError::Discovery(problem) => {
                write!(f, "the authorization server could not be used: {problem}")
            }
        }
    }
}

impl std::error::Error for VerifierSetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifierSetupError::Config(error) => Some(error),
            VerifierSetupError::Discovery(_) => None,
        }
    }
}

impl From<ConfigError> for VerifierSetupError {
    fn from(error: ConfigError) -> Self {
        VerifierSetupError::Config(error)
    }
}
