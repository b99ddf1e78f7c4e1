//! Compile-time rejection: every form the spec forbids, and every contradiction in the
//! attributes, fails to compile with an error on the user's own token. Each case under
//! `tests/ui/` is one rule; its `.stderr` is the reviewed error. Cases under `tests/ui-pass/`
//! are near misses that must keep compiling.
//!
//! After changing a message, regenerate with `TRYBUILD=overwrite cargo test --test ui` and read
//! the diff of every `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
