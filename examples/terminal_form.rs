//! Renders one elicitation on the terminal and prints the answer: the contract scripts and
//! tests rely on.
//!
//! ```sh
//! cargo run -p elicit-examples --features terminal --example terminal_form -- [--server NAME] SCHEMA.json
//! ```
//!
//! The form names the server that asks, as a client must: `NAME`, or else the file's name.
//! `SCHEMA.json` holds either a form's `requestedSchema` or the whole params of an
//! `elicitation/create` request (form or URL mode). The request is checked as a client checks
//! it (the spec's schema subset, the mode, an http(s) URL), rendered with
//! `elicit_mcp::client::terminal`, and the resulting `ElicitResult` is printed on stdout as one
//! JSON line, such as `{"action":"accept","content":{"nights":2}}`, `{"action":"decline"}` or
//! `{"action":"cancel"}`. The prompts are drawn on stderr. The exit status is 0 whatever the
//! user chose, and 1 with a message on stderr when the file cannot be read or checked, or when
//! stdin is not a terminal.
//!
//! A URL the user chooses to open goes to the desktop's browser, or to the program named by
//! `ELICIT_BROWSER`.

use std::error::Error;
use std::process::ExitCode;

use elicit_mcp::client::terminal::Renderer;
use elicit_mcp::client::{ServerIdentity, validate_request};
use elicit_mcp::schema::RequestedSchema;
use elicit_mcp::wire::{ElicitRequestFormParams, ElicitRequestParams, ElicitationCapability};
use serde_json::Value;

/// The message shown above a bare `requestedSchema`, which carries none of its own.
const BARE_SCHEMA_MESSAGE: &str = "Please fill in this form.";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("terminal_form: {error}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: terminal_form [--server NAME] SCHEMA.json \
                     (a requestedSchema or elicitation/create params)";

fn run() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let mut server = None;
    let path = loop {
        match args.next() {
            Some(flag) if flag == "--server" => {
                server = Some(args.next().ok_or("--server needs a name")?);
            }
            Some(path) => break path,
            None => return Err(USAGE.into()),
        }
    };
    if let Some(extra) = args.next() {
        return Err(format!("unexpected argument `{extra}`\n{USAGE}").into());
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let request = read_request(&text).map_err(|e| format!("`{path}`: {e}"))?;
    // Without a server to name, the file the request came from stands in for it.
    let server = ServerIdentity::new(server.unwrap_or_else(|| file_name(&path)));
    let result = Renderer::new().elicit(&server, &request)?;
    println!("{}", serde_json::to_string(&result)?);
    Ok(())
}

fn file_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map_or_else(
        || path.to_owned(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// The request in the file: params if it has `requestedSchema`, `mode` or `message`, a bare
/// schema otherwise. Both are read from the text itself, so the properties keep their order.
fn read_request(text: &str) -> Result<ElicitRequestParams, Box<dyn Error>> {
    let value: Value = serde_json::from_str(text)?;
    let is_params = ["requestedSchema", "mode", "message"]
        .iter()
        .any(|key| value.get(key).is_some());
    if is_params {
        // A client declaring both modes checks the params as it would on the wire.
        validate_request(&value, Some(&ElicitationCapability::form_and_url()))?;
        Ok(serde_json::from_str(text)?)
    } else {
        let schema: RequestedSchema = serde_json::from_str(text)
            .map_err(|e| format!("not a requestedSchema nor elicitation/create params: {e}"))?;
        Ok(ElicitRequestFormParams::new(BARE_SCHEMA_MESSAGE, schema).into())
    }
}
