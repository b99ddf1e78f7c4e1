//! The secure page's reading of a posted form (`application/x-www-form-urlencoded`) against a
//! derived form's schema, and the page drawn again when the answer is refused: what it accepts
//! the form reads, what it shows escapes every character HTML would read, and never a secret.
//!
//! Input: one byte choosing the form (`elicit_fuzz::on_form`), then the posted body.

#![no_main]

use std::borrow::Cow;

use elicit_fuzz::{OnForm, ToContent, on_form, selector};
use elicit_mcp::__fuzz::{posted_form, posted_pairs};
use elicit_mcp::Elicit;
use libfuzzer_sys::fuzz_target;

/// A value with this in it would open an element if the page did not escape it; the page's
/// own markup never has it.
const TAG: &str = "<zq";

fuzz_target!(|data: &[u8]| {
    let (form, rest) = selector(data);
    // The page reads its body as text: anything else is refused before the form is read.
    let Ok(body) = std::str::from_utf8(rest) else {
        return;
    };
    on_form(form, Posted(body));
});

struct Posted<'a>(&'a str);

impl OnForm for Posted<'_> {
    type Out = ();

    fn on<T: Elicit>(self, _: Option<ToContent<T>>) {
        let schema = T::requested_schema();
        let secret_fields: Vec<Cow<'static, str>> = T::SECRET_FIELDS
            .iter()
            .map(|field| Cow::Borrowed(*field))
            .collect();
        let decoded = serde_urlencoded::from_str::<Vec<(String, String)>>(self.0);
        let Some(posted) = posted_form(schema, &secret_fields, self.0) else {
            assert!(decoded.is_err(), "a body that decodes was refused");
            return;
        };
        let pairs = decoded.expect("a body read by the page decodes");
        match &posted.content {
            Ok(content) => {
                assert!(posted.page.is_none());
                // What the page accepts, the tool that asked for it reads.
                if let Err(errors) = T::from_content(content) {
                    panic!("the page accepted what the form refuses ({errors}): {content:?}");
                }
            }
            Err(refused) => {
                assert!(!refused.is_empty());
                let page = posted
                    .page
                    .as_deref()
                    .expect("a refused answer is shown again");
                if pairs
                    .iter()
                    .any(|(name, value)| name.contains(TAG) || value.contains(TAG))
                {
                    assert!(!page.contains(TAG), "the page shows a value unescaped");
                }
                // A secret is never shown again: the page drawn without the secrets' values
                // differs from it only in what the values' rules say, never the values.
                let without: Vec<(String, String)> = pairs
                    .iter()
                    .map(|(name, value)| {
                        let secret = T::SECRET_FIELDS.contains(&name.as_str());
                        (
                            name.clone(),
                            if secret { String::new() } else { value.clone() },
                        )
                    })
                    .collect();
                let other = posted_pairs(schema, &secret_fields, &without)
                    .page
                    .unwrap_or_default();
                for (name, value) in &pairs {
                    if T::SECRET_FIELDS.contains(&name.as_str()) && value.chars().count() >= 6 {
                        let shown = |page: &str| {
                            page.contains(value.as_str()) || page.contains(&escaped(value))
                        };
                        assert!(
                            !shown(page) || shown(&other),
                            "the page shows the secret `{name}`"
                        );
                    }
                }
            }
        }
    }
}

/// `text` as the page escapes it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
