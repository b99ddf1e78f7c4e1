//! What the example MCP clients (`terminal_client`, `tui_client`) share: their command line,
//! and the name they show the server by.

use elicit_mcp::client::ServerIdentity;
use rmcp::model::JsonObject;
use rmcp::service::{Peer, RoleClient};

/// A client's command line: `[--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]`.
#[derive(Debug, PartialEq)]
pub struct Invocation {
    /// The tool to call.
    pub tool: String,
    /// Its arguments, a JSON object.
    pub arguments: Option<JsonObject>,
    /// The server's command, or (for a client that speaks HTTP) its URL.
    pub server: Vec<String>,
}

impl Invocation {
    /// Reads `args` (without the program's name); the error says what is wrong, followed by
    /// `usage` where it helps, or is `usage` alone for `--help`.
    pub fn parse(mut args: impl Iterator<Item = String>, usage: &str) -> Result<Self, String> {
        let mut arguments = None;
        let tool = loop {
            match args.next() {
                Some(flag) if flag == "--arguments" => {
                    let json = args.next().ok_or("--arguments needs a JSON object")?;
                    let object: JsonObject = serde_json::from_str(&json)
                        .map_err(|e| format!("--arguments must be a JSON object: {e}"))?;
                    arguments = Some(object);
                }
                Some(flag) if flag == "--help" || flag == "-h" => return Err(usage.to_owned()),
                Some(tool) => break tool,
                None => return Err(format!("no tool given\n{usage}")),
            }
        };
        let server: Vec<String> = args.collect();
        if server.is_empty() {
            return Err(format!(
                "no server command given after the tool `{tool}`\n{usage}"
            ));
        }
        Ok(Invocation {
            tool,
            arguments,
            server,
        })
    }
}

/// The server as the user is shown it: the `serverInfo` it gave at `initialize`, or else what
/// the user called it (its command or URL).
pub fn server_identity(peer: &Peer<RoleClient>, as_called: &ServerIdentity) -> ServerIdentity {
    peer.peer_info()
        .and_then(|info| info.server_info.as_ref().map(ServerIdentity::from))
        .unwrap_or_else(|| as_called.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    const USAGE: &str = "usage: client [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]";

    fn parse(args: &[&str]) -> Result<Invocation, String> {
        Invocation::parse(args.iter().map(|arg| (*arg).to_owned()), USAGE)
    }

    #[test]
    fn the_tool_its_arguments_and_the_server_command() {
        let invocation = parse(&["--arguments", r#"{"room":"12"}"#, "book", "srv", "-v"]).unwrap();
        assert_eq!(invocation.tool, "book");
        assert_eq!(invocation.arguments.unwrap()["room"], "12");
        assert_eq!(invocation.server, ["srv", "-v"]);
    }

    #[test]
    fn what_is_missing_or_wrong_is_said() {
        assert_eq!(parse(&["--help"]).unwrap_err(), USAGE);
        assert_eq!(parse(&[]).unwrap_err(), format!("no tool given\n{USAGE}"));
        assert_eq!(
            parse(&["book"]).unwrap_err(),
            format!("no server command given after the tool `book`\n{USAGE}")
        );
        assert_eq!(
            parse(&["--arguments"]).unwrap_err(),
            "--arguments needs a JSON object"
        );
        assert!(
            parse(&["--arguments", "[1]", "book", "srv"])
                .unwrap_err()
                .starts_with("--arguments must be a JSON object: ")
        );
    }
}
