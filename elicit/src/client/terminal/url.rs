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
    let Some(range) = review.registrable_range() else {
        return url.to_owned();
    };
    format!(
        "{}{}{}",
        &url[..range.start],
        style::domain(&url[range.clone()]),
        &url[range.end..]
    )
}
