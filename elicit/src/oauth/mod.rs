//! The MCP server as an OAuth resource server (feature `oauth`), as MCP authorization asks of
//! it: access tokens verified by the library, and the metadata that tells clients where to get
//! them.
//!
//! One [`ProtectedResource`] says who issues the tokens (the authorization server's issuer),
//! the server's own public URL (the resource every token must be issued for, RFC 8707), and the
//! scopes a token must carry. From it come:
//!
//! - [`ProtectedResource::jwt`]: [`JwtAccessTokens`], which verifies JWT access tokens with the
//!   keys of the issuer's JWKS, found through its metadata (RFC 8414, or OpenID Connect
//!   discovery);
//! - [`ProtectedResource::introspection`]: [`Introspection`], which asks the authorization
//!   server about each token (RFC 7662) and caches its answer;
//! - [`ProtectedResource::metadata_router`]: the protected-resource metadata (RFC 9728) at
//!   `/.well-known/oauth-protected-resource` (and its path-suffixed form), from which clients
//!   find the authorization server.
//!
//! Either verifier is an [`Authenticate`](crate::http::Authenticate): given to
//! [`Elicitation::with_authentication`](crate::rmcp::Elicitation::with_authentication), the
//! guard runs it on every request. Its refusals are RFC 6750's: `401` with `invalid_token`
//! (expired, another audience, another issuer, a signature that does not verify, a key the
//! issuer does not publish, an algorithm not allowed), `400` with `invalid_request` (an
//! `Authorization` header that is no bearer token), `403` with `insufficient_scope` and the
//! `scope` needed; each names the metadata (`resource_metadata="…"`, RFC 9728 section 5.1), as
//! does the bare `401` of a request without a token. The user of an accepted token is the
//! issuer and its `sub` together ([`UserId::from_issuer_and_subject`]), never `sub` alone:
//! two issuers may give the same `sub` to two people.
//!
//! [`UserId::from_issuer_and_subject`]: crate::server::UserId::from_issuer_and_subject
//!
//! ```no_run
//! # use rmcp::ServerHandler;
//! # #[derive(Clone)] struct MyServer;
//! # impl ServerHandler for MyServer {}
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::net::SocketAddr;
//! use std::sync::Arc;
//!
//! use elicit_mcp::http::Guard;
//! use elicit_mcp::oauth::ProtectedResource;
//! use elicit_mcp::rmcp::{Elicitation, RequestStateSeal};
//! use rmcp::transport::StreamableHttpServerConfig;
//! use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
//!
//! let issuer = "https://auth.example.com";
//! let resource = ProtectedResource::new(issuer, "https://mcp.example.com/mcp")?
//!     .with_scopes(["bookings"])?;
//! let elicitation = Elicitation::new(RequestStateSeal::generated()?)
//!     .with_authentication(resource.jwt().await?);
//! let mcp = Guard::new().serve(
//!     &elicitation,
//!     || MyServer,
//!     Arc::new(LocalSessionManager::default()),
//!     StreamableHttpServerConfig::default(),
//! )?;
//! let app = axum::Router::new()
//!     .nest_service("/mcp", mcp)
//!     .merge(resource.metadata_router());
//! let listener = tokio::net::TcpListener::bind("0.0.0.0:8000").await?;
//! axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await?;
//! # Ok(())
//! # }
//! ```

mod challenge;
mod config;
mod discovery;
mod error;
mod fetch;
mod introspection;
mod jwt;
mod keys;
mod metadata;
#[cfg(feature = "page")]
pub(crate) mod openid_client;
mod scopes;
mod signed;

pub use config::{ConfigError, ProtectedResource};
pub use error::VerifierSetupError;
pub use introspection::Introspection;
pub use jwt::JwtAccessTokens;
