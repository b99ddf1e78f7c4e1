//! Who is asking: the server's identity, which the spec requires a client to make clear on
//! every elicitation.

use std::fmt;

/// The server an elicitation comes from, as the user is shown it: the `serverInfo` the server
/// gave in its `initialize` result (`name`, and `title` and `version` when it gave them), or
/// whatever name the host itself knows the server by (its configuration's key, say).
///
/// Its [`Display`](fmt::Display) is the title with the name and version after it, or the name
/// and version alone; control characters a server put in its name are shown as `?`, so a name
/// cannot restyle or overwrite the screen that shows it.
///
/// ```
/// use elicit_mcp::client::ServerIdentity;
///
/// let hotel = ServerIdentity::new("elicit-hotel").with_version("0.1.0");
/// assert_eq!(hotel.to_string(), "elicit-hotel 0.1.0");
/// let titled = hotel.with_title("Hotel Example");
/// assert_eq!(titled.to_string(), "Hotel Example (elicit-hotel 0.1.0)");
/// assert_eq!(ServerIdentity::new("bad\x1b[2Jname").to_string(), "bad?[2Jname");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ServerIdentity {
    /// The server's `serverInfo.name`, or the host's name for it.
    pub name: String,
    /// The server's `serverInfo.title`, its name for people.
    pub title: Option<String>,
    /// The server's `serverInfo.version`.
    pub version: Option<String>,
}

impl ServerIdentity {
    /// A server known by `name` alone.
    pub fn new(name: impl Into<String>) -> Self {
        ServerIdentity {
            name: name.into(),
            title: None,
            version: None,
        }
    }

    /// The same server, with the title it gave for people. An empty title is no title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        let title = title.into();
        self.title = (!title.trim().is_empty()).then_some(title);
        self
    }

    /// The same server, with the version it gave. An empty version is no version.
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        let version = version.into();
        self.version = (!version.trim().is_empty()).then_some(version);
        self
    }
}

impl fmt::Display for ServerIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name_and_version = match &self.version {
            Some(version) => format!("{} {}", printable(&self.name), printable(version)),
            None => printable(&self.name),
        };
        match &self.title {
            Some(title) => write!(f, "{} ({name_and_version})", printable(title)),
            None => f.write_str(&name_and_version),
        }
    }
}

/// The text with its control characters (escape sequences, carriage returns, newlines) shown
/// as `?`: the identity is the server's own words, and the screen must stay the client's.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The `serverInfo` of rmcp's `initialize` result (`peer_info().server_info` on a client).
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
impl From<&rmcp::model::Implementation> for ServerIdentity {
    fn from(info: &rmcp::model::Implementation) -> Self {
        let identity = ServerIdentity::new(info.name.clone()).with_version(info.version.clone());
        match &info.title {
            Some(title) => identity.with_title(title.clone()),
            None => identity,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_title_and_version_are_left_out() {
        let identity = ServerIdentity::new("files")
            .with_title(" ")
            .with_version("");
        assert_eq!(identity.to_string(), "files");
    }

    #[test]
    fn newlines_cannot_fake_a_second_line() {
        let identity = ServerIdentity::new("a").with_title("Bank\nServer: trusted");
        assert_eq!(identity.to_string(), "Bank?Server: trusted (a)");
    }

    #[cfg(feature = "rmcp")]
    #[test]
    fn rmcp_server_info_converts() {
        let mut info = rmcp::model::Implementation::new("elicit-hotel", "0.1.0");
        info.title = Some("Hotel".to_owned());
        assert_eq!(
            ServerIdentity::from(&info).to_string(),
            "Hotel (elicit-hotel 0.1.0)"
        );
    }
}
