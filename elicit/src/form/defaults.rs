//! Defaults known only at run time, typed: each derived form has a defaults type
//! ([`Elicit::Defaults`](crate::Elicit::Defaults)) with one [`FormDefault`] per field, so a
//! default for a field the form does not have, or of another type than the field's, is a compile
//! error. Filled in by a closure, it becomes the wire map (wire name to JSON value) that
//! [`RequestedSchema::with_defaults`](crate::schema::RequestedSchema::with_defaults) checks
//! against the form's rules and shows.

use std::collections::{BTreeSet, HashSet};
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::form::field::{ElicitField, ElicitValue};

/// The run-time defaults of a form: the type [`Elicit::Defaults`](crate::Elicit::Defaults) of
/// every derived form.
///
/// `#[derive(Elicit)]` implements it on a type of its own (it adds no name to your module;
/// reach it as `<Stay as Elicit>::Defaults`), with one public field per asked field, named as
/// the Rust field: a [`FormDefault`] of the field's type, set with a value of the field's
/// values (the `T` of an `Option<T>` field). A field left unset sends no default.
///
/// ```
/// use elicit_mcp::{Elicit, FormDefaults};
///
/// #[derive(Elicit)]
/// #[elicit(rename_all = "camelCase")]
/// struct Stay {
///     #[elicit(format = "date")]
///     check_in: String,
///     #[elicit(minimum = 1, maximum = 30)]
///     nights: u8,
///     note: Option<String>,
/// }
///
/// let mut defaults = <Stay as Elicit>::Defaults::default();
/// defaults.check_in.set("2026-12-24");
/// defaults.nights.set(3);
/// assert_eq!(
///     serde_json::Value::Object(defaults.to_wire()),
///     serde_json::json!({"checkIn": "2026-12-24", "nights": 3})
/// );
/// ```
pub trait FormDefaults: Default {
    /// The defaults set, by wire name: each field's value as the client sends it (a date as its
    /// `YYYY-MM-DD` text, a choice as its wire value, a multi-select as an array of them, a newtype
    /// as its field's value). Fields left unset are not in the map. Not checked against the form's
    /// rules: [`RequestedSchema::with_defaults`](crate::schema::RequestedSchema::with_defaults)
    /// does that, and says what it refuses.
    fn to_wire(&self) -> Map<String, Value>;
}

/// The run-time default of one form field of type `F`: unset, or set to a value of the
/// field's values (the `T` of an `Option<T>` field), kept as the client sends it.
///
/// The fields of a form's [`Elicit::Defaults`](crate::Elicit::Defaults) have this type;
/// [`set`](Self::set) takes a value of the field's values, or what [`DefaultFrom`] allows besides
/// (a `&str` for a `String`, an array of variants for a multi-select).
///
/// ```
/// use elicit_mcp::FormDefault;
///
/// let mut nights = FormDefault::<Option<u8>>::new();
/// assert_eq!(nights.to_wire(), None);
/// nights.set(3);
/// assert_eq!(nights.to_wire(), Some(serde_json::json!(3)));
/// nights.clear();
/// assert!(!nights.is_set());
/// ```
pub struct FormDefault<F> {
    /// The value set, as the client sends it: converted when set, so that the field type
    /// needs its mapping only where a value is given (a form whose field type has none is
    /// reported once, at that type).
    wire: Option<Value>,
    field: PhantomData<fn() -> F>,
}

impl<F> FormDefault<F> {
    /// Unset: the field is shown without a run-time default.
    pub const fn new() -> Self {
        FormDefault {
            wire: None,
            field: PhantomData,
        }
    }

    /// Unsets it again.
    pub fn clear(&mut self) {
        self.wire = None;
    }

    /// Whether a value is set.
    pub fn is_set(&self) -> bool {
        self.wire.is_some()
    }

    /// The value set, as the client sends it (what [`FormDefaults::to_wire`] puts under the
    /// field's wire name), or `None`.
    pub fn to_wire(&self) -> Option<Value> {
        self.wire.clone()
    }
}

