//! `email`: RFC 5321/5322 mailbox syntax, by `email_address`, with a fast path for the common
//! shape.

use std::sync::LazyLock;

use super::bytes::{ByteSet, DIGITS, LETTERS, run_in};
use crate::form::matcher::Matcher;

pub(super) fn email(value: &str) -> Result<(), String> {
    // Most addresses are a plain dot-atom at a host name; those are settled here in one pass.
    // Anything else (quoted local parts, address literals, non-ASCII) goes to `email_address`,
    // whose full RFC 5321/5322 parse costs several times more. The fast path only accepts what
    // `email_address` accepts too (a test holds it to that), so the answer never depends on
    // which path ran.
    if is_plain_address(value) {
        return Ok(());
    }
    by_email_address(value)
}

/// Whether `value` is a plain address (see [`scan_plain_address`]).
fn is_plain_address(value: &str) -> bool {
    // Up to 64 bytes no length rule can fail (the local part is shorter than 64, the host than
    // 253, a label than 63), so the shape alone decides: one walk of a DFA, two bytes a step,
    // where the scan pays a few tens of instructions for each atom and label.
    if value.len() <= 64 {
        return SHORT_PLAIN_ADDRESS.is_match(value);
    }
    scan_plain_address(value.as_bytes())
}

/// The shape [`scan_plain_address`] accepts, as a pattern: dot-atom, `@`, labels of letters,
/// digits and inner hyphens, and a last label of letters. Its length rules are left out: they
/// cannot fail on the short addresses it is used for.
const PLAIN_ADDRESS_SHAPE: &str = r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]+$";

/// [`PLAIN_ADDRESS_SHAPE`], compiled on first use.
static SHORT_PLAIN_ADDRESS: LazyLock<Matcher> =
    LazyLock::new(|| Matcher::new(PLAIN_ADDRESS_SHAPE).expect("the address shape compiles"));

/// The full parse, out of line: kept apart, it leaves the fast path a call with little to save
/// and restore.
///
/// `email_address` parses RFC 5322's wider grammar, so what it accepts is narrowed here to the
/// `Mailbox` of RFC 5321 that JSON Schema's `email` names: no display name (`Ada
/// <ada@example.com>`), an ASCII local part (a non-ASCII one is `idn-email`, another format),
/// and a domain that is a host name or an IP address literal.
#[cold]
#[inline(never)]
fn by_email_address(value: &str) -> Result<(), String> {
    let options = email_address::Options {
        allow_display_text: false,
        ..email_address::Options::default()
    };
    let address =
        email_address::EmailAddress::parse_with_options(value, options).map_err(super::reason)?;
    if !address.local_part().is_ascii() {
        return Err("the part before the @ must be ASCII".to_owned());
    }
    let domain = address.domain();
    let is_domain = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => is_address_literal(literal),
        None => domain.len() <= 253 && is_ldh_host(domain.as_bytes()),
    };
    if is_domain {
        Ok(())
    } else {
        Err("the part after the @ must be a host name or an IP address in brackets".to_owned())
    }
}

/// RFC 5321's address literal, without its brackets: an IPv4 address, or `IPv6:` (in any case)
/// and an IPv6 address. No tag other than `IPv6` is registered for the general form.
fn is_address_literal(literal: &str) -> bool {
    match literal.get(..5) {
        Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
            literal[5..].parse::<std::net::Ipv6Addr>().is_ok()
        }
        _ => literal.parse::<std::net::Ipv4Addr>().is_ok(),
    }
}

/// Dot-separated labels of 1 to 63 letters, digits and inner hyphens (RFC 5321's `Domain`):
/// [`is_host_name`] without its rules on the number of labels and the last one.
fn is_ldh_host(domain: &[u8]) -> bool {
    domain.split(|&b| b == b'.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && label[0] != b'-'
            && label[label.len() - 1] != b'-'
            && label.iter().all(|&b| LDH.contains(b))
    })
}

/// `local@host.tld`: an ASCII dot-atom local part of at most 64 characters, and a host of at
/// least two letter-digit-hyphen labels ending in an alphabetic one, at most 253 characters.
/// One pass over the bytes, with one table lookup each: for addresses too long for the shape
/// alone to decide.
fn scan_plain_address(bytes: &[u8]) -> bool {
    let Some(at) = dot_atom_end(bytes) else {
        return false;
    };
    let domain = &bytes[at + 1..];
    at <= 64 && domain.len() <= 253 && is_host_name(domain)
}

/// RFC 5322 `atext`: a dot-atom's bytes but the dot.
const ATEXT: &[u8] = b"!#$%&'*+-/=?^_`{|}~";

/// RFC 5322 `atext`, as a set.
static ATEXT_SET: ByteSet = ByteSet::of(&[LETTERS, DIGITS, ATEXT]);
/// Letters, digits and hyphens: a host name label's bytes.
static LDH: ByteSet = ByteSet::of(&[LETTERS, DIGITS, b"-"]);

/// Where a dot-atom (non-empty atoms of RFC 5322 `atext` joined by single dots) ends at an
/// `@`; `None` when the bytes before the first `@` are not one, or there is no `@`.
fn dot_atom_end(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        let atom = i;
        i = run_in(bytes, i, &ATEXT_SET);
        if i == atom {
            return None;
        }
        match bytes.get(i) {
            Some(b'.') => i += 1,
            Some(b'@') => return Some(i),
            _ => return None,
        }
    }
}

