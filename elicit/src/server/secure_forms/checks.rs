//! The forms' own readings of an answer, which the page runs before it takes one: a field's
//! type may refuse what its schema takes (a `url::Url` that the WHATWG URL Standard does not
//! parse, a multi-select that holds a choice twice), and the page is the server's own, so the
//! person is told beside the field rather than the tool failing after the page said "done".
//!
//! A reading is code, not data: it cannot travel with the form through Redis. Each process
//! knows the forms it asked ([`Ask::secure`](crate::rmcp::Ask::secure) teaches it) and those
//! its author named ([`SecureForms::with_form`](super::SecureForms::with_form)).

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use serde_json::{Map, Value};

use crate::schema::RequestedSchema;
use crate::{ContentError, Elicit};

/// Form `T`'s reading of content, the value it reads dropped at once.
#[derive(Clone, Copy)]
pub(crate) struct FormCheck {
    schema: fn() -> &'static RequestedSchema,
    read: fn(&Map<String, Value>) -> Result<(), ContentError>,
}

impl FormCheck {
    /// `T::from_content`, its value dropped (a secret in it is wiped as it drops).
    pub(crate) fn of<T: Elicit>() -> Self {
        FormCheck {
            schema: T::requested_schema,
            read: |content| T::from_content(content).map(drop),
        }
    }

    /// What the form refuses of `content`, every field at fault.
    pub(crate) fn check(&self, content: &Map<String, Value>) -> Result<(), ContentError> {
        (self.read)(content)
    }
}

/// The readings this process knows, by the form's Rust type name, shared by every clone of the
/// [`SecureForms`](super::SecureForms) they were given to.
#[derive(Clone, Default)]
pub(crate) struct FormChecks(Arc<RwLock<HashMap<&'static str, FormCheck>>>);

impl FormChecks {
    /// Knows form `T` from now on.
    pub(crate) fn learn<T: Elicit>(&self) {
        let name = std::any::type_name::<T>();
        let known = self.0.read().unwrap_or_else(PoisonError::into_inner);
        if known.contains_key(name) {
            return;
        }
        drop(known);
        self.0
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(name, FormCheck::of::<T>());
    }

    /// The reading of the form named `form_type` whose schema is `schema`; `None` when this
    /// process does not know it, or knows another form by that name (another build's).
    pub(crate) fn find(&self, form_type: &str, schema: &RequestedSchema) -> Option<FormCheck> {
        let known = self.0.read().unwrap_or_else(PoisonError::into_inner);
        known
            .get(form_type)
            .copied()
            .filter(|check| (check.schema)() == schema)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Elicit;

    #[derive(Elicit)]
    #[elicit(crate = "crate")]
    #[allow(dead_code)] // read only through `from_content`'s verdict
    struct Pick {
        #[elicit(min_length = 2)]
        name: String,
    }

    /// Another build's `Pick`: the same name, another schema.
    #[derive(Elicit)]
    #[elicit(crate = "crate")]
    #[allow(dead_code)]
    struct Looser {
        name: String,
    }

    #[test]
    fn a_form_is_found_by_its_name_and_schema_once_learnt() {
        let checks = FormChecks::default();
        let name = std::any::type_name::<Pick>();
        assert!(checks.find(name, Pick::requested_schema()).is_none());
        checks.clone().learn::<Pick>();
        let check = checks.find(name, Pick::requested_schema()).unwrap();
        let content = |text: &str| {
            let mut content = Map::new();
            content.insert("name".to_owned(), Value::from(text));
            content
        };
        assert!(check.check(&content("Ada")).is_ok());
        let refused = check.check(&content("A")).unwrap_err();
        assert_eq!(refused.errors()[0].field(), "name");
        // Another build's form of that name has another schema: not this one's reading.
        assert!(checks.find(name, Looser::requested_schema()).is_none());
        let looser = std::any::type_name::<Looser>();
        assert!(checks.find(looser, Looser::requested_schema()).is_none());
    }
}
