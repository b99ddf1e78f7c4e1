//! What the fuzz targets share: the derived forms they read answers with (one with every kind
//! of field, and the examples' forms), and how an input is cut into its parts.

// The examples' forms are copies: their fields are read by the derive's code only.
#![allow(dead_code)]

mod every_kind;
mod examples {
    pub(crate) mod conformance_server;
    pub(crate) mod contact;
    pub(crate) mod http_server;
    pub(crate) mod secure_page;
    pub(crate) mod stdio_server;
}

pub use every_kind::EveryKind;

use elicit_mcp::Elicit;
use serde_json::{Map, Value};

/// Writes a value of a form back as the content that reads as it.
pub type ToContent<T> = fn(&T) -> Map<String, Value>;

/// Something done with one derived form, whichever it is.
pub trait OnForm {
    /// What it gives.
    type Out;

    /// Done with the form `T`; `to_content` writes a value of it back as the content that
    /// reads as it, for the forms that can be written (`None` for the others).
    fn on<T: Elicit>(self, to_content: Option<ToContent<T>>) -> Self::Out;
}

/// How many forms [`on_form`] chooses from.
pub const FORMS: usize = 12;

/// Does `visitor` with the form numbered `index` (modulo [`FORMS`]): the form with every kind
/// of field first, then the examples' forms.
pub fn on_form<V: OnForm>(index: usize, visitor: V) -> V::Out {
    use examples::*;
    match index % FORMS {
        0 => visitor.on::<EveryKind>(Some(written)),
        1 => contact::on(visitor),
        2 => http_server::on(0, visitor),
        3 => http_server::on(1, visitor),
        4 => stdio_server::on(0, visitor),
        5 => stdio_server::on(1, visitor),
        6 => stdio_server::on(2, visitor),
        7 => secure_page::on(visitor),
        8 => conformance_server::on(0, visitor),
        9 => conformance_server::on(1, visitor),
        10 => conformance_server::on(2, visitor),
        _ => conformance_server::on(3, visitor),
    }
}

/// A value written as JSON content, for forms that derive `Serialize` with the wire names.
pub fn written<T: serde::Serialize>(value: &T) -> Map<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(content)) => content,
        other => panic!("a form writes as an object, not {other:?}"),
    }
}

/// The separator of an input's parts: the record separator that starts each JSON text of a
/// JSON text sequence (RFC 7464), which no JSON text holds.
pub const SEPARATOR: u8 = 0x1E;

/// `data` cut at each [`SEPARATOR`].
pub fn parts(data: &[u8]) -> Vec<&[u8]> {
    data.split(|byte| *byte == SEPARATOR).collect()
}

/// The first byte of `data` as a number, and the rest; `(0, data)` when it is empty.
pub fn selector(data: &[u8]) -> (usize, &[u8]) {
    match data.split_first() {
        Some((first, rest)) => (usize::from(*first), rest),
        None => (0, data),
    }
}
