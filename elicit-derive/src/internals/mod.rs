//! The parse-and-check side: the derive input read into a syntax tree with its attributes, and
//! the rules it must follow, every error recorded in one [`ctxt::Ctxt`]. No impl is generated
//! here and nothing here names `expand`, which reads what this side produced (and uses `format`
//! and `respan` for the checks it leaves to the compiler).

pub mod ast;
pub mod attr;
pub mod case;
pub mod check;
pub mod ctxt;
pub mod format;
pub mod respan;
pub mod sensitive;
