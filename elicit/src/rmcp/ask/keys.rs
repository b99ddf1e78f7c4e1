//! The input keys of one call: each ask gets a key no other ask of the call has, whatever
//! the mix of explicit keys, repeat asks and kinds, and a replayed run must ask under the same
//! keys in the same order as the run before it.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rmcp::error::ElicitError;

/// The keys taken so far in this run of the handler. Ordered maps: a call asks a handful of
/// keys, and a map of a few entries costs less without hashing and rehashing on every call.
#[derive(Default)]
pub(crate) struct Keys {
    /// Each base key (`booking`): who asks under it, and how many times it was asked.
    bases: BTreeMap<String, BaseUse>,
    /// Every key handed out (`booking`, `booking-2`), and who it went to.
    issued: BTreeMap<String, Asker>,
    /// The asks of this run, in order.
    taken: Vec<AskedUnder>,
    /// The asks of the earlier runs of this call (2026-07-28), in order: this run must
    /// repeat them.
    replayed: Vec<AskedUnder>,
    /// How many steps this run has taken.
    steps: u32,
}

struct BaseUse {
    asker: Asker,
    uses: u32,
}

impl Keys {
    /// The keys of a run that replays `replayed`, the asks of the earlier runs.
    pub fn replaying(replayed: Vec<AskedUnder>) -> Self {
        Keys {
            replayed,
            ..Keys::default()
        }
    }

    /// The key for `asker`'s next ask under `base`: `base` the first time, `base-N` the N-th.
    ///
    /// Refused, before anything is sent, when another asker already asks under `base`, when
    /// the key is one another ask of the call already has (an explicit `booking-2` beside the
    /// second ask of `booking`), when `base` was asked `most` times already, or when the
    /// handler's earlier run asked something else at this point.
    pub fn take(&mut self, base: &str, asker: Asker, most: u32) -> Result<String, ElicitError> {
        let used = self.bases.entry(base.to_owned()).or_insert(BaseUse {
            asker: asker.clone(),
            uses: 0,
        });
        if used.asker != asker {
            return Err(ElicitError::DuplicateKey {
                key: base.to_owned(),
                first: used.asker.to_string(),
                second: asker.to_string(),
            });
        }
        if used.uses >= most {
            return Err(ElicitError::TooManyAsks {
                key: base.to_owned(),
                limit: most,
                errors: None,
            });
        }
        let key = match used.uses + 1 {
            1 => base.to_owned(),
            n => format!("{base}-{n}"),
        };
        if let Some(holder) = self.issued.get(&key) {
            return Err(ElicitError::DuplicateKey {
                key,
                first: holder.to_string(),
                second: nth_ask(&asker, base, used.uses + 1),
            });
        }
        let asked = AskedUnder {
            key,
            kind: asker.kind(),
        };
        check_replay(&self.replayed, self.taken.len(), &asked)?;
        used.uses += 1;
        self.issued.insert(asked.key.clone(), asker);
        self.taken.push(asked.clone());
        Ok(asked.key)
    }

    /// The key of the handler's next [`step`](super::Ask::step): `#1`, `#2`, … in the order the
    /// steps run. Steps are not asks: no limit on their number, and no input key (a `#` does
    /// not start one an ask can be given by mistake: the key only orders the steps among the
    /// asks, for a replay to repeat).
    pub fn take_step(&mut self) -> Result<String, ElicitError> {
        self.steps += 1;
        let asked = AskedUnder {
            key: format!("#{}", self.steps),
            kind: AskKind::Step,
        };
        self.check_replay(&asked)?;
        self.taken.push(asked.clone());
        Ok(asked.key)
    }

    /// Refuses an ask where the handler's earlier run asked something else at this point.
    fn check_replay(&self, asked: &AskedUnder) -> Result<(), ElicitError> {
        check_replay(&self.replayed, self.taken.len(), asked)
    }
}

/// Refuses `asked` as the ask number `at` of a run where the earlier run asked something
/// else.
fn check_replay(replayed: &[AskedUnder], at: usize, asked: &AskedUnder) -> Result<(), ElicitError> {
    {
        match replayed.get(at) {
            Some(before) if before != asked => Err(ElicitError::AskedOutOfOrder {
                before: before.to_string(),
                now: asked.to_string(),
            }),
            _ => Ok(()),
        }
    }
}

impl Keys {
    /// Every ask of the call so far, in order, for the next round's state: this run's, or the
    /// earlier runs' where they went further.
    pub fn into_asked(self) -> Vec<AskedUnder> {
        if self.replayed.len() > self.taken.len() {
            self.replayed
        } else {
            self.taken
        }
    }
}

/// Who asks under a key in this run: a form (by its type), or any other kind of ask (a
/// URL-mode elicitation, the client's model or its roots). Not sealed: a form's type may be
/// renamed between two rounds of a call (a deploy), and its key says what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Asker {
    Form(&'static str),
    Of(AskKind),
}

impl Asker {
    pub fn form<T>() -> Self {
        Asker::Form(std::any::type_name::<T>())
    }

    pub fn kind(&self) -> AskKind {
        match self {
            Asker::Form(_) => AskKind::Form,
            Asker::Of(kind) => *kind,
        }
    }
}

impl fmt::Display for Asker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Asker::Form(name) => write!(f, "the form `{name}`"),
            Asker::Of(kind) => kind.fmt(f),
        }
    }
}

/// What kind of ask went under a key, as a 2026-07-28 state carries it (its serde form is
/// the state's: a new kind adds a variant, an old name never changes).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum AskKind {
    Form,
    Url,
    Sampling,
    Roots,
    /// Work done once before an ask, its result recorded ([`Ask::step`](super::Ask::step)).
    Step,
}

