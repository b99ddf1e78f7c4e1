//! URL mode: what the link is, then the user's choice. Nothing is fetched; the browser opens
//! only on the user's word.

use inquire::Select;

use super::{Opener, Stop, TerminalError, stopped, style};
use crate::client::{ServerIdentity, UrlReview};
use crate::wire::ElicitRequestUrlParams;
use crate::wire::ElicitResult;

const OPEN: &str = "Open it in my browser";
const PRINT: &str = "Don't open it: print the link for me to open myself";
const DECLINE: &str = "Decline";
const CANCEL: &str = "Cancel";

pub(super) fn render(
    server: &ServerIdentity,
    params: &ElicitRequestUrlParams,
    opener: &Opener,
) -> Result<ElicitResult, TerminalError> {
    let review = UrlReview::of(params).map_err(TerminalError::InvalidUrl)?;
    present(server, params.message(), &review);
    consent(&review, opener).or_else(stopped)
}

/// Who asks, the message, the URL with its registrable domain highlighted, whose site it is,
/// and every warning. The server and the site are told apart: a server may send the user
/// anywhere, and the user judges both.
fn present(server: &ServerIdentity, message: &str, review: &UrlReview) {
    eprintln!(
        "{}",
        style::server(format!("Request from the server {server}"))
    );
    eprintln!("{}", style::heading(message));
    eprintln!("The server asks you to open this link:");
    eprintln!("  {}", highlighted_url(review));
    let site = match (review.registrable_domain(), review.subdomain()) {
        (Some(site), Some(subdomain)) => {
            format!("{} (address {subdomain}.{site})", style::domain(site))
        }
        (Some(site), None) => style::domain(site),
        (None, _) => review.host_unicode().to_owned(),
    };
    eprintln!("  site: {site}");
    for warning in review.warnings() {
        eprintln!("  {}", style::warning(format!("warning: {warning}")));
    }
}

fn consent(review: &UrlReview, opener: &Opener) -> Result<ElicitResult, Stop> {
    let choices = vec![OPEN, PRINT, DECLINE, CANCEL];
    let picked = Select::new("Open this link?", choices)
        .without_filtering()
        .with_starting_cursor(2)
        .with_help_message("↑↓ to move, enter to pick; nothing opens unless you pick the first")
        .prompt()?;
    match picked {
        OPEN => {
            if let Err(error) = opener(review.url()) {
                eprintln!(
                    "{}",
                    style::warning(format!("The browser could not be started: {error}"))
                );
                print_link(review);
            }
            Ok(ElicitResult::accept_url())
        }
        PRINT => {
            print_link(review);
            Ok(ElicitResult::accept_url())
        }
        DECLINE => Ok(ElicitResult::decline()),
        _ => Ok(ElicitResult::cancel()),
    }
}

fn print_link(review: &UrlReview) {
    eprintln!("Open this link yourself: {}", review.url());
}

/// The URL as the browser will open it, with the registrable domain in its host styled. The
/// review's domain is in Unicode; the URL holds the host in ASCII, where the registrable
/// domain is the same number of trailing labels.
fn highlighted_url(review: &UrlReview) -> String {
    let url = review.url();
    let Some(range) = registrable_range(review) else {
        return url.to_owned();
    };
    format!(
        "{}{}{}",
        &url[..range.start],
        style::domain(&url[range.clone()]),
        &url[range.end..]
    )
}

fn registrable_range(review: &UrlReview) -> Option<std::ops::Range<usize>> {
    let url = review.url();
    let labels = review.registrable_domain()?.split('.').count();
    let host = review.host();
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
    let registrable_len = host
        .rsplit('.')
        .take(labels)
        .map(|label| label.len() + 1)
        .sum::<usize>()
        - 1;
    let host_end = host_start + host.len();
    Some(host_end - registrable_len..host_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registrable(url: &str) -> Option<String> {
        let review = UrlReview::new(url).unwrap();
        registrable_range(&review).map(|range| review.url()[range].to_owned())
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
}
