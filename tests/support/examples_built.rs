//! The example binaries the end-to-end tests run as separate processes. The examples are the
//! package `elicit-examples`, whose programs need its features `rmcp`, `terminal` and `tui`, so
//! `cargo test --workspace` does not build them: the first test that needs them builds them all
//! (a no-op when they are current), in the profile of the binary that runs them (a bench's are
//! built `--release`).
//!
//! The build names the whole workspace (`--workspace`, the features as `elicit-examples/NAME`),
//! so cargo resolves every dependency's features as `cargo test --workspace` does and builds
//! only the examples' own crate again. Built as `-p elicit-examples`, elicit-mcp, rmcp, reqwest
//! and a dozen more were built a second time with the examples' narrower features, and a third
//! for `tui_client`. `.ci/conformance` runs this same command, so one build serves both.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The features of `elicit-examples` the examples need, named from the workspace.
const FEATURES: &str = "elicit-examples/rmcp,elicit-examples/terminal,elicit-examples/tui";

/// Every example a test, a bench or `.ci/conformance` runs as a process.
const EXAMPLES: [&str; 10] = [
    "terminal_form",
    "terminal_client",
    "tui_client",
    "stdio_server",
    "url_mode_server",
    "conformance_server",
    "conformance_client",
    "http_server",
    "secure_page",
    "authorized_server",
];

/// The directory holding the built examples: `target/<profile>/examples`.
pub fn examples_dir() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let mut build = Command::new(env!("CARGO"));
        build
            .args(["build", "--quiet", "--manifest-path"])
            .arg(manifest_dir().join("Cargo.toml"))
            .args(["--workspace", "--features", FEATURES]);
        for example in EXAMPLES {
            build.args(["--example", example]);
        }
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "building the examples failed");
        // A test or bench runs from target/<profile>/deps; the examples sit beside deps.
        let test = std::env::current_exe().expect("the test knows its path");
        test.parent()
            .and_then(Path::parent)
            .expect("the running binary is in target/<profile>/deps")
            .join("examples")
    })
}

/// The running test's or bench's package folder as cargo gives it at run time, not as it was
/// when the binary was compiled: a binary reused from a copy of the repository in another
/// folder (as `.ci/run` makes) would otherwise build the examples of a folder that is gone.
/// Run without cargo, the workspace's root, two folders above this library's.
pub fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let support = Path::new(env!("CARGO_MANIFEST_DIR"));
            support.ancestors().nth(2).unwrap_or(support).to_path_buf()
        })
}