impl fmt::Display for AskKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AskKind::Form => "a form",
            AskKind::Url => "`Ask::url`",
            AskKind::Sampling => "`Ask::sample`",
            AskKind::Roots => "`Ask::roots`",
            AskKind::Step => "`Ask::step`",
        })
    }
}

/// One ask of a call: the key it went under, and what kind of ask it was.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub(crate) struct AskedUnder {
    pub key: String,
    pub kind: AskKind,
}

impl fmt::Display for AskedUnder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            // A step's key is `#N`; one read from a state is shown as it is if it is not.
            AskKind::Step => write!(
                f,
                "step {} (`Ask::step`)",
                self.key.strip_prefix('#').unwrap_or(&self.key)
            ),
            _ => write!(f, "`{}` ({})", self.key, self.kind),
        }
    }
}

fn nth_ask(asker: &Asker, base: &str, n: u32) -> String {
    format!("{asker} (its ask number {n} under `{base}`)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(name: &'static str) -> Asker {
        Asker::Form(name)
    }

    #[test]
    fn repeat_asks_get_numbered_keys() {
        let mut keys = Keys::default();
        assert_eq!(keys.take("booking", form("B"), 5).unwrap(), "booking");
        assert_eq!(keys.take("booking", form("B"), 5).unwrap(), "booking-2");
        assert_eq!(keys.take("booking", form("B"), 5).unwrap(), "booking-3");
    }

    #[test]
    fn an_explicit_key_that_a_repeat_ask_would_take_is_a_duplicate() {
        let mut keys = Keys::default();
        keys.take("booking", form("B"), 5).unwrap();
        keys.take("booking-2", form("X"), 5).unwrap();
        let error = keys.take("booking", form("B"), 5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the form `X` and the form `B` (its ask number 2 under `booking`) both ask under the \
             input key `booking-2` in one call; give one of them another key \
             (`#[elicit(key = \"..\")]`, `FormAsk::with_key`, or the key of `Ask::sample`/`Ask::roots`)"
        );

        // The other way round: the repeat first, then the explicit key.
        let mut keys = Keys::default();
        keys.take("roots", Asker::Of(AskKind::Roots), 5).unwrap();
        keys.take("roots", Asker::Of(AskKind::Roots), 5).unwrap();
        let error = keys
            .take("roots-2", Asker::Of(AskKind::Sampling), 5)
            .unwrap_err();
        assert!(
            matches!(&error, ElicitError::DuplicateKey { key, .. } if key == "roots-2"),
            "{error}"
        );
    }

    #[test]
    fn two_askers_under_one_base_are_a_duplicate() {
        let mut keys = Keys::default();
        keys.take("who", form("A"), 5).unwrap();
        let error = keys.take("who", Asker::Of(AskKind::Roots), 5).unwrap_err();
        assert!(
            matches!(&error, ElicitError::DuplicateKey { key, first, second }
                if key == "who" && first == "the form `A`" && second == "`Ask::roots`"),
            "{error}"
        );
    }

    #[test]
    fn a_replay_that_asks_in_another_order_names_both_asks() {
        let mut first = Keys::default();
        first.take("booking", form("B"), 5).unwrap();
        first.take("contact", form("C"), 5).unwrap();
        let mut replay = Keys::replaying(first.into_asked());
        let error = replay.take("contact", form("C"), 5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the handler asked for `contact` (a form) where its earlier run asked for \
             `booking` (a form): a handler must ask for the same things in the same order on \
             every run of a call, and act only after its last ask"
        );
    }

    #[test]
    fn a_replay_may_ask_with_a_renamed_form_type_under_the_same_key() {
        let mut first = Keys::default();
        first.take("guest", form("v1::Guest"), 5).unwrap();
        let mut replay = Keys::replaying(first.into_asked());
        assert_eq!(
            replay.take("guest", form("v2::Visitor"), 5).unwrap(),
            "guest"
        );
    }

    #[test]
    fn a_replay_in_the_same_order_goes_further() {
        let mut first = Keys::default();
        first.take("booking", form("B"), 5).unwrap();
        let mut replay = Keys::replaying(first.into_asked());
        replay.take("booking", form("B"), 5).unwrap();
        replay.take("booking", form("B"), 5).unwrap();
        let asked: Vec<_> = replay.into_asked().into_iter().map(|a| a.key).collect();
        assert_eq!(asked, ["booking", "booking-2"]);
    }

    #[test]
    fn a_base_is_asked_at_most_most_times() {
        let mut keys = Keys::default();
        keys.take("b", form("B"), 2).unwrap();
        keys.take("b", form("B"), 2).unwrap();
        let error = keys.take("b", form("B"), 2).unwrap_err();
        assert!(matches!(error, ElicitError::TooManyAsks { limit: 2, .. }));
    }

    /// Found by fuzzing (`fuzz/fuzz_targets/sealed_decode.rs`): a state's record of a step
    /// whose key is not `#N` (empty, or starting with a wider character) panicked when a
    /// replay that asks otherwise named it; it is named as it is.
    #[test]
    fn a_step_of_any_key_is_named_without_a_panic() {
        for (key, named) in [("", "step  (`Ask::step`)"), ("é", "step é (`Ask::step`)")] {
            let step = AskedUnder {
                key: key.to_owned(),
                kind: AskKind::Step,
            };
            assert_eq!(step.to_string(), named);
            let mut keys = Keys::replaying(vec![step]);
            let error = keys.take("booking", form("B"), 3).unwrap_err();
            assert!(error.to_string().contains(named), "{error}");
        }
        let numbered = AskedUnder {
            key: "#2".to_owned(),
            kind: AskKind::Step,
        };
        assert_eq!(numbered.to_string(), "step 2 (`Ask::step`)");
    }
}