impl<F: ElicitField> FormDefault<F> {
    /// Shows the field with `value` as its default: a value of the field's values (a `u8` for
    /// a `u8` or `Option<u8>` field), or what [`DefaultFrom`] allows besides (a `&str` for a
    /// `String`, an array of variants for a multi-select).
    pub fn set<T>(&mut self, value: T)
    where
        F::Value: DefaultFrom<T>,
    {
        self.wire = Some(F::Value::default_from(value).to_json());
    }
}

impl<F> Default for FormDefault<F> {
    fn default() -> Self {
        FormDefault::new()
    }
}

impl<F> Clone for FormDefault<F> {
    fn clone(&self) -> Self {
        FormDefault {
            wire: self.wire.clone(),
            field: PhantomData,
        }
    }
}

impl<F> PartialEq for FormDefault<F> {
    fn eq(&self, other: &Self) -> bool {
        self.wire == other.wire
    }
}

impl<F> fmt::Debug for FormDefault<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.wire {
            Some(value) => write!(f, "FormDefault({value})"),
            None => f.write_str("FormDefault(unset)"),
        }
    }
}

/// What [`FormDefault::set`] takes for a field whose values are `Self`: `V: DefaultFrom<T>`
/// when a `T` can be given as the default of a `V`. A value of the field's own type always can;
/// so can the shorter spellings of one, a `&str` for a `String` and an array of variants for a
/// multi-select (`Vec`, `BTreeSet` or `HashSet`).
///
/// ```
/// use std::collections::BTreeSet;
/// use elicit_mcp::{Elicit, FormDefault};
///
/// #[derive(Elicit, Debug, PartialEq, Eq, PartialOrd, Ord)]
/// enum Extra { Breakfast, Parking }
///
/// let mut note = FormDefault::<String>::new();
/// note.set("Late arrival");
/// let mut extras = FormDefault::<BTreeSet<Extra>>::new();
/// extras.set([Extra::Parking, Extra::Breakfast]);
/// assert_eq!(extras.to_wire(), Some(serde_json::json!(["Breakfast", "Parking"])));
/// ```
///
/// Anything else is a type mismatch on the value, "expected" the field's type:
///
/// ```compile_fail,E0308
/// let mut nights = elicit_mcp::FormDefault::<u8>::new();
/// nights.set("3");
/// // error[E0308]: mismatched types: expected `u8`, found `&str`
/// ```
#[diagnostic::on_unimplemented(
    message = "a default of this field is a `{Self}`, and `{T}` is not one",
    label = "expected a `{Self}` here",
    note = "a run-time default is a value of the field's own type (the `T` of an `Option<T>` field); a `String` field also takes a `&str`, and a multi-select an array of its enum's variants"
)]
pub trait DefaultFrom<T> {
    /// The default `value` gives.
    fn default_from(value: T) -> Self;
}

impl<V> DefaultFrom<V> for V {
    fn default_from(value: V) -> V {
        value
    }
}

#[diagnostic::do_not_recommend]
impl DefaultFrom<&str> for String {
    fn default_from(value: &str) -> String {
        value.to_owned()
    }
}

#[diagnostic::do_not_recommend]
impl DefaultFrom<&String> for String {
    fn default_from(value: &String) -> String {
        value.clone()
    }
}

#[diagnostic::do_not_recommend]
impl<E, const N: usize> DefaultFrom<[E; N]> for Vec<E> {
    fn default_from(value: [E; N]) -> Vec<E> {
        value.into()
    }
}

#[diagnostic::do_not_recommend]
impl<E: Ord, const N: usize> DefaultFrom<[E; N]> for BTreeSet<E> {
    fn default_from(value: [E; N]) -> BTreeSet<E> {
        value.into()
    }
}

#[diagnostic::do_not_recommend]
impl<E: Hash + Eq, S: BuildHasher + Default, const N: usize> DefaultFrom<[E; N]> for HashSet<E, S> {
    fn default_from(value: [E; N]) -> HashSet<E, S> {
        value.into_iter().collect()
    }
}

/// Puts a field's default, when set, in the wire map under the field's wire name: what each
/// derived [`FormDefaults::to_wire`] does for each field.
pub fn put<F>(map: &mut Map<String, Value>, wire_name: &'static str, default: &FormDefault<F>) {
    if let Some(value) = &default.wire {
        map.insert(wire_name.to_owned(), value.clone());
    }
}
