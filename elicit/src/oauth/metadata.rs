//! The protected-resource metadata (RFC 9728), served at its well-known path so that clients
//! find the authorization server by themselves, as MCP authorization has them do.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::Full;
use serde::Serialize;

use super::config::{ProtectedResource, Settings};

const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The document, as RFC 9728 section 2 names its members.
#[derive(Serialize)]
struct Document<'a> {
    resource: &'a str,
    authorization_servers: [&'a str; 1],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    scopes_supported: &'a [String],
    /// Tokens are read from the `Authorization` header only (MCP authorization forbids the
    /// query string).
    bearer_methods_supported: [&'a str; 1],
}

/// Where the metadata of `resource` is (RFC 9728 section 3.1, the well-known path inserted
/// between the host and the resource's path), and that path when it is not the root form.
pub(crate) fn location(resource: &url::Url) -> (String, Option<String>) {
    let origin = resource.origin().ascii_serialization();
    let path = resource.path().trim_end_matches('/');
    if path.is_empty() {
        (format!("{origin}{WELL_KNOWN}"), None)
    } else {
        let suffixed = format!("{WELL_KNOWN}{path}");
        (format!("{origin}{suffixed}"), Some(suffixed))
    }
}

fn document(settings: &Settings) -> Bytes {
    let document = Document {
        resource: &settings.resource,
        authorization_servers: [&settings.issuer],
        scopes_supported: &settings.scopes,
        bearer_methods_supported: ["header"],
    };
    Bytes::from(serde_json::to_vec(&document).expect("the metadata is strings and lists"))
}

impl ProtectedResource {
    /// The router that serves this resource's protected-resource metadata (RFC 9728): at
    /// `/.well-known/oauth-protected-resource`, and for a resource with a path (`/mcp`) at its
    /// path-suffixed form too (`/.well-known/oauth-protected-resource/mcp`), the one
    /// [`metadata_url`](Self::metadata_url) names. Merge it at the root of the server's
    /// router, beside the MCP endpoint:
    ///
    /// ```
    /// # use elicit_mcp::oauth::ProtectedResource;
    /// let resource = ProtectedResource::new("https://auth.example.com", "https://mcp.example.com/mcp")?;
    /// let app = axum::Router::new()
    ///     // .nest_service("/mcp", guarded_mcp_service)
    ///     .merge(resource.metadata_router());
    /// # let _ = app;
    /// # Ok::<(), elicit_mcp::oauth::ConfigError>(())
    /// ```
    pub fn metadata_router(&self) -> axum::Router {
        let body = document(&self.settings);
        let serve = move || {
            let body = body.clone();
            async move {
                let mut response = Response::new(Full::new(body));
                *response.status_mut() = StatusCode::OK;
                let headers = response.headers_mut();
                headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                // Public, and read by browser-based clients of other origins.
                headers.insert(
                    header::ACCESS_CONTROL_ALLOW_ORIGIN,
                    HeaderValue::from_static("*"),
                );
                response
            }
        };
        let mut router = axum::Router::new().route(WELL_KNOWN, axum::routing::get(serve.clone()));
        if let Some(path) = &self.settings.metadata_path {
            router = router.route(path, axum::routing::get(serve));
        }
        router
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_of_a_resource_with_a_path_is_at_the_path_inserted_form() {
        let at = |resource: &str| location(&url::Url::parse(resource).unwrap());
        assert_eq!(
            at("https://example.com/public/mcp"),
            (
                "https://example.com/.well-known/oauth-protected-resource/public/mcp".to_owned(),
                Some("/.well-known/oauth-protected-resource/public/mcp".to_owned())
            )
        );
        assert_eq!(
            at("http://127.0.0.1:8080/"),
            (
                "http://127.0.0.1:8080/.well-known/oauth-protected-resource".to_owned(),
                None
            )
        );
    }
}
