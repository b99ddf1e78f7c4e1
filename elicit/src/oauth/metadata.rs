//! The protected-resource metadata (RFC 9728), served at its well-known path so that clients
//! find the authorization server by themselves, as MCP authorization has them do.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::Full;
use serde::Serialize;

use super::config::{ProtectedResource, Settings, WELL_KNOWN};

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
    /// let issuer = "https://auth.example.com";
    /// let resource = ProtectedResource::new(issuer, "https://mcp.example.com/mcp")?;
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
