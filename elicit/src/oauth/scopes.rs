//! The scopes a token was granted, as JWT access tokens (RFC 9068, `scope`) and introspection
//! answers (RFC 7662) write them, or as some issuers do (`scp`, a list or a string).

use serde::Deserialize;

/// The granted scopes of a token's claims or an introspection answer.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Scopes {
    /// Space-separated, as RFC 9068 and RFC 7662 write it.
    #[serde(default)]
    scope: Option<String>,
    /// A list, or a space-separated string (Okta, Microsoft Entra).
    #[serde(default)]
    scp: Option<ScopeList>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ScopeList {
    Spaced(String),
    Listed(Vec<String>),
}

impl Scopes {
    /// Whether every scope of `required` was granted.
    pub fn include(&self, required: &[String]) -> bool {
        required
            .iter()
            .all(|needed| self.granted().any(|scope| scope == needed))
    }

    fn granted(&self) -> impl Iterator<Item = &str> {
        let spaced = self
            .scope
            .as_deref()
            .into_iter()
            .flat_map(str::split_ascii_whitespace);
        let listed: Box<dyn Iterator<Item = &str>> = match &self.scp {
            Some(ScopeList::Spaced(text)) => Box::new(text.split_ascii_whitespace()),
            Some(ScopeList::Listed(list)) => Box::new(list.iter().map(String::as_str)),
            None => Box::new(std::iter::empty()),
        };
        spaced.chain(listed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes(json: &str) -> Scopes {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn every_required_scope_must_be_granted_in_any_of_the_forms() {
        let required = ["a".to_owned(), "b".to_owned()];
        assert!(scopes(r#"{"scope":"b x a"}"#).include(&required));
        assert!(scopes(r#"{"scp":["a","b"]}"#).include(&required));
        assert!(scopes(r#"{"scp":"a b"}"#).include(&required));
        assert!(!scopes(r#"{"scope":"a"}"#).include(&required));
        assert!(!scopes(r#"{"scope":"ab"}"#).include(&required));
        assert!(!scopes("{}").include(&required));
        assert!(scopes("{}").include(&[]));
    }
}
