//! Compile-time errors of a field whose type a feature of elicit-mcp maps (the dates, times and
//! URLs of `chrono`, `time`, `jiff` and `url`) when that feature is off: each names the feature
//! to turn on. Types of the user's own with the same names must keep compiling.
//!
//! trybuild builds the cases with this package's dependencies (`Cargo.toml`: elicit-mcp with
//! none of its features), so they hold under `cargo test --workspace` too, which turns those
//! features on for the workspace's own build. Compile-fail and pass cases are two tests:
//! trybuild checks compile-fail cases in one `cargo check` of all of them only when no pass
//! case is among them. Regenerate with `TRYBUILD=overwrite cargo test -p
//! elicit-features-off-tests` and read the diff of every `.stderr`.

#[test]
fn refused() {
    trybuild::TestCases::new().compile_fail("ui/*.rs");
}

#[test]
fn accepted() {
    trybuild::TestCases::new().pass("ui-pass/*.rs");
}
