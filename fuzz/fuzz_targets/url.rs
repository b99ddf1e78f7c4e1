//! URL mode's checks of a URL: the server's `UrlPolicy` before it sends one, the client's
//! `UrlReview` before it asks the user's consent, `validate_request` on URL-mode params, and
//! where a renderer highlights the registrable domain. A URL the policy lets through is one
//! the client opens as it was checked.
//!
//! Input: typed (`arbitrary`): the policy's environment, the parameter names it allows, the
//! user's data it looks for, then the URL (the rest of the input, as text).

#![no_main]

use arbitrary::Arbitrary;
use elicit_mcp::__fuzz::registrable_range;
use elicit_mcp::client::{UrlReview, UrlWarning, validate_request};
use elicit_mcp::server::{Environment, UrlPolicy};
use elicit_mcp::wire::ElicitationCapability;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

#[derive(Arbitrary, Debug)]
struct Input {
    development: bool,
    allowed: Vec<String>,
    user_data: Vec<String>,
    url: String,
}

fuzz_target!(|input: Input| {
    let mut policy = UrlPolicy::production();
    if input.development {
        policy = policy.with_environment(Environment::Development);
    }
    for name in &input.allowed {
        policy = policy.allow_parameter(name);
    }
    let user_data: Vec<&str> = input.user_data.iter().map(String::as_str).collect();

    let review = UrlReview::new(&input.url);
    // URL-mode params are refused exactly when their URL is not one a client can review.
    let params = json!({"mode": "url", "elicitationId": "e-1", "url": input.url, "message": "m"});
    let checked = validate_request(&params, Some(&ElicitationCapability::form_and_url()));
    assert_eq!(
        checked.is_ok(),
        review.is_ok(),
        "{checked:?} against {review:?}"
    );
    if let Ok(review) = &review {
        reviewed(review);
    }

    let Ok(checked) = policy.check_for_user(&input.url, &user_data) else {
        return;
    };
    // The URL sent is checked as it is sent: checked again, it passes again.
    let sent = checked.as_str();
    if let Err(error) = policy.check_for_user(sent, &user_data) {
        panic!(
            "{} passed the policy, but as sent, {sent} does not: {error}",
            input.url
        );
    }
    // The client reviews what the server checked: an http(s) URL without userinfo.
    let review = UrlReview::new(sent).unwrap_or_else(|e| panic!("{sent} passed the policy: {e}"));
    assert!(
        !review
            .warnings()
            .iter()
            .any(|warning| matches!(warning, UrlWarning::Userinfo { .. })),
        "{sent} passed the policy with userinfo"
    );
    if !input.development {
        assert_eq!(review.scheme(), "https", "{sent}");
    }
});

/// What a client shows of a reviewed URL holds together: the registrable domain is the end of
/// the host, and the part a renderer highlights in the URL is that domain in ASCII.
fn reviewed(review: &UrlReview) {
    let _ = review.to_string();
    let host = review.host_unicode().trim_end_matches('.');
    if let Some(domain) = review.registrable_domain() {
        assert!(host.ends_with(domain), "{domain} does not end {host}");
        match review.subdomain() {
            Some(sub) => assert_eq!(format!("{sub}.{domain}"), host),
            None => assert_eq!(domain, host),
        }
    }
    if let Some(range) = registrable_range(review) {
        let url = review.url();
        let highlighted = url
            .get(range.clone())
            .unwrap_or_else(|| panic!("{range:?} is not a part of {url}"));
        let labels = review
            .registrable_domain()
            .expect("a highlight is of a registrable domain")
            .split('.')
            .count();
        // The registrable domain in ASCII: as many labels, from the end of the host (a final
        // dot, the root, is no label).
        let host = review.host().trim_end_matches('.');
        let expected: Vec<&str> = host.rsplit('.').take(labels).collect();
        let expected: Vec<&str> = expected.into_iter().rev().collect();
        assert_eq!(
            highlighted.trim_end_matches('.'),
            expected.join("."),
            "{url} highlights {highlighted}, not its registrable domain"
        );
    }
}
