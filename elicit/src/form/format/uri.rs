//! `uri`: an absolute URI of RFC 3986, by `fluent-uri`, with a fast path for the common shape.

use super::bytes::{ByteSet, DIGITS, LETTERS, run_in};

pub(super) fn uri(value: &str) -> Result<(), String> {
    // As for emails: the common shape (a scheme, a registered host name, no IP literal) is settled
    // in one pass here, accepting only what `fluent-uri` accepts (a test holds it to that); any
    // other goes to `fluent-uri`, which decides. `Uri` (not `UriRef`) demands a scheme: JSON
    // Schema's `uri` is an absolute URI.
    if is_plain_uri(value.as_bytes()) {
        return Ok(());
    }
    by_fluent_uri(value)
}

/// The full parse, out of line, as for emails.
#[cold]
#[inline(never)]
fn by_fluent_uri(value: &str) -> Result<(), String> {
    fluent_uri::Uri::parse(value)
        .map(drop)
        .map_err(super::reason)
}

/// RFC 3986 `unreserved` and `sub-delims`, the bytes every part below takes.
const UNRESERVED_SUB_DELIMS: &[u8] = b"-._~!$&'()*+,;=";
/// A scheme's bytes after its first letter.
static SCHEME: ByteSet = ByteSet::of(&[LETTERS, DIGITS, b"+-."]);
/// The bytes an authority may hold, its `@` and `:` included (besides `%XX`).
static AUTHORITY: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":@"]);
/// `userinfo` bytes (besides `%XX`).
static USERINFO: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":"]);
/// `reg-name` bytes (besides `%XX`).
static REG_NAME: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS]);
/// Path bytes: `pchar` and `/` (besides `%XX`).
static PATH: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":@/"]);
/// Query and fragment bytes: `pchar`, `/` and `?` (besides `%XX`).
static QUERY: ByteSet = ByteSet::of(&[LETTERS, DIGITS, UNRESERVED_SUB_DELIMS, b":@/?"]);

/// Whether every byte is in `set` or starts a `%XX` escape.
fn all_in(part: &[u8], set: &ByteSet) -> bool {
    scan(part, 0, set) == Some(part.len())
}

/// From `i`, the index of the first byte that is neither in `set` nor in a `%XX` escape (the
/// length when there is none); `None` at a broken escape.
fn scan(bytes: &[u8], mut i: usize, set: &ByteSet) -> Option<usize> {
    loop {
        i = run_in(bytes, i, set);
        if bytes.get(i) != Some(&b'%') {
            return Some(i);
        }
        let escaped = bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if !escaped {
            return None;
        }
        i += 3;
    }
}

/// An absolute URI of RFC 3986 whose host, if any, is a registered name (no `[..]` literal):
/// `scheme ":" hier-part ["?" query] ["#" fragment]`. One pass, but for the authority's parts.
fn is_plain_uri(value: &[u8]) -> bool {
    if !value.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let colon = run_in(value, 1, &SCHEME);
    if value.get(colon) != Some(&b':') {
        return false;
    }
    let mut i = colon + 1;
    if value[i..].starts_with(b"//") {
        // The authority runs to the first byte no authority takes; the path must start there.
        // Most authorities are a host alone, whose scan as a `reg-name` ends where the
        // authority does; only one with a `:` or `@` is scanned again for its parts.
        let start = i + 2;
        let Some(host_end) = scan(value, start, &REG_NAME) else {
            return false;
        };
        i = host_end;
        if matches!(value.get(host_end), Some(b':' | b'@')) {
            let Some(end) = scan(value, host_end, &AUTHORITY) else {
                return false;
            };
            if !is_plain_authority(&value[start..end]) {
                return false;
            }
            i = end;
        }
    }
    // path-abempty after an authority, else path-absolute, path-rootless or path-empty ("//"
    // was taken above); then the query and the fragment.
    let Some(mut i) = scan(value, i, &PATH) else {
        return false;
    };
    // The fragment takes the query's bytes, so a second `#` ends the scan short of the end.
    for mark in [b'?', b'#'] {
        if value.get(i) == Some(&mark) {
            match scan(value, i + 1, &QUERY) {
                Some(next) => i = next,
                None => return false,
            }
        }
    }
    i == value.len()
}

