//! What `#[derive(Elicit)]` refuses at compile time, and what it must keep accepting.
//!
//! Each case under `tests/ui/` is one rule: every form the spec forbids, and every contradiction
//! in the attributes, fails to compile with an error on the user's own token; its `.stderr`
//! beside it is the reviewed error. Each case under `tests/ui-pass/` is a near miss that must
//! keep compiling. The cases are data, not modules of this binary: they keep the folders they
//! have always had.
//!
//! After changing a message, regenerate with `TRYBUILD=overwrite cargo test --test compile`
//! and read the diff of every `.stderr`.

#[test]
fn cases() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
