//! What `#[derive(Elicit)]` refuses at compile time, and what it must keep accepting.
//!
//! Each case under `fail/` is one rule: every form the spec forbids, and every contradiction in
//! the attributes, fails to compile with an error on the user's own token; its `.stderr` beside
//! it is the reviewed error. Each case under `pass/` is a near miss that must keep compiling.
//!
//! After changing a message, regenerate with `TRYBUILD=overwrite cargo test --test compile`
//! and read the diff of every `.stderr`.

#[test]
fn cases() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile/fail/*.rs");
    t.pass("tests/compile/pass/*.rs");
}
