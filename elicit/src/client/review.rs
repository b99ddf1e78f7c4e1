//! What a client shows its user about a URL before asking for consent to open it.

use std::fmt;
use std::net::IpAddr;

use unicode_security::MixedScript;
use url::{Host, Url};

use crate::wire::ElicitRequestUrlParams;
use crate::wire::host;

/// What a client must show before the user consents to open an elicitation URL: the full URL,
/// the host with its registrable domain picked out (so `github.com.evil.example` reads as a
/// site of `evil.example`), and warnings for what makes a URL deceptive.
///
/// Building a review only parses the URL (with the WHATWG parser browsers use, so the host
/// shown is the host the browser will visit). Nothing is resolved or fetched: the spec forbids
/// a client to pre-fetch the URL or its metadata.
///
/// ```
/// use elicit_mcp::client::{UrlReview, UrlWarning};
/// let review = UrlReview::new("https://github.com.evil.example/login").unwrap();
/// assert_eq!(review.registrable_domain(), Some("evil.example"));
/// assert_eq!(review.subdomain(), Some("github.com"));
///
/// let lookalike = UrlReview::new("https://xn--pple-43d.com/").unwrap();
/// assert_eq!(lookalike.host_unicode(), "\u{430}pple.com"); // Cyrillic a
/// assert!(lookalike.warnings().contains(&UrlWarning::LooksLike { host: "apple.com".into() }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlReview {
    as_received: String,
    url: Url,
    host_unicode: String,
    registrable_labels: Option<usize>,
    warnings: Vec<UrlWarning>,
}

/// Something about a URL its user should be warned of before consenting.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlWarning {
    /// Plain http: what the user types on the page travels unencrypted.
    NotHttps,
    /// The host is an IP address, which says nothing about whose site it is.
    IpAddressHost {
        /// The address.
        ip: IpAddr,
    },
    /// The host is an internationalized name, written in Punycode (`xn--`) on the wire.
    Punycode {
        /// The host as it travels.
        ascii: String,
        /// The host as it reads (the same as `ascii` when it does not decode).
        unicode: String,
    },
    /// A label of the host mixes letters of several scripts, as look-alike domains do.
    MixedScripts {
        /// The label, in Unicode.
        label: String,
    },
    /// The host is made to look like this ASCII host (UTS #39 confusables).
    LooksLike {
        /// The host it imitates.
        host: String,
    },
    /// Text before `@` in the authority: `https://github.com@evil.example/` goes to
    /// `evil.example`.
    Userinfo {
        /// The text before `@`.
        userinfo: String,
    },
    /// The host has no registrable domain: it is a public suffix itself or a single label.
    NoRegistrableDomain,
    /// The URL as received holds whitespace, control, invisible or bidirectional-control
    /// characters, which the parser drops or which reorder what is displayed.
    HiddenCharacters,
}

impl fmt::Display for UrlWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlWarning::NotHttps => {
                f.write_str("the connection is not encrypted (http, not https)")
            }
            UrlWarning::IpAddressHost { ip } => {
                write!(f, "the site is a bare IP address ({ip}), not a domain name")
            }
            UrlWarning::Punycode { ascii, unicode } => write!(
                f,
                "the domain is internationalized: it reads \"{unicode}\" but is \"{ascii}\""
            ),
            UrlWarning::MixedScripts { label } => {
                write!(f, "\"{label}\" mixes letters from different alphabets")
            }
            UrlWarning::LooksLike { host } => {
                write!(
                    f,
                    "the domain imitates \"{host}\" but is a different domain"
                )
            }
            UrlWarning::Userinfo { userinfo } => write!(
                f,
                "\"{userinfo}@\" before the domain is not where the link goes"
            ),
            UrlWarning::NoRegistrableDomain => {
                f.write_str("the host is not a registrable domain name")
            }
            UrlWarning::HiddenCharacters => {
                f.write_str("the link contains invisible or control characters")
            }
        }
    }
}

/// Why a URL cannot be reviewed for opening at all.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlReviewError {
    /// It does not parse as an absolute URL.
    NotAbsolute {
        /// The parser's reason.
        reason: String,
    },
    /// It is not a web URL (`http` or `https`): `javascript:`, `file:`, `data:` and the like are
    /// never opened from an elicitation.
    UnsupportedScheme {
        /// The scheme found.
        scheme: String,
    },
    /// It has no host.
    NoHost,
}

impl fmt::Display for UrlReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlReviewError::NotAbsolute { reason } => write!(f, "not an absolute URL: {reason}"),
            UrlReviewError::UnsupportedScheme { scheme } => {
                write!(
                    f,
                    "`{scheme}:` is not a web URL; only http and https can be opened"
                )
            }
            UrlReviewError::NoHost => f.write_str("the URL has no host"),
        }
    }
}

