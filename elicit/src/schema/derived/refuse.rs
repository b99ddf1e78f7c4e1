//! The derive's compile-time refusals: each runs one check of a field's attribute against the
//! field's type and, when they misfit, stops the build with the message the user reads. Each is
//! `#[track_caller]`, so the error points at the call, which the derive spans on the attribute;
//! the generated code is one call per check rather than a `panic!` and its message, which every
//! rebuild of a crate of forms would expand again.

use super::{DefaultValue, more_items_than_choices};
use super::{Kind, StringRule, bound_misfit, default_outside, format_clash, type_declares};
use crate::schema::{Number, StringFormat};

/// `min_length`, `max_length` or `pattern` written on a field whose type declares it already.
#[track_caller]
pub const fn refuse_type_declared(kind: Kind, rule: StringRule) {
    if type_declares(kind, rule) {
        fail(Message::EMPTY.push("`").push(rule.attribute()).push(
            "` is declared by the field's type already, and every form using the type keeps it: remove it here, or change it on the type",
        ).as_str());
    }
}

/// A `format` attribute naming another format than the one of the field's type.
#[track_caller]
pub const fn refuse_format_clash(kind: Kind, attr: StringFormat) {
    if let Some(own) = format_clash(kind, attr) {
        fail(
            Message::EMPTY
                .push("`format = \"")
                .push(attr.as_str())
                .push("\"` is not the format of the field's type, whose values have format \"")
                .push(own.as_str())
                .push("\": remove the attribute, or write `format = \"")
                .push(own.as_str())
                .push("\"`")
                .as_str(),
        );
    }
}

/// A `minimum` or `maximum` that does not fit the field's type; `written` is the attribute as
/// the user wrote it (`` `minimum = 18` ``).
#[track_caller]
pub const fn refuse_bound_misfit(kind: Kind, bound: Number, written: &str) {
    if let Some(misfit) = bound_misfit(kind, Some(bound)) {
        fail(Message::EMPTY.push(written).push(misfit.says()).as_str());
    }
}

/// A `min_items` above the number of choices; `written` as for [`refuse_bound_misfit`].
#[track_caller]
pub const fn refuse_more_items_than_choices(kind: Kind, min_items: u64, written: &str) {
    if more_items_than_choices(kind, min_items) {
        fail(Message::EMPTY.push(written).push(
            " is more than the number of choices of the field's enum, so no selection would be accepted: lower it, or add variants",
        ).as_str());
    }
}

/// A default outside the bounds or lengths a narrowed type (a newtype) declares; `message` says
/// which, in the words of the default's kind.
#[track_caller]
pub const fn refuse_default_outside(
    narrowed: bool,
    kind: Kind,
    default: DefaultValue,
    message: &str,
) {
    if narrowed && default_outside(kind, default) {
        fail(message);
    }
}

/// A field not written as a secret whose type is one: a `Secret` behind a type alias or a
/// newtype, which the derive, reading only tokens, cannot see.
#[track_caller]
pub const fn refuse_hidden_secret(secret: bool, field: &str) {
    if secret {
        fail(Message::EMPTY.push("`").push(field).push(
            "` holds an `elicit_mcp::Secret` under another name (a type alias or a newtype): write its type as `elicit_mcp::Secret<..>` or `Option<elicit_mcp::Secret<..>>` in the struct, so that the derive knows the form has a secret field and never lets it be sent to the client",
        ).as_str());
    }
}

/// Stops the build with `message`, at the caller's caller: the derive's call on the attribute.
#[track_caller]
const fn fail(message: &str) -> ! {
    panic!("{}", message)
}

/// A compile-time error message assembled from parts: a constant's `panic!` takes one `&str`
/// argument and no formatting, and a string default's error names a variant only the field's
/// type knows. Long parts are cut at a character boundary.
pub struct Message {
    bytes: [u8; Message::CAPACITY],
    len: usize,
}

impl Message {
    const CAPACITY: usize = 1024;

    /// An empty message.
    pub const EMPTY: Message = Message {
        bytes: [0; Message::CAPACITY],
        len: 0,
    };

    /// The message with `part` after it.
    pub const fn push(mut self, part: &str) -> Message {
        let part = part.as_bytes();
        let mut i = 0;
        while i < part.len() && self.len < Message::CAPACITY {
            self.bytes[self.len] = part[i];
            self.len += 1;
            i += 1;
        }
        // A part cut inside a character loses that character's first bytes too: while the
        // first byte left out continues a character, the byte before it goes.
        while i > 0 && i < part.len() && part[i] & 0xC0 == 0x80 {
            i -= 1;
            self.len -= 1;
        }
        self
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        match std::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "",
        }
    }
}
