//! The parse-and-check side: the derive input read into a syntax tree with its attributes, and
//! the rules it must follow, every error recorded in one [`ctxt::Ctxt`]. Nothing here generates
//! code; `expand` reads what this side produced.

pub mod ast;
pub mod attr;
pub mod case;
pub mod check;
pub mod ctxt;
pub mod format;
pub mod respan;
pub mod sensitive;
