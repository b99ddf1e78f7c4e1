//! [`Secret`]: the type of a secret field (a password, an API key, a token, a payment
//! credential), which the spec forbids asking for in form mode.

use std::fmt;

use secrecy::{ExposeSecret, SecretBox};
use serde_json::Value;
use zeroize::Zeroize;

use super::scalar::checked_str;
use super::{ElicitValue, Kind, StringRules};
use crate::form::error::Problem;
use crate::form::matcher::Matcher;
use crate::form::validate;
use crate::schema::PrimitiveSchema;

/// A secret: a password, an API key, an access token, a payment credential. The type of a
/// form field that holds one, and what makes the form a secret form.
///
/// The spec forbids asking for secrets in form mode, where the client sees (and may keep or log)
/// every answer. `#[derive(Elicit)]` refuses a plain field whose name looks like a secret
/// (`password`, `apiKey`, `card_number` ...); a field of this type is accepted, whatever its
/// name, and marks its form: the form lists it in
/// [`SECRET_FIELDS`](crate::Elicit::SECRET_FIELDS) and is not a
/// [`ClientForm`](crate::ClientForm), so asking it through the client (`ask.form::<T>()`,
/// `T::form_request()`) does not compile. Such a form is asked on the server's own page, through
/// URL mode: `ask.secure::<T>()`.
///
/// `Secret<String>` (and `Option<Secret<String>>`) is a string field: `{"type": "string"}` in
/// the schema, nothing marks it there, and `min_length`, `max_length`, `pattern` and `format`
/// apply to it as to a `String`. A `default` on it is a compile error (a default is shown in
/// the schema), and a run-time default is never written out: [`FormDefault::set`] on one
/// leaves `null`, which
/// [`RequestedSchema::with_defaults`](crate::schema::RequestedSchema::with_defaults) refuses.
///
/// What the type does with the value, built on the `secrecy` and `zeroize` crates:
/// - it is wiped from memory when the secret is dropped (`zeroize`, which the compiler may not
///   optimize away); parsed with [`from_content_owned`](crate::Elicit::from_content_owned), the
///   answer's text is moved into the secret, not copied, and a value the form's checks refuse
///   is wiped too;
/// - `Debug` prints `Secret([REDACTED])` and `Display` prints `[redacted]`, so a form that
///   derives `Debug`, a log line or a panic message never shows it;
/// - it has no `Serialize` impl (nor `Clone`, `PartialEq` or `Deref`): it does not leave the
///   program by accident;
/// - the value is read only through an explicit call, the inherent
///   [`expose_secret`](Secret::expose_secret), easy to find in a review.
///
/// ```
/// use elicit_mcp::{Elicit, Secret};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(message = "Connect your calendar", rename_all = "camelCase")]
/// struct CalendarKey {
///     #[elicit(min_length = 20)]
///     api_key: Secret<String>,
///     calendar: String,
/// }
///
/// // A plain string property: nothing in the schema says secret.
/// assert!(CalendarKey::requested_schema_json().contains(
///     r#""apiKey":{"type":"string","title":"Api key","minLength":20}"#
/// ));
/// assert_eq!(CalendarKey::SECRET_FIELDS, ["apiKey"]);
///
/// let content = serde_json::json!({"apiKey": "sk-live-0123456789abcdef", "calendar": "Work"});
/// let form = CalendarKey::from_content(content.as_object().unwrap()).unwrap();
/// assert_eq!(form.api_key.expose_secret(), "sk-live-0123456789abcdef");
/// assert_eq!(
///     format!("{form:?}"),
///     r#"CalendarKey { api_key: Secret([REDACTED]), calendar: "Work" }"#
/// );
/// assert_eq!(form.api_key.to_string(), "[redacted]");
/// ```
///
/// A form with a secret field is not asked through the client:
///
/// ```compile_fail,E0277
/// # use elicit_mcp::{Elicit, Secret};
/// #[derive(Elicit)]
/// #[elicit(message = "Connect your calendar")]
/// struct CalendarKey {
///     api_key: Secret<String>,
/// }
///
/// let _ = CalendarKey::form_request();
/// // error[E0277]: `CalendarKey` has a secret field, which the spec forbids asking for in
/// //               form mode
/// ```
///
/// and a secret does not serialize:
///
/// ```compile_fail,E0277
/// #[derive(serde::Serialize)]
/// struct Saved {
///     api_key: elicit_mcp::Secret<String>,
/// }
/// // error[E0277]: the trait bound `Secret<String>: Serialize` is not satisfied
/// ```
///
/// [`FormDefault::set`]: crate::FormDefault::set
pub struct Secret<T: Zeroize>(SecretBox<T>);

