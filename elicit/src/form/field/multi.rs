//! The multi-select field types: a `Vec`, `BTreeSet` or `HashSet` of a choice enum.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use crate::form::matcher::Matcher;
use serde_json::Value;

use super::{DerivedField, ElicitChoice, ElicitField, ElicitValue, Kind, MultiSelectField};
use crate::form::error::Problem;
use crate::form::validate;
use crate::schema::PrimitiveSchema;

/// Parses a multi-select's items into a set of the choice enum.
///
/// The success path makes no scratch allocation: one pass checks the items against the
/// counts, `from_wire` (the membership test: a derived schema's choices are the enum's) and
/// each other, and a second builds the set. On any failure the shared validator runs instead,
/// so the error is exactly the one `validate_content` reports.
fn collect<E: ElicitChoice, C: FromIterator<E>>(
    value: &Value,
    schema: &PrimitiveSchema,
) -> Result<C, Problem> {
    match value.as_array() {
        Some(items) if within_counts(schema, items.len()) && distinct_choices::<E>(items) => {
            Ok(items
                .iter()
                .filter_map(|item| item.as_str().and_then(E::from_wire))
                .collect())
        }
        _ => Err(refusal(value, schema)),
    }
}

/// [`collect`] into a `Vec`, in one pass: the vector is allocated once, for as many items as
/// came, as serde's is.
fn collect_vec<E: ElicitChoice>(
    value: &Value,
    schema: &PrimitiveSchema,
) -> Result<Vec<E>, Problem> {
    let Some(items) = value
        .as_array()
        .filter(|items| within_counts(schema, items.len()))
    else {
        return Err(refusal(value, schema));
    };
    let mut chosen = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        match item
            .as_str()
            .and_then(|text| choice_not_repeated(items, index, text))
        {
            Some(choice) => chosen.push(choice),
            None => return Err(refusal(value, schema)),
        }
    }
    Ok(chosen)
}

/// Whether every item is one of the enum's choices, none of them twice.
fn distinct_choices<E: ElicitChoice>(items: &[Value]) -> bool {
    items.iter().enumerate().all(|(index, item)| {
        item.as_str()
            .and_then(|text| choice_not_repeated::<E>(items, index, text))
            .is_some()
    })
}

/// The choice `text` names, the item at `index`, unless an earlier item named it already.
#[inline(always)]
fn choice_not_repeated<E: ElicitChoice>(items: &[Value], index: usize, text: &str) -> Option<E> {
    let repeated = items[..index]
        .iter()
        .any(|earlier| earlier.as_str() == Some(text));
    if repeated { None } else { E::from_wire(text) }
}

/// Why a selection is refused, worded as the shared validator words it.
#[cold]
fn refusal(value: &Value, schema: &PrimitiveSchema) -> Problem {
    validate::multi(schema, value)
        .err()
        .unwrap_or(Problem::WrongType {
            expected: "a selection of the enum's choices",
            found: crate::schema::kind_of(value),
        })
}

fn within_counts(schema: &PrimitiveSchema, count: usize) -> bool {
    let (min, max) = match schema {
        PrimitiveSchema::MultiSelect(s) => (s.min_items, s.max_items),
        PrimitiveSchema::TitledMultiSelect(s) => (s.min_items, s.max_items),
        _ => (None, None),
    };
    let count = count as u64;
    min.is_none_or(|min| count >= min) && max.is_none_or(|max| count <= max)
}

fn copy_all<E: ElicitChoice, C: FromIterator<E>>(literal: &'static [E]) -> Result<C, Problem> {
    Ok(literal
        .iter()
        .filter_map(|e| E::from_wire(e.to_wire()))
        .collect())
}

/// A selection as the client sends it: the wire values, in the order of the enum's choices
/// (a `HashSet` has none of its own), each as often as it is selected (a `Vec` may repeat one,
/// which the form's check then refuses).
fn wire_values<'e, E: ElicitChoice>(selected: impl Iterator<Item = &'e E>) -> Value {
    let mut values: Vec<&'static str> = selected.map(ElicitChoice::to_wire).collect();
    let position = |value: &str| E::CHOICES.values.iter().position(|choice| choice == value);
    values.sort_by_key(|value| position(value));
    Value::Array(values.into_iter().map(Value::from).collect())
}

macro_rules! multi_selects {
    ($([$($param:tt)*] [$($unbounded:tt)*] $ty:ty, $collect:ident;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($param)*> ElicitValue for $ty {
            const KIND: Kind = Kind::Multi(E::CHOICES);
            type DefaultLiteral = &'static [E];
            fn from_default(literal: &'static [E]) -> Result<Self, Problem> {
                copy_all(literal)
            }
            fn from_json(value: &Value, schema: &PrimitiveSchema, _: Option<&Matcher>) -> Result<Self, Problem> {
                $collect(value, schema)
            }
            fn to_json(&self) -> Value {
                wire_values(self.iter())
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($param)*> ElicitField for $ty {
            const KIND: Kind = <$ty as ElicitValue>::KIND;
            const OPTIONAL: bool = false;
            type Value = Self;
            type DefaultLiteral = &'static [E];
            fn from_default(literal: &'static [E]) -> Result<Self, Problem> {
                copy_all(literal)
            }
            fn from_json(value: &Value, schema: &PrimitiveSchema, _: Option<&Matcher>) -> Result<Self, Problem> {
                $collect(value, schema)
            }
            fn absent() -> Option<Self> {
                None
            }
        }

        impl<$($unbounded)*> DerivedField for $ty {}

        #[diagnostic::do_not_recommend]
        impl<$($param)*> MultiSelectField for $ty {}
        #[diagnostic::do_not_recommend]
        impl<$($param)*> MultiSelectField for Option<$ty> {}
    )*};
}

multi_selects! {
    [E: ElicitChoice] [E] Vec<E>, collect_vec;
    [E: ElicitChoice + Ord] [E] BTreeSet<E>, collect;
    [E: ElicitChoice + Hash + Eq, S: BuildHasher + Default] [E, S] HashSet<E, S>, collect;
}
