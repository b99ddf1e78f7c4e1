//! The authorization server's metadata, found from its issuer identifier as the MCP
//! specification has clients find it (RFC 8414 section 3.1, then OpenID Connect Discovery), and
//! held to that issuer (RFC 8414 section 3.3).

use serde::Deserialize;

use super::config::{ConfigError, Settings, secure_url};
use super::error::VerifierSetupError;

/// What the resource server and the page's login need of the authorization server's metadata.
/// Members it does not read are not kept.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct AuthorizationServer {
    pub issuer: String,
    pub jwks_uri: Option<String>,
    pub introspection_endpoint: Option<String>,
    #[cfg_attr(not(feature = "page"), allow(dead_code))]
    pub authorization_endpoint: Option<String>,
    #[cfg_attr(not(feature = "page"), allow(dead_code))]
    pub token_endpoint: Option<String>,
    /// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0), when the issuer has it.
    #[cfg_attr(not(feature = "page"), allow(dead_code))]
    pub end_session_endpoint: Option<String>,
}

/// The well-known URLs of `issuer`'s metadata, in the order the MCP specification tries them
/// ("Authorization Server Metadata Discovery").
pub(crate) fn metadata_urls(issuer: &url::Url) -> Vec<String> {
    let origin = issuer.origin().ascii_serialization();
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// The metadata of the configured issuer: the first well-known URL that answers a document;
/// one whose `issuer` is not the configured one, byte for byte, is refused, never used.
pub(crate) async fn discover(
    settings: &Settings,
) -> Result<AuthorizationServer, VerifierSetupError> {
    let issuer = secure_url("issuer", &settings.issuer).map_err(VerifierSetupError::Config)?;
    let mut tried = Vec::new();
    for url in metadata_urls(&issuer) {
        match settings.fetch.get::<AuthorizationServer>(&url).await {
            Ok(metadata) if metadata.issuer == settings.issuer => return Ok(metadata),
            Ok(metadata) => {
                return Err(VerifierSetupError::Discovery(format!(
                    "{url} names the issuer {:?}, not {:?}: metadata for another issuer is \
                     not used (RFC 8414 section 3.3)",
                    metadata.issuer, settings.issuer
                )));
            }
            Err(error) => tried.push(error.to_string()),
        }
    }
    Err(VerifierSetupError::Discovery(format!(
        "no metadata for the issuer {:?}: {}",
        settings.issuer,
        tried.join("; ")
    )))
}

/// An endpoint the metadata names, held to the same rule as the issuer: `https`, or `http` on
/// a loopback host.
pub(crate) fn endpoint(
    member: &'static str,
    value: Option<&str>,
    issuer: &str,
) -> Result<String, VerifierSetupError> {
    let Some(value) = value else {
        return Err(VerifierSetupError::Discovery(format!(
            "the metadata of {issuer:?} has no {member}"
        )));
    };
    secure_url(member, value).map_err(|error: ConfigError| {
        VerifierSetupError::Discovery(format!("the metadata of {issuer:?}: {error}"))
    })?;
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_well_known_urls_are_tried_in_the_specifications_order() {
        let root = url::Url::parse("https://auth.example.com").unwrap();
        assert_eq!(
            metadata_urls(&root),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        let tenant = url::Url::parse("https://auth.example.com/tenant1").unwrap();
        assert_eq!(
            metadata_urls(&tenant),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
    }
}