impl<T: Zeroize> Secret<T> {
    /// A secret holding `value`, which it wipes when dropped.
    ///
    /// ```
    /// let key = elicit_mcp::Secret::new(String::from("sk-live-0123"));
    /// assert_eq!(format!("{key:?}"), "Secret([REDACTED])");
    /// ```
    pub fn new(value: T) -> Self {
        Secret(SecretBox::new(Box::new(value)))
    }

    /// The value. The only way to read it: an explicit call, so that every place a secret is
    /// read is one a review finds by its name. Keep what it gives short-lived, and do not
    /// copy it into a `String` that outlives the call (that copy is not wiped).
    ///
    /// ```
    /// let key = elicit_mcp::Secret::new(String::from("sk-live-0123"));
    /// assert!(key.expose_secret().starts_with("sk-live-"));
    /// ```
    pub fn expose_secret(&self) -> &T {
        self.0.expose_secret()
    }
}

impl<T: Zeroize> From<T> for Secret<T> {
    fn from(value: T) -> Self {
        Secret::new(value)
    }
}

/// `Secret([REDACTED])`, never the value.
impl<T: Zeroize> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([REDACTED])")
    }
}

/// `[redacted]`, never the value.
impl<T: Zeroize> fmt::Display for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[diagnostic::do_not_recommend]
impl ElicitValue for Secret<String> {
    const KIND: Kind = Kind::String(StringRules::NONE);
    const SECRET: bool = true;
    // The derive refuses a `default` on a secret field before this is ever named; text, as a
    // `String`'s, so no other error speaks beside that one.
    type DefaultLiteral = &'static str;
    fn from_default(literal: &'static str) -> Result<Self, Problem> {
        Ok(Secret::new(literal.to_owned()))
    }
    fn from_json(
        value: &Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        // The text stays in the caller's content, which the caller owns; the copy is the
        // secret's, wiped with it. Checked as a `String` is.
        checked_str(value, schema, pattern).map(|text| Secret::new(text.to_owned()))
    }
    fn from_json_owned(
        value: Value,
        schema: &PrimitiveSchema,
        pattern: Option<&Matcher>,
    ) -> Result<Self, Problem> {
        match value {
            Value::String(text) => {
                // Into the secret first, so that a value the checks refuse is wiped too.
                let secret = Secret::new(text);
                if let PrimitiveSchema::String(s) = schema {
                    validate::check_string(s, secret.expose_secret(), pattern)?;
                }
                Ok(secret)
            }
            // Not a string: the same wrong-type problem as the borrowed read.
            other => Self::from_json(&other, schema, pattern),
        }
    }
    /// A secret is never written back out, not even as a form's default: `null`, which no
    /// string field takes as one.
    fn to_json(&self) -> Value {
        Value::Null
    }
}

crate::__impl_field_for_value!(Secret<String>);

#[cfg(test)]
mod tests {
    use super::Secret;
    use crate::ElicitValue;
    use crate::schema::{PrimitiveSchema, StringSchema};

    #[test]
    fn redacted_in_debug_and_display() {
        let secret = Secret::new(String::from("hunter2"));
        assert_eq!(format!("{secret:?}"), "Secret([REDACTED])");
        assert_eq!(format!("{secret:#?}"), "Secret([REDACTED])");
        assert_eq!(secret.to_string(), "[redacted]");
        assert_eq!(secret.expose_secret(), "hunter2");
    }

    #[test]
    fn never_written_out() {
        let secret = Secret::from(String::from("hunter2"));
        assert_eq!(secret.to_json(), serde_json::Value::Null);
    }

    #[test]
    fn not_a_string_is_the_wrong_type() {
        let schema = PrimitiveSchema::String(StringSchema::default());
        let owned = <Secret<String>>::from_json_owned(serde_json::json!(4), &schema, None);
        let borrowed = <Secret<String>>::from_json(&serde_json::json!(4), &schema, None);
        assert_eq!(owned.unwrap_err(), borrowed.unwrap_err());
    }
}
