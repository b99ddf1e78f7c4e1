//! Compile-time errors of a field whose type a feature of this crate maps (the dates, times and
//! URLs of `chrono`, `time`, `jiff` and `url`) when that feature is off: each names the feature
//! to turn on. Types of the user's own with the same names must keep compiling.
//!
//! Only with those features off, which `cargo test -p elicit-mcp` (and CI's form-mode step,
//! `--no-default-features`) gives; the workspace's tests turn them all on, and compile this
//! test to nothing. Regenerate with `TRYBUILD=overwrite cargo test -p elicit-mcp --test
//! ui_features_off` and read the diff of every `.stderr`.

#[cfg(not(any(
    feature = "chrono",
    feature = "time",
    feature = "jiff",
    feature = "url"
)))]
#[test]
fn ui_features_off() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui-features-off/*.rs");
    t.pass("tests/ui-features-off-pass/*.rs");
}
