//! What `#[derive(Elicit)]` refuses at compile time, and what it must keep accepting.
//!
//! Each case under `tests/ui/` is one rule: every form the spec forbids, and every contradiction
//! in the attributes, fails to compile with an error on the user's own token; its `.stderr`
//! beside it is the reviewed error. Each case under `tests/ui-pass/` is a near miss that must
//! keep compiling (and whose `main` runs). The cases are data, not modules of this binary: they
//! keep the folders they have always had.
//!
//! The two kinds are two tests because trybuild checks compile-fail cases alone in one `cargo
//! check` of all of them (`--keep-going`), but one case at a time, each built and run, as soon
//! as a pass case is among them.
//!
//! After changing a message, regenerate with
//! `TRYBUILD=overwrite cargo test -p elicit-compile-tests` and read the diff of every `.stderr`.

#[test]
fn refused() {
    trybuild::TestCases::new().compile_fail("ui/*.rs");
}

#[test]
fn accepted() {
    trybuild::TestCases::new().pass("ui-pass/*.rs");
}
