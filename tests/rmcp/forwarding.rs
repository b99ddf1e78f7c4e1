//! `Elicited<H>` wraps the server author's handler and forwards every method of rmcp's
//! `ServerHandler` to it by hand. A method rmcp adds would fall back to rmcp's default without a
//! word, so this test reads the trait's methods from the rmcp source cargo built against and
//! the wrapper's from `elicit/src/rmcp/served.rs`, and fails on any the wrapper leaves out.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// The names of the functions in `block`, each at the start of a line (`fn x` or `async fn x`).
fn function_names(block: &str) -> BTreeSet<String> {
    block
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("async ").unwrap_or(line);
            let name = line.strip_prefix("fn ")?;
            let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            Some(name[..end].to_owned())
        })
        .collect()
}

/// The text of `source` from the line that starts with `opening` to the next line that is `}`.
fn block_from<'a>(source: &'a str, opening: &str, what: &str) -> &'a str {
    let start = source
        .find(opening)
        .unwrap_or_else(|| panic!("{what}: no `{opening}`; has its source been reorganized?"));
    let rest = &source[start..];
    let end = rest
        .find("\n}")
        .unwrap_or_else(|| panic!("{what}: `{opening}` has no closing `}}` at a line's start"));
    &rest[..end]
}

/// The directory of the rmcp package this workspace builds against, as `cargo metadata` says.
fn rmcp_source() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--manifest-path",
            manifest,
        ])
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rmcps: Vec<&str> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|package| package["name"] == "rmcp")
        .filter_map(|package| package["manifest_path"].as_str())
        .collect();
    let [manifest] = rmcps[..] else {
        panic!("expected one rmcp in the build, found {rmcps:?}");
    };
    PathBuf::from(manifest).parent().unwrap().to_owned()
}

#[test]
fn the_wrapper_forwards_every_method_of_rmcps_server_handler() {
    let server_rs = rmcp_source().join("src/handler/server.rs");
    let rmcp = std::fs::read_to_string(&server_rs)
        .unwrap_or_else(|e| panic!("{}: {e}", server_rs.display()));
    // rmcp 3.11 writes the trait's methods once, in a macro both its variants expand.
    let trait_methods = function_names(block_from(
        &rmcp,
        "macro_rules! server_handler_methods",
        "rmcp's ServerHandler",
    ));
    assert!(
        trait_methods.len() > 20 && trait_methods.contains("call_tool"),
        "rmcp's ServerHandler read as {trait_methods:?}: has its source been reorganized?"
    );
    let served = include_str!("../../elicit/src/rmcp/served.rs");
    let forwarded = function_names(block_from(
        served,
        "impl<H: ServerHandler> ServerHandler for Elicited<H>",
        "the wrapper",
    ));
    let missing: Vec<&String> = trait_methods.difference(&forwarded).collect();
    assert!(
        missing.is_empty(),
        "Elicited<H> does not forward {missing:?} of rmcp's ServerHandler ({}): forward each \
         to the wrapped handler in elicit/src/rmcp/served.rs",
        server_rs.display()
    );
    let unknown: Vec<&String> = forwarded.difference(&trait_methods).collect();
    assert!(
        unknown.is_empty(),
        "the wrapper has {unknown:?}, which rmcp's trait has not"
    );
}
