//! What a sealed state is bound to: the request it belongs to and its user, as a digest.
//!
//! The digest is computed only when a state is opened, or before a handler that may ask runs:
//! the handler takes the request's arguments, so a state its asks will seal must be bound while
//! they are still there. A tool known not to take an `Ask` cannot ask, and pays nothing
//! (`AskUse`).

use std::io;

use ::rmcp::model as sdk;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::rmcp::revision::params::Call;
use crate::server::UserId;

/// The associated data a state is sealed with: a SHA-256 digest of the request and its user.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Binding([u8; 32]);

impl Binding {
    /// The binding of `call` for `user`. Arguments are hashed with every object's keys
    /// sorted, so a client that reorders them on retry is still the same request; they are
    /// streamed into the digest from the request, neither copied nor written out whole.
    pub fn of(call: &Call<'_>, user: Option<&UserId>) -> Self {
        #[cfg(test)]
        tests::count_binding();
        let mut digest = DigestWriter(Sha256::new());
        digest.part(call.method);
        digest.part(call.name);
        digest.part(user.map(UserId::as_str).unwrap_or(""));
        digest.0.update(if user.is_some() { b"u" } else { b"-" });
        if let Some(arguments) = call.arguments {
            write_object(&mut digest, arguments);
        }
        Binding(digest.0.finalize().into())
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Lets serde_json write scalars and keys straight into the digest.
struct DigestWriter(Sha256);

impl DigestWriter {
    /// `LENGTH:TEXT;`, the length in decimal first, so that no method, name or user can run
    /// into the next part. Written piece by piece: these bytes are what every state is bound
    /// to, so they never change, and formatting machinery on each call would add nothing.
    fn part(&mut self, text: &str) {
        self.0.update(itoa::Buffer::new().format(text.len()));
        self.0.update(b":");
        self.0.update(text);
        self.0.update(b";");
    }
}

impl io::Write for DigestWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn write_canonical(out: &mut DigestWriter, value: &Value) {
    match value {
        Value::Object(map) => write_object(out, map),
        Value::Array(items) => {
            out.0.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.0.update(b",");
                }
                write_canonical(out, item);
            }
            out.0.update(b"]");
        }
        // Writing into the digest cannot fail.
        scalar => {
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

fn write_object(out: &mut DigestWriter, map: &sdk::JsonObject) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_unstable_by_key(|(key, _)| *key);
    out.0.update(b"{");
    for (i, (key, value)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.0.update(b",");
        }
        let _ = serde_json::to_writer(&mut *out, key);
        out.0.update(b":");
        write_canonical(out, value);
    }
    out.0.update(b"}");
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::Cell;

    use super::*;

    thread_local! {
        static BINDINGS: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn count_binding() {
        BINDINGS.with(|count| count.set(count.get() + 1));
    }

    /// How many bindings this thread has computed.
    pub(crate) fn bindings_computed() -> usize {
        BINDINGS.with(Cell::get)
    }

    fn call(arguments: &sdk::JsonObject) -> Binding {
        Binding::of(
            &Call {
                method: "tools/call",
                name: "book",
                arguments: Some(arguments),
            },
            None,
        )
    }

    #[test]
    fn arguments_bind_as_values_whatever_their_key_order() {
        let one = serde_json::json!({"a": 1, "b": {"c": 2, "d": [{"e": 3, "f": 4}]}});
        let other = serde_json::json!({"b": {"d": [{"f": 4, "e": 3}], "c": 2}, "a": 1});
        let changed = serde_json::json!({"b": {"d": [{"f": 4, "e": 5}], "c": 2}, "a": 1});
        let one = call(one.as_object().unwrap());
        assert_eq!(one, call(other.as_object().unwrap()));
        assert_ne!(one, call(changed.as_object().unwrap()));
    }

    /// A state sealed by one build must open on the next (replicas of two builds serve one
    /// call during a rolling deploy): the bytes a binding hashes never change.
    #[test]
    fn a_binding_is_the_same_digest_from_build_to_build() {
        let arguments = serde_json::json!({
            "text": "caf\u{e9} \"quoted\"\n",
            "n": -12.5,
            "big": 12345678901234567890u64,
            "list": [true, null, {"b": 1, "a": [2]}],
            "": {}
        });
        let user = UserId::from_verified_subject("user-42").unwrap();
        let hex = |binding: Binding| crate::server::lower_hex(binding.as_bytes());
        let bound = Binding::of(
            &Call {
                method: "tools/call",
                name: "book_a_table_for_twelve_guests",
                arguments: arguments.as_object(),
            },
            Some(&user),
        );
        assert_eq!(
            hex(bound),
            "140eb3142c4aa5252da57a7f8941d2a919c4fe8fe4ec9f978d799953061a1192"
        );
        let anonymous = Binding::of(
            &Call {
                method: "resources/read",
                name: "file:///x",
                arguments: None,
            },
            None,
        );
        assert_eq!(
            hex(anonymous),
            "58ab4c8ed86d22a4ea65a9ce6d865d2af15016d5234cacb57a59c7002a2d717c"
        );
    }

    #[test]
    fn the_user_and_the_name_cannot_run_into_each_other() {
        let user = |name: &str| UserId::from_verified_subject(name).unwrap();
        let bound = |name: &str, who: Option<&UserId>| {
            Binding::of(
                &Call {
                    method: "tools/call",
                    name,
                    arguments: None,
                },
                who,
            )
        };
        assert_ne!(bound("ab", Some(&user("c"))), bound("a", Some(&user("bc"))));
        assert_ne!(bound("a", None), bound("a", Some(&user("a"))));
    }
}