/// `[userinfo "@"] host [":" port]`, the host a registered name. The authority's bytes are
/// those of a `reg-name` plus `:` and `@`, so a first scan as a host stops at one of those two
/// or at the end, and decides the common shapes in one pass: `host`, `host:port` and
/// `user@host...`; only a userinfo with a `:` is scanned again.
fn is_plain_authority(authority: &[u8]) -> bool {
    let Some(end) = scan(authority, 0, &REG_NAME) else {
        return false;
    };
    match authority.get(end) {
        None => true,
        // The first `@`, after bytes a userinfo takes.
        Some(b'@') => is_host_and_port(&authority[end + 1..]),
        Some(b':') if authority[end + 1..].iter().all(u8::is_ascii_digit) => true,
        Some(b':') => match authority.iter().position(|&b| b == b'@') {
            Some(at) if all_in(&authority[..at], &USERINFO) => {
                is_host_and_port(&authority[at + 1..])
            }
            _ => false,
        },
        Some(_) => false,
    }
}

/// `host [":" port]`, the host a registered name.
fn is_host_and_port(part: &[u8]) -> bool {
    let Some(end) = scan(part, 0, &REG_NAME) else {
        return false;
    };
    match part.get(end) {
        None => true,
        Some(b':') => part[end + 1..].iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &[&str] = &[
        "https://github.com/octocat",
        "https://example.com/a?b=c#d",
        "http://user:pw@example.com:8080/p/a/t/h?q=1&r=%20#frag/?",
        "http://user:pw@example.com:8080/p/a/t/h?q=1&r=x#frag/?",
        "http://user@example.com/",
        "http://example.com:8080",
        "http://a:b:c@example.com/",
        "http://a@b:80x/",
        "urn:isbn:0451450523",
        "mailto:a@example.com",
        "file:///etc/hosts",
        "a:",
        "a:/b",
        "a://",
        "a:?",
        "a:#",
        "a:?#",
        "a:#?#",
        "https://exa mple.com",
        "https://example.com/%zz",
        "https://example.com/%4",
        "https://[::1]/",
        "https://example.com:80a/",
        "https://a@b@c/",
        "1http://example.com",
        "//example.com",
        "https://example.com/#a#b",
        "https://example.com/é",
        "https://ex%41mple.com/",
        "https://example.com:/",
        "h+t-t.p://x",
        "h_p://x",
        "https:",
        "",
    ];

    #[test]
    fn the_fast_path_accepts_only_what_fluent_uri_accepts() {
        for sample in SAMPLES {
            if is_plain_uri(sample.as_bytes()) {
                assert!(
                    fluent_uri::Uri::parse(*sample).is_ok(),
                    "the fast path accepted {sample}, which fluent-uri rejects"
                );
            }
        }
        // The common shapes take the fast path.
        for plain in [
            "https://github.com/octocat",
            "urn:isbn:0451450523",
            "http://user:pw@example.com:8080/p/a/t/h?q=1&r=%20#frag/?",
            "file:///etc/hosts",
            "https://example.com?q",
            "https://example.com#top",
        ] {
            assert!(is_plain_uri(plain.as_bytes()), "{plain}");
        }
        assert!(
            !is_plain_uri(b"https://[::1]/"),
            "IP literals go to fluent-uri"
        );
        assert!(!is_plain_uri(b"https://example.com/%zz"));
    }

    #[test]
    fn uris() {
        assert!(uri("https://example.com/a?b#c").is_ok());
        assert!(uri("urn:isbn:0451450523").is_ok());
        assert!(uri("/relative/path").is_err());
        assert!(uri("http://exa mple.com").is_err());
    }

    proptest::proptest! {
        #[test]
        fn fast_path_is_a_subset_of_fluent_uri(
            value in "[a-z+.1-]{0,4}:(//([a-z:%@]{0,4}@)?[a-z0-9.%~-]{0,6}(:[0-9a-z]{0,3})?)?[/a-z%2F:@!$'()*+,;=.]{0,8}(\\?[a-z/?%=&#]{0,6})?(#[a-z/?#%]{0,4})?",
        ) {
            if is_plain_uri(value.as_bytes()) {
                proptest::prop_assert!(fluent_uri::Uri::parse(value.as_str()).is_ok(), "{}", value);
            }
        }

    }
}
