//! Where a browser goes once signed in: the page it asked for, carried to the sign-in in the
//! query parameter [`RETURN_TO`], and followed only when it is a path on this server. The
//! page's `Referrer-Policy: no-referrer` hides the page from the sign-in otherwise.

use percent_encoding::percent_decode_str;

/// The query parameter (and the sign-in form's field) that carries the page a browser asked
/// for to the sign-in: its path and query, percent-encoded. The sign-in sends the browser back
/// there once signed in, if [`safe_return_path`] takes it.
pub const RETURN_TO: &str = "return_to";

/// The longest return path followed, in bytes.
const MAX_RETURN_PATH: usize = 2048;

/// `requested` if it is a path on this server (same origin) to send a browser back to, else
/// `None`: the sign-in then sends the browser to a default of its own, never elsewhere.
///
/// Taken: a path that starts with a single `/`, made only of visible ASCII (a request's path
/// and query as the browser sent them), without `\`, at most 2048 bytes. Refused: anything
/// else, among them a URL with a scheme, `//host` (another host, to a browser), `/\host` (a
/// browser reads `\` as `/`), a tab or newline (a browser drops them, which can make `//`),
/// a path that decodes to `//` or `/\` at its start, and an empty value.
///
/// ```
/// use elicit_mcp::page::safe_return_path;
///
/// assert_eq!(safe_return_path("/secure/abc?x=1"), Some("/secure/abc?x=1"));
/// assert_eq!(safe_return_path("//evil.example"), None);
/// assert_eq!(safe_return_path("https://evil.example/"), None);
/// ```
pub fn safe_return_path(requested: &str) -> Option<&str> {
    let safe = requested.len() <= MAX_RETURN_PATH
        && requested.bytes().all(|byte| byte.is_ascii_graphic() && byte != b'\\')
        && starts_with_one_slash(requested.as_bytes())
        // `%2F` and `%5C` are no separators to a browser, but a proxy or framework on the way
        // may decode them: the decoded path must start as safely.
        && starts_with_one_slash(&percent_decode_str(requested).collect::<Vec<u8>>());
    safe.then_some(requested)
}

/// Whether `path` starts with `/` and its next byte is neither `/` nor `\`.
fn starts_with_one_slash(path: &[u8]) -> bool {
    matches!(path, [b'/', rest @ ..] if !matches!(rest.first(), Some(b'/' | b'\\')))
}

/// The sign-in's address `login_url` with the return path `path` added to its query.
pub(super) fn with_return_path(login_url: &str, path: &str) -> String {
    let (address, fragment) = match login_url.split_once('#') {
        Some((address, fragment)) => (address, Some(fragment)),
        None => (login_url, None),
    };
    let joiner = match address.split_once('?') {
        None => "?",
        Some((_, "")) => "",
        Some((_, query)) if query.ends_with('&') => "",
        Some(_) => "&",
    };
    let pair = url::form_urlencoded::Serializer::new(String::new())
        .append_pair(RETURN_TO, path)
        .finish();
    let mut location = format!("{address}{joiner}{pair}");
    if let Some(fragment) = fragment {
        location.push('#');
        location.push_str(fragment);
    }
    location
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_on_this_server_is_followed() {
        for path in [
            "/",
            "/secure/3f9a",
            "/secure/3f9a?step=2&x=%2F",
            "/a/https://evil.example",
            "/secure/%7Eme",
        ] {
            assert_eq!(safe_return_path(path), Some(path), "{path}");
        }
    }

    #[test]
    fn anything_that_could_leave_this_server_is_refused() {
        let hostile = [
            "",
            "//evil.example",
            "//evil.example/secure/x",
            "/\\evil.example",
            "\\\\evil.example",
            "https://evil.example",
            "https://evil.example/secure/x",
            "javascript:alert(1)",
            "evil.example",
            "%2F%2Fevil",
            "/%2F/evil.example",
            "/%2fevil.example",
            "/%5Cevil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\n/evil.example",
            "/secure/x\nSet-Cookie: a=b",
            "/ /evil.example",
            "/secure/\u{7f}",
            "/\u{ff0f}evil.example",
            "/secure/caf\u{e9}",
        ];
        for path in hostile {
            assert_eq!(safe_return_path(path), None, "{path:?}");
        }
        assert_eq!(safe_return_path(&format!("/{}", "a".repeat(2048))), None);
        let longest = format!("/{}", "a".repeat(2047));
        assert_eq!(safe_return_path(&longest), Some(longest.as_str()));
    }

    #[test]
    fn the_return_path_joins_the_login_urls_query() {
        let path = "/secure/3f9a?a=1&b=2";
        let encoded = "return_to=%2Fsecure%2F3f9a%3Fa%3D1%26b%3D2";
        assert_eq!(
            with_return_path("/login", path),
            format!("/login?{encoded}")
        );
        assert_eq!(
            with_return_path("https://id.example/login?client=mcp", path),
            format!("https://id.example/login?client=mcp&{encoded}")
        );
        assert_eq!(
            with_return_path("/login?", path),
            format!("/login?{encoded}")
        );
        assert_eq!(
            with_return_path("/login#top", path),
            format!("/login?{encoded}#top")
        );
    }
}