impl std::error::Error for UrlReviewError {}

impl UrlReview {
    /// Reviews a URL.
    pub fn new(url: &str) -> Result<Self, UrlReviewError> {
        let parsed = Url::parse(url).map_err(|e| UrlReviewError::NotAbsolute {
            reason: e.to_string(),
        })?;
        let mut warnings = Vec::new();
        match parsed.scheme() {
            "https" => {}
            "http" => warnings.push(UrlWarning::NotHttps),
            scheme => {
                return Err(UrlReviewError::UnsupportedScheme {
                    scheme: scheme.to_owned(),
                });
            }
        }
        if has_hidden_characters(url) {
            warnings.push(UrlWarning::HiddenCharacters);
        }
        if let Some(userinfo) = userinfo(&parsed) {
            warnings.push(UrlWarning::Userinfo { userinfo });
        }
        let (host_unicode, registrable_labels) =
            match parsed.host().ok_or(UrlReviewError::NoHost)? {
                Host::Ipv4(ip) => ip_host(IpAddr::V4(ip), &mut warnings),
                Host::Ipv6(ip) => ip_host(IpAddr::V6(ip), &mut warnings),
                Host::Domain(name) => domain_host(name, &mut warnings),
            };
        Ok(UrlReview {
            as_received: url.to_owned(),
            url: parsed,
            host_unicode,
            registrable_labels,
            warnings,
        })
    }

    /// Reviews the URL of a URL-mode request.
    pub fn of(params: &ElicitRequestUrlParams) -> Result<Self, UrlReviewError> {
        UrlReview::new(params.url())
    }

    /// The full URL as the browser will open it (normalized: Punycode host, percent-encoded).
    /// This is what to show, and what to open after consent.
    pub fn url(&self) -> &str {
        self.url.as_str()
    }

    /// The URL exactly as the server sent it.
    pub fn as_received(&self) -> &str {
        &self.as_received
    }

    /// `https` or `http`.
    pub fn scheme(&self) -> &str {
        self.url.scheme()
    }

    /// The host as the browser will contact it: ASCII, Punycode for internationalized names,
    /// brackets around IPv6 addresses.
    pub fn host(&self) -> &str {
        self.url.host_str().unwrap_or_default()
    }

    /// The host as the user reads it: internationalized names in Unicode.
    pub fn host_unicode(&self) -> &str {
        &self.host_unicode
    }

    /// The registrable domain of the host, in Unicode: the part to highlight, since whoever
    /// owns it controls every name under it. `None` for IP addresses and names that are public
    /// suffixes or single labels.
    pub fn registrable_domain(&self) -> Option<&str> {
        let labels = self.registrable_labels?;
        Some(host::split_registrable(&self.host_unicode, labels).1)
    }

    /// The labels before the registrable domain, in Unicode (`github.com` in
    /// `github.com.evil.example`), if any.
    pub fn subdomain(&self) -> Option<&str> {
        let labels = self.registrable_labels?;
        host::split_registrable(&self.host_unicode, labels).0
    }

    /// The port, when the URL names one other than the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.url.port()
    }

    /// The warnings to show.
    pub fn warnings(&self) -> &[UrlWarning] {
        &self.warnings
    }

    /// Where the registrable domain is in [`url`](Self::url), the URL as the browser opens it,
    /// for a renderer to highlight: the domain is in Unicode, the URL holds the host in ASCII,
    /// where the registrable domain is the same number of trailing labels.
    #[cfg(any(feature = "terminal", feature = "ratatui", fuzzing))]
    pub(crate) fn registrable_range(&self) -> Option<std::ops::Range<usize>> {
        let url = self.url();
        let labels = self.registrable_domain()?.split('.').count();
        let host = self.host();
        let authority_start = url.find("://")? + 3;
        let authority_end = url[authority_start..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |end| authority_start + end);
        let host_start = url[authority_start..authority_end]
            .rfind('@')
            .map_or(authority_start, |at| authority_start + at + 1);
        if !url[host_start..].starts_with(host) {
            return None;
        }
        // A final dot (`example.com.`, the root) ends no label: the domain ends before it.
        let name = host.trim_end_matches('.');
        let registrable_len = name
            .rsplit('.')
            .take(labels)
            .map(|label| label.len() + 1)
            .sum::<usize>()
            - 1;
        let name_end = host_start + name.len();
        Some(name_end - registrable_len..name_end)
    }
}

