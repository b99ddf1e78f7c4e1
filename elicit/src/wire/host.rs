//! What both sides need to know about a URL's host: whether it is loopback, whether it is an
//! internationalized name, its Unicode form, and its registrable domain from the embedded
//! Public Suffix List. Nothing here resolves or fetches anything.

use url::Host;

/// Whether the host is a loopback address, or `localhost` (which RFC 6761 reserves for it).
pub(crate) fn is_loopback(host: &Host<&str>) -> bool {
    match host {
        Host::Ipv4(ip) => ip.is_loopback(),
        Host::Ipv6(ip) => ip.is_loopback(),
        Host::Domain(name) => name.trim_end_matches('.') == "localhost",
    }
}

/// Whether any label of an ASCII (already IDNA-encoded) host name is Punycode.
pub(crate) fn has_punycode(ascii: &str) -> bool {
    ascii.split('.').any(|label| label.starts_with("xn--"))
}

/// The Unicode form of an ASCII host name, and whether every label decoded cleanly.
pub(crate) fn to_unicode(ascii: &str) -> (String, bool) {
    if !has_punycode(ascii) {
        return (ascii.to_owned(), true);
    }
    let (unicode, result) = idna::domain_to_unicode(ascii);
    (unicode, result.is_ok())
}

/// How many trailing labels of the ASCII host name form its registrable domain (the public
/// suffix plus one label), or `None` if the name is itself a public suffix or a single label.
pub(crate) fn registrable_label_count(ascii: &str) -> Option<usize> {
    let domain = psl::domain(ascii.as_bytes())?;
    let labels = domain
        .as_bytes()
        .split(|&b| b == b'.')
        .filter(|label| !label.is_empty())
        .count();
    Some(labels)
}

/// Splits a host name into the labels before its registrable domain and the registrable
/// domain itself, given how many trailing labels the latter has.
pub(crate) fn split_registrable(name: &str, registrable_labels: usize) -> (Option<&str>, &str) {
    let trimmed = name.trim_end_matches('.');
    let dots: Vec<usize> = trimmed.match_indices('.').map(|(i, _)| i).collect();
    if registrable_labels == 0 || registrable_labels > dots.len() {
        return (None, trimmed);
    }
    let cut = dots[dots.len() - registrable_labels];
    (Some(&trimmed[..cut]), &trimmed[cut + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrable_domains() {
        assert_eq!(registrable_label_count("www.example.com"), Some(2));
        assert_eq!(registrable_label_count("a.b.example.co.uk"), Some(3));
        assert_eq!(registrable_label_count("co.uk"), None);
        assert_eq!(registrable_label_count("localhost"), None);
        assert_eq!(
            split_registrable("github.com.evil.example", 2),
            (Some("github.com"), "evil.example")
        );
        assert_eq!(split_registrable("example.com", 2), (None, "example.com"));
        assert_eq!(split_registrable("example.com.", 2), (None, "example.com"));
    }

    #[test]
    fn unicode_forms() {
        assert_eq!(
            to_unicode("xn--pple-43d.com"),
            ("\u{430}pple.com".to_owned(), true)
        );
        assert_eq!(to_unicode("example.com"), ("example.com".to_owned(), true));
        assert!(has_punycode("www.xn--bcher-kva.example"));
        assert!(!has_punycode("www.example.com"));
    }
}
