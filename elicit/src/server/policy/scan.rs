//! The data checks of a URL: credential parameters, JSON Web Tokens, email addresses and the
//! user's identifiers, in every part of the URL and in every decoded nested value.

use url::{Host, Url};

use super::{UnsafeUrlError, UrlPolicy};

/// Parameter names that mean "this URL is a credential": compared after lowercasing and
/// dropping `-`, `_` and `.`, so `access_token`, `Access-Token` and `accessToken` all match.
const CREDENTIAL_NAMES: &[&str] = &[
    "assertion",
    "auth",
    "authorization",
    "code",
    "jwt",
    "key",
    "otp",
    "pass",
    "pwd",
    "sid",
    "sig",
    "ticket",
];

/// Name fragments that mean the same wherever they appear in a name (`id_token`,
/// `client_secret`, `X-Amz-Signature`, `X-Goog-Credential`, `sessionid`, ...).
const CREDENTIAL_FRAGMENTS: &[&str] = &[
    "apikey",
    "credential",
    "passcode",
    "passwd",
    "password",
    "secret",
    "sessid",
    "session",
    "signature",
    "token",
];

pub(super) fn normalize_name(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

pub(super) fn is_credential_name(normalized: &str) -> bool {
    CREDENTIAL_NAMES.contains(&normalized)
        || CREDENTIAL_FRAGMENTS
            .iter()
            .any(|fragment| normalized.contains(fragment))
}

/// One run of the data checks over a URL: credential parameters, JSON Web Tokens, email
/// addresses and the user's identifiers, in every part and in every decoded nested value.
pub(super) struct Scan<'a> {
    pub(super) policy: &'a UrlPolicy,
    pub(super) user_data: &'a [&'a str],
}

impl Scan<'_> {
    pub(super) fn url(&self, url: &Url) -> Result<(), UnsafeUrlError> {
        if let Some(Host::Domain(host)) = url.host() {
            self.user_data_in("host", host)?;
        }
        for (index, segment) in url.path_segments().into_iter().flatten().enumerate() {
            self.path_segment(&format!("path segment {}", index + 1), segment, 0)?;
        }
        if let Some(query) = url.query() {
            self.parameters("query", query, 0)?;
        }
        if let Some(fragment) = url.fragment() {
            self.parameters("fragment", fragment, 0)?;
            // A fragment is often a client-side route (`#/cb/t-<jwt>`), not parameters.
            self.value("fragment", &percent_decode(fragment), 0)?;
        }
        // Identifiers split across parts (`/users/alice/123` for `alice/123`).
        self.user_data_in("URL", &percent_decode(url.as_str()))
    }

    /// A raw path segment: its text, then its `;name=value` parameters.
    fn path_segment(&self, location: &str, raw: &str, depth: usize) -> Result<(), UnsafeUrlError> {
        let mut pieces = raw.split(';');
        let text = pieces.next().unwrap_or_default();
        self.value(location, &percent_decode(text), depth)?;
        for parameter in pieces {
            let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
            let name = percent_decode(name);
            self.parameter_name("path", &name)?;
            self.value(
                &format!("path parameter `{name}`"),
                &percent_decode(value),
                depth,
            )?;
        }
        Ok(())
    }

    /// Raw `name=value` pairs separated by `&` or `;`, form-decoded.
    fn parameters(&self, part: &str, raw: &str, depth: usize) -> Result<(), UnsafeUrlError> {
        for pair in raw.split(['&', ';']).filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = form_decode(name);
            self.parameter_name(part, &name)?;
            self.value(
                &format!("{part} parameter `{name}`"),
                &form_decode(value),
                depth,
            )?;
        }
        Ok(())
    }

    fn parameter_name(&self, part: &str, name: &str) -> Result<(), UnsafeUrlError> {
        if self.policy.is_credential_parameter(name) {
            return Err(UnsafeUrlError::CredentialParameter {
                part: part.to_owned(),
                name: name.to_owned(),
            });
        }
        self.data(&format!("name of a {part} parameter"), name)
    }

    /// A decoded value: its data, then what is nested in it, decoded once more.
    fn value(&self, location: &str, decoded: &str, depth: usize) -> Result<(), UnsafeUrlError> {
        self.data(location, decoded)?;
        if depth >= UrlPolicy::MAX_NESTING {
            return Ok(());
        }
        let depth = depth + 1;
        let inner = format!("value of {location}");
        let (before_fragment, fragment) = match decoded.split_once('#') {
            Some((before, fragment)) => (before, Some(fragment)),
            None => (decoded, None),
        };
        match before_fragment.split_once('?') {
            Some((path, query)) => {
                self.nested_path(&inner, path, depth)?;
                self.parameters(&inner, query, depth)?;
            }
            // Form-encoded pairs without a URL around them (`a=1&access_token=x`).
            None if before_fragment.contains('=') && !before_fragment.contains('/') => {
                self.parameters(&inner, before_fragment, depth)?;
            }
            None => self.nested_path(&inner, before_fragment, depth)?,
        }
        if let Some(fragment) = fragment {
            self.parameters(&inner, fragment, depth)?;
        }
        // Encoded more than once: look at the next decoding as well.
        let again = percent_decode(decoded);
        if again != decoded {
            self.value(location, &again, depth)?;
        }
        Ok(())
    }

    /// The path parameters of a nested path (`/cb;jsessionid=x/next`).
    fn nested_path(&self, location: &str, path: &str, depth: usize) -> Result<(), UnsafeUrlError> {
        for segment in path.split('/') {
            for parameter in segment.split(';').skip(1) {
                let (name, value) = parameter.split_once('=').unwrap_or((parameter, ""));
                self.parameter_name(location, name)?;
                self.value(
                    &format!("{location}, path parameter `{name}`"),
                    value,
                    depth,
                )?;
            }
        }
        Ok(())
    }

    /// The checks on one decoded text.
    fn data(&self, location: &str, text: &str) -> Result<(), UnsafeUrlError> {
        if contains_jwt(text) {
            return Err(UnsafeUrlError::BearerToken {
                part: location.to_owned(),
            });
        }
        if contains_email(text) {
            return Err(UnsafeUrlError::UserData {
                part: location.to_owned(),
                what: "an email address",
            });
        }
        self.user_data_in(location, text)
    }

    fn user_data_in(&self, location: &str, text: &str) -> Result<(), UnsafeUrlError> {
        if self.user_data.iter().any(|datum| mentions(text, datum)) {
            return Err(UnsafeUrlError::UserData {
                part: location.to_owned(),
                what: "a user identifier",
            });
        }
        Ok(())
    }
}

fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// Decoding as for `application/x-www-form-urlencoded`: `+` is a space.
fn form_decode(text: &str) -> String {
    percent_decode(&text.replace('+', " "))
}

/// Equal ignoring case, or, for a datum long enough not to match by chance, contained.
fn mentions(text: &str, datum: &str) -> bool {
    let datum = datum.trim();
    if datum.is_empty() {
        return false;
    }
    let text = text.to_lowercase();
    let datum = datum.to_lowercase();
    text == datum || (datum.chars().count() >= 6 && text.contains(&datum))
}

/// Whether a JSON Web Token starts anywhere in `text`: after a prefix (`t-`, `Bearer `), in
/// the middle of a longer value, followed by more text.
fn contains_jwt(text: &str) -> bool {
    text.match_indices("eyJ").any(|(start, _)| {
        let run = &text[start..];
        let end = run
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .unwrap_or(run.len());
        let run = &run[..end];
        // The token may be followed by more dotted text (`<jwt>.json`): try the JWS (3 parts)
        // and JWE (5 parts) prefixes of the run.
        [3, 5].into_iter().any(|parts| {
            let mut ends = run.match_indices('.').map(|(at, _)| at).chain([run.len()]);
            ends.nth(parts - 1).is_some_and(|at| is_jwt(&run[..at]))
        })
    })
}

/// Three base64url segments, the first an encoded JSON object (`eyJ` is `{"`).
fn is_jwt(text: &str) -> bool {
    let segments: Vec<&str> = text.split('.').collect();
    let base64url = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    // The shortest header a JWT can have, `{"alg":"none"}`, is 19 characters encoded; 16
    // keeps words such as `keyJar.example.com` from matching.
    (segments.len() == 3 || segments.len() == 5)
        && segments[0].starts_with("eyJ")
        && segments[0].len() >= 16
        && segments[..2].iter().all(|s| s.len() >= 4 && base64url(s))
        && segments.iter().all(|s| base64url(s))
}

fn contains_email(text: &str) -> bool {
    text.contains('@')
        && text
            .split(|c: char| {
                c.is_whitespace()
                    || matches!(c, ',' | ';' | '<' | '>' | '/' | '?' | '&' | '=' | '#')
            })
            .any(email_address::EmailAddress::is_valid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_names() {
        for name in [
            "access_token",
            "id_token",
            "Access-Token",
            "accessToken",
            "client_secret",
            "X-Amz-Signature",
            "X-Goog-Credential",
            "code",
            "api_key",
            "apiKey",
            "password",
            "PHPSESSID",
            "sig",
        ] {
            assert!(is_credential_name(&normalize_name(name)), "{name}");
        }
        for name in [
            "elicitationId",
            "state",
            "redirect_uri",
            "lang",
            "keyboard",
            "codec",
        ] {
            assert!(!is_credential_name(&normalize_name(name)), "{name}");
        }
    }

    #[test]
    fn jwts() {
        assert!(is_jwt(
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        ));
        assert!(!is_jwt("550e8400-e29b-41d4-a716-446655440000"));
        assert!(!is_jwt("eyJ.a.b"));
        assert!(!is_jwt("www.example.com"));
    }

    #[test]
    fn jwts_inside_text() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";
        for text in [
            format!("t-{jwt}"),
            format!("Bearer {jwt}"),
            format!("{jwt}.json"),
            format!("x={jwt}&y=1"),
        ] {
            assert!(contains_jwt(&text), "{text}");
        }
        assert!(!contains_jwt("eyJx/connect.v1.json"));
        assert!(!contains_jwt("keyJar.example.com"));
    }

    #[test]
    fn emails() {
        assert!(contains_email("octocat@github.com"));
        assert!(contains_email("to=octocat@github.com"));
        assert!(!contains_email("@octocat"));
        assert!(!contains_email("no at sign"));
    }
}
