//! What a sealed state is bound to: the request it belongs to and its user, as a digest.
//!
//! The digest is computed only when a state is opened or sealed, or, for a `#[tool]` whose
//! method takes an [`Ask`](super::Ask), before the method runs: rmcp moves the arguments into
//! the method, so a state the method's asks will seal must be bound while they are still
//! there. A tool whose method does not take an `Ask` cannot ask, and pays nothing
//! ([`AskUse`]).

use std::io::{self, Write};
use std::sync::atomic::{AtomicU8, Ordering};

use ::rmcp::model as sdk;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::server::UserId;

/// What a request is, for binding its state: the method, the tool, prompt or resource, and
/// its arguments.
pub(super) struct Call<'a> {
    pub method: &'static str,
    pub name: &'a str,
    pub arguments: Option<&'a sdk::JsonObject>,
}

/// The associated data a state is sealed with: a SHA-256 digest of the request and its user.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Binding([u8; 32]);

impl Binding {
    /// The binding of `call` for `user`. Arguments are hashed with every object's keys
    /// sorted, so a client that reorders them on retry is still the same request; they are
    /// streamed into the digest from the request, neither copied nor written out whole.
    pub fn of(call: &Call<'_>, user: Option<&UserId>) -> Self {
        #[cfg(test)]
        tests::count_binding();
        let mut digest = DigestWriter(Sha256::new());
        // Lengths first, so that no method, name or user can run into the next part.
        let mut part = |text: &str| {
            let _ = write!(digest, "{}:{text};", text.len());
        };
        part(call.method);
        part(call.name);
        part(user.map(UserId::as_str).unwrap_or(""));
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

impl Write for DigestWriter {
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

/// Whether a route's method takes an [`Ask`](super::Ask), learned from its calls: the
/// method's signature does not change, so once known it holds for every later call.
#[derive(Default)]
pub(super) struct AskUse(AtomicU8);

impl AskUse {
    const UNKNOWN: u8 = 0;
    const TAKES_ASK: u8 = 1;
    const NO_ASK: u8 = 2;

    /// Whether a call without state must bind its arguments before the method runs: unless
    /// the method is known not to take an `Ask`.
    pub fn may_ask(&self) -> bool {
        self.0.load(Ordering::Relaxed) != Self::NO_ASK
    }

    /// What one call showed: the method took its `Ask`, or it ran to an `Ok` without
    /// taking it. An error says nothing: an extractor before the `Ask` may have failed.
    pub fn learn(&self, took_ask: bool, succeeded: bool) {
        if took_ask {
            self.0.store(Self::TAKES_ASK, Ordering::Relaxed);
        } else if succeeded {
            let _ = self.0.compare_exchange(
                Self::UNKNOWN,
                Self::NO_ASK,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
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

    #[test]
    fn a_route_is_known_not_to_ask_only_after_a_call_that_succeeded_without_it() {
        let route = AskUse::default();
        assert!(route.may_ask());
        route.learn(false, false);
        assert!(
            route.may_ask(),
            "an error may come from an earlier extractor"
        );
        route.learn(false, true);
        assert!(!route.may_ask());
        let asking = AskUse::default();
        asking.learn(true, false);
        asking.learn(false, true);
        assert!(asking.may_ask(), "a method that took its Ask keeps it");
    }
}
