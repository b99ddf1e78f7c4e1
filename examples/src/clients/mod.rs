//! What the example MCP clients (`terminal_client`, `tui_client`) share: their command line,
//! the revision they speak, the name they show the server by, and one tool call seen to its
//! end ([`call_tool`]: rounds, tasks and forms alike).

mod call;

use elicit_mcp::client::ServerIdentity;
use elicit_mcp::wire::ElicitationCapability;
use rmcp::model::{ClientCapabilities, JsonObject, ProtocolVersion, TASKS_EXTENSION_ID};
use rmcp::service::{ClientLifecycleMode, Peer, RoleClient};

pub use call::{Answerer, CallError, MAX_ASKING_ROUNDS, MAX_WAITING_ROUNDS, call_tool};

/// The revisions `--protocol` pins, as they are written.
const PINNABLE: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// A client's command line: `[--protocol REVISION] [--arguments JSON] TOOL SERVER…`.
#[derive(Debug, PartialEq)]
pub struct Invocation {
    /// The tool to call.
    pub tool: String,
    /// Its arguments, a JSON object.
    pub arguments: Option<JsonObject>,
    /// The revision to speak.
    pub revision: Revision,
    /// The server's command, or (for a client that speaks HTTP) its URL.
    pub server: Vec<String>,
}

/// The protocol revision a client speaks with the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Revision {
    /// As the official clients do: `server/discover` first, for 2026-07-28, and the
    /// `initialize` handshake of 2025-11-25 with a server that does not discover.
    Negotiated,
    /// Only this one (`--protocol`): 2025-11-25 by `initialize`, 2026-07-28 by
    /// `server/discover`.
    Pinned(ProtocolVersion),
}

impl Revision {
    /// How rmcp opens the connection for this revision.
    pub fn lifecycle(&self) -> ClientLifecycleMode {
        match self {
            Revision::Negotiated => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
            Revision::Pinned(version) if version.has_initialize() => {
                ClientLifecycleMode::Initialize
            }
            Revision::Pinned(version) => ClientLifecycleMode::Discover {
                preferred_versions: vec![version.clone()],
            },
        }
    }

    /// The version a client names in `initialize`, when it uses that handshake.
    pub fn handshake_version(&self) -> ProtocolVersion {
        match self {
            Revision::Pinned(version) if version.has_initialize() => version.clone(),
            _ => ProtocolVersion::V_2025_11_25,
        }
    }

    fn parse(text: &str) -> Result<Revision, String> {
        match text {
            "2025-11-25" => Ok(Revision::Pinned(ProtocolVersion::V_2025_11_25)),
            "2026-07-28" => Ok(Revision::Pinned(ProtocolVersion::V_2026_07_28)),
            other => Err(format!(
                "--protocol takes {} or {}, not `{other}`",
                PINNABLE[0], PINNABLE[1]
            )),
        }
    }
}

/// What a client with a person at it declares: the elicitation modes it can show, and the
/// tasks extension (it polls a task to its end and answers the forms asked inside it).
pub fn capabilities(elicitation: &ElicitationCapability) -> ClientCapabilities {
    // Form mode and URL mode have no settings rmcp could not carry.
    let mut capabilities = ClientCapabilities::try_from(elicitation).unwrap_or_default();
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .insert(TASKS_EXTENSION_ID.to_owned(), JsonObject::new());
    capabilities
}

/// The revision the connection speaks, in words for the person: the server's, as it answered
/// `initialize` or `server/discover`.
pub fn spoken_revision(peer: &Peer<RoleClient>) -> String {
    peer.peer_info()
        .map(|info| info.protocol_version.to_string())
        .unwrap_or_else(|| "an unknown revision".to_owned())
}

impl Invocation {
    /// Reads `args` (without the program's name); the error says what is wrong, followed by
    /// `usage` where it helps, or is `usage` alone for `--help`.
    pub fn parse(mut args: impl Iterator<Item = String>, usage: &str) -> Result<Self, String> {
        let mut arguments = None;
        let mut revision = Revision::Negotiated;
        let tool = loop {
            match args.next() {
                Some(flag) if flag == "--protocol" => {
                    let text = args.next().ok_or_else(|| {
                        format!(
                            "--protocol needs a revision: {} or {}",
                            PINNABLE[0], PINNABLE[1]
                        )
                    })?;
                    revision = Revision::parse(&text)?;
                }
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
            revision,
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

    const USAGE: &str =
        "usage: client [--protocol REVISION] [--arguments JSON] TOOL SERVER_PROGRAM [SERVER_ARGS…]";

    fn parse(args: &[&str]) -> Result<Invocation, String> {
        Invocation::parse(args.iter().map(|arg| (*arg).to_owned()), USAGE)
    }

    #[test]
    fn the_tool_its_arguments_and_the_server_command() {
        let invocation = parse(&["--arguments", r#"{"room":"12"}"#, "book", "srv", "-v"]).unwrap();
        assert_eq!(invocation.tool, "book");
        assert_eq!(invocation.arguments.unwrap()["room"], "12");
        assert_eq!(invocation.server, ["srv", "-v"]);
        assert_eq!(invocation.revision, Revision::Negotiated);
    }

    #[test]
    fn a_revision_is_pinned_by_its_date() {
        let pinned = parse(&["--protocol", "2025-11-25", "book", "srv"]).unwrap();
        assert_eq!(
            pinned.revision,
            Revision::Pinned(ProtocolVersion::V_2025_11_25)
        );
        assert!(matches!(
            pinned.revision.lifecycle(),
            ClientLifecycleMode::Initialize
        ));
        let current = parse(&["--protocol", "2026-07-28", "book", "srv"]).unwrap();
        assert!(matches!(
            current.revision.lifecycle(),
            ClientLifecycleMode::Discover { .. }
        ));
        assert_eq!(
            parse(&["--protocol", "2024-11-05", "book", "srv"]).unwrap_err(),
            "--protocol takes 2025-11-25 or 2026-07-28, not `2024-11-05`"
        );
        assert_eq!(
            parse(&["--protocol"]).unwrap_err(),
            "--protocol needs a revision: 2025-11-25 or 2026-07-28"
        );
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
