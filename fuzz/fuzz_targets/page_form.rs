//! The secure page's reading of a posted form (`application/x-www-form-urlencoded`) against a
//! derived form's schema, and the page drawn again when the answer is refused: what it accepts
//! the form reads, what it shows escapes every character HTML would read, and never a secret.
//!
//! Input: one byte choosing the form (`elicit_fuzz::on_form`), then the posted body.

#![no_main]

use elicit_fuzz::{OnForm, ToContent, on_form, selector};
use elicit_mcp::__fuzz::{posted_form, posted_pairs};
use elicit_mcp::Elicit;
use libfuzzer_sys::fuzz_target;

/// A value with this in it would open an element if the page did not escape it; the page's
/// own markup never has it.
const TAG: &str = "<zq";

fuzz_target!(|data: &[u8]| {
    let (form, body) = selector(data);
    on_form(form, Posted(body));
});

struct Posted<'a>(&'a [u8]);

impl OnForm for Posted<'_> {
    type Out = ();

    fn on<T: Elicit>(self, _: Option<ToContent<T>>) {
        // serde_urlencoded, the reference: the page refuses exactly the bodies it reads only
        // by replacing bytes that are not UTF-8, and reads every other as it does.
        let decoded = serde_urlencoded::from_bytes::<Vec<(String, String)>>(self.0)
            .expect("serde_urlencoded reads any body, replacing what is not UTF-8");
        let replaced = decoded
            .iter()
            .any(|(name, value)| name.contains('\u{FFFD}') || value.contains('\u{FFFD}'));
        let Some(posted) = posted_form::<T>(self.0) else {
            assert!(replaced, "a body whose fields are UTF-8 was refused");
            return;
        };
        let pairs = decoded;
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
                let other = posted_pairs::<T>(&without).page.unwrap_or_default();
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