/// Dot-separated labels of 1 to 63 letters, digits and inner hyphens; at least two; the last
/// alphabetic.
fn is_host_name(domain: &[u8]) -> bool {
    let (mut i, mut labels) = (0, 0);
    loop {
        let start = i;
        i = run_in(domain, i, &LDH);
        let label = &domain[start..i];
        let well_formed = !label.is_empty()
            && label.len() <= 63
            && label[0] != b'-'
            && label[label.len() - 1] != b'-';
        if !well_formed {
            return false;
        }
        labels += 1;
        match domain.get(i) {
            Some(b'.') => i += 1,
            Some(_) => return false,
            None => return labels >= 2 && label.iter().all(u8::is_ascii_alphabetic),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &[&str] = &[
        "octocat@github.com",
        "a.b.c@d-e.example.org",
        "x+tag@sub.example.co",
        "o'neil@example.ie",
        "a..b@example.com",
        ".a@example.com",
        "a.@example.com",
        "a@-example.com",
        "a@example-.com",
        "a@example.-com",
        "a@ex-.ample.com",
        "a@example..com",
        "a@example.com.",
        "a@example.com-",
        "a@example",
        "a@example.123",
        "a@example.c0m",
        "a@exa_mple.com",
        "\"quoted\"@example.com",
        "a@[127.0.0.1]",
        "josé@example.com",
        "a@b@example.com",
        "@example.com",
        "a@",
        "a@.example.com",
        "a.b@c",
        "-@a.bc",
        "a-@a-b.c-d.ef",
    ];

    #[test]
    fn the_fast_path_accepts_only_what_email_address_accepts() {
        for sample in SAMPLES {
            if is_plain_address(sample) {
                assert!(
                    sample.parse::<email_address::EmailAddress>().is_ok(),
                    "the fast path accepted {sample}, which email_address rejects"
                );
            }
        }
        // The common shapes take the fast path.
        for plain in [
            "octocat@github.com",
            "a.b.c@d-e.example.org",
            "x+tag@sub.example.co",
        ] {
            assert!(is_plain_address(plain), "{plain}");
        }
        assert!(!is_plain_address("a..b@example.com"));
        // Not plain, so left to email_address, which decides it either way.
        assert!(!is_plain_address("\"quoted\"@example.com"));
        let long = format!("{}@{}.example.com", "a".repeat(64), "b".repeat(63));
        assert!(is_plain_address(&long), "long addresses are scanned");
        let too_long = format!("{}@example.com", "a".repeat(65));
        assert!(
            !is_plain_address(&too_long),
            "a local part of 65 characters"
        );
    }

    #[test]
    fn the_shape_decides_short_addresses_as_the_scan_does() {
        assert!(SHORT_PLAIN_ADDRESS.walks_in_pairs());
        for sample in SAMPLES {
            assert_eq!(
                SHORT_PLAIN_ADDRESS.is_match(sample),
                scan_plain_address(sample.as_bytes()),
                "{sample}"
            );
        }
    }

    #[test]
    fn emails() {
        assert!(email("octocat@github.com").is_ok());
        assert!(email("octocat").is_err());
        assert!(email("a@b@c").is_err());
    }

    #[test]
    fn only_rfc_5321_mailboxes_are_emails() {
        // What `email_address` accepts beyond a mailbox, found by the differential test against
        // `jsonschema` (tests/form/agreement.rs): each refused.
        for not_a_mailbox in [
            "Ada <ada@example.com>",
            "josé@example.com",
            "a@exa_mple.com",
            "a@[_.]",
            "a@[8]",
            "a@[]",
            "a@[IPv6:zz]",
            "a@[127.0.0.256]",
            "a@é.com",
        ] {
            assert!(email(not_a_mailbox).is_err(), "{not_a_mailbox}");
        }
        for mailbox in [
            "\"quoted local\"@example.com",
            "a@[127.0.0.1]",
            "a@[IPv6:::1]",
            "a@[ipv6:2001:db8::1]",
            "a@localhost",
            "a@example.123",
            "a@xn--e9a.com",
            "a-b@c-d.e-f",
        ] {
            assert!(email(mailbox).is_ok(), "{mailbox}: {:?}", email(mailbox));
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_path_is_a_subset_of_email_address(
            value in "[a-z0-9.+_'-]{0,8}@?[a-z0-9.-]{0,10}(\\.[a-z0-9]{0,4})?",
        ) {
            if is_plain_address(&value) {
                proptest::prop_assert!(value.parse::<email_address::EmailAddress>().is_ok(), "{}", value);
            }
        }

        #[test]
        fn the_shape_and_the_scan_agree(
            value in "[a-zA-Z0-9.+_'!~-]{0,8}@?[a-zA-Z0-9.-]{0,10}(\\.[a-zA-Z0-9-]{0,4})?",
        ) {
            proptest::prop_assert_eq!(
                SHORT_PLAIN_ADDRESS.is_match(&value),
                scan_plain_address(value.as_bytes()),
                "{}",
                value
            );
        }

    }
}