/// The review as text for a consent prompt: the full URL, the site, then each warning.
impl fmt::Display for UrlReview {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.url())?;
        match (self.registrable_domain(), self.subdomain()) {
            (Some(site), Some(sub)) => write!(f, "site: {site} (address {sub}.{site})")?,
            (Some(site), None) => write!(f, "site: {site}")?,
            (None, _) => write!(f, "site: {}", self.host_unicode)?,
        }
        for warning in &self.warnings {
            write!(f, "\nwarning: {warning}")?;
        }
        Ok(())
    }
}

fn ip_host(ip: IpAddr, warnings: &mut Vec<UrlWarning>) -> (String, Option<usize>) {
    warnings.push(UrlWarning::IpAddressHost { ip });
    (ip.to_string(), None)
}

fn domain_host(ascii: &str, warnings: &mut Vec<UrlWarning>) -> (String, Option<usize>) {
    let (unicode, _) = host::to_unicode(ascii);
    if host::has_punycode(ascii) {
        warnings.push(UrlWarning::Punycode {
            ascii: ascii.to_owned(),
            unicode: unicode.clone(),
        });
        for label in unicode.split('.') {
            if !label.is_ascii() && !label.is_single_script() {
                warnings.push(UrlWarning::MixedScripts {
                    label: label.to_owned(),
                });
            }
        }
        if let Some(imitated) = ascii_lookalike(&unicode) {
            warnings.push(UrlWarning::LooksLike { host: imitated });
        }
    }
    let registrable_labels = host::registrable_label_count(ascii);
    if registrable_labels.is_none() {
        warnings.push(UrlWarning::NoRegistrableDomain);
    }
    (unicode, registrable_labels)
}

/// The ASCII host that `unicode` imitates, when every non-ASCII character in it is confusable
/// with ASCII (UTS #39 skeletons) and the result differs. ASCII characters are left as they are,
/// so the answer reads as the host being imitated rather than as a skeleton.
fn ascii_lookalike(unicode: &str) -> Option<String> {
    if unicode.is_ascii() {
        return None;
    }
    let mut imitated = String::with_capacity(unicode.len());
    for c in unicode.chars() {
        if c.is_ascii() {
            imitated.push(c);
            continue;
        }
        let mut buffer = [0u8; 4];
        let prototype: String = unicode_security::skeleton(c.encode_utf8(&mut buffer)).collect();
        if prototype.is_empty() || !prototype.is_ascii() {
            return None;
        }
        imitated.push_str(&prototype.to_ascii_lowercase());
    }
    (imitated != unicode).then_some(imitated)
}

fn userinfo(url: &Url) -> Option<String> {
    let user = url.username();
    match url.password() {
        Some(password) => Some(format!("{user}:{password}")),
        None if !user.is_empty() => Some(user.to_owned()),
        None => None,
    }
}

fn has_hidden_characters(text: &str) -> bool {
    text.chars().any(|c| {
        c.is_whitespace()
            || c.is_control()
            || matches!(c,
                '\u{061C}'                       // Arabic letter mark
                | '\u{200B}'..='\u{200F}'        // zero-width space/joiners, LRM, RLM
                | '\u{202A}'..='\u{202E}'        // bidirectional embeddings and overrides
                | '\u{2060}'..='\u{2064}'        // word joiner, invisible operators
                | '\u{2066}'..='\u{2069}'        // bidirectional isolates
                | '\u{FEFF}'                     // zero-width no-break space
            )
    })
}

#[cfg(all(test, any(feature = "terminal", feature = "ratatui")))]
mod tests {
    use super::*;

    fn registrable(url: &str) -> Option<String> {
        let review = UrlReview::new(url).unwrap();
        review
            .registrable_range()
            .map(|range| review.url()[range].to_owned())
    }

    #[test]
    fn the_registrable_domain_is_found_in_the_url_as_opened() {
        assert_eq!(
            registrable("https://github.com.evil.example/login").as_deref(),
            Some("evil.example")
        );
        assert_eq!(
            registrable("https://user@accounts.example.co.uk:8443/a@b").as_deref(),
            Some("example.co.uk")
        );
        assert_eq!(
            registrable("https://xn--pple-43d.com/").as_deref(),
            Some("xn--pple-43d.com")
        );
        assert_eq!(registrable("http://127.0.0.1:8080/"), None);
    }

    /// Found by fuzzing (`fuzz/fuzz_targets/url.rs`): a host written with its final dot had
    /// `com.` highlighted as its registrable domain, where the review says `example.com`.
    #[test]
    fn a_final_dot_is_no_label_of_the_highlighted_domain() {
        for url in [
            "https://example.com./path",
            "https://www.example.co.uk.:8443/",
        ] {
            let review = UrlReview::new(url).unwrap();
            assert_eq!(
                registrable(url),
                review.registrable_domain().map(str::to_owned),
                "{url}"
            );
        }
    }
}
