//! Links in the texts of a form-mode request. The spec says servers SHOULD NOT put URLs meant
//! to be clicked in any field of a form-mode request, and clients SHOULD NOT render them
//! clickable: a link belongs in a URL-mode request, where the client reviews it first.

use crate::schema::{PrimitiveSchema, TitledOption};
use crate::wire::ElicitRequestFormParams;

/// A link found in a text of a form-mode request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkInForm {
    /// Where: `message`, `title`, `description`, or `property \`name\` title` and so on.
    pub location: String,
    /// The link as written.
    pub link: String,
}

/// Every link (`scheme://...` or `www....`) in the message, the schema's titles and
/// descriptions, the options' titles and the string defaults of a form-mode request.
///
/// A server runs it before sending, to catch a link that should have been a URL-mode
/// elicitation; a client runs it to know which text not to render clickable.
///
/// ```
/// use elicit_mcp::wire::ElicitRequestFormParams;
/// use elicit_mcp::server::links_in_form;
/// let params: ElicitRequestFormParams = serde_json::from_str(r#"{
///     "message": "Log in at https://evil.example/login first",
///     "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
/// }"#).unwrap();
/// let links = links_in_form(&params);
/// assert_eq!(links[0].location, "message");
/// assert_eq!(links[0].link, "https://evil.example/login");
/// ```
pub fn links_in_form(params: &ElicitRequestFormParams) -> Vec<LinkInForm> {
    let mut texts: Vec<(String, &str)> = vec![("message".to_owned(), &params.message)];
    let schema = &params.requested_schema;
    if let Some(title) = &schema.title {
        texts.push(("title".to_owned(), title));
    }
    if let Some(description) = &schema.description {
        texts.push(("description".to_owned(), description));
    }
    for property in schema.properties() {
        let at = |what: &str| format!("property `{}` {what}", property.name);
        if let Some(title) = property.schema.title() {
            texts.push((at("title"), title));
        }
        if let Some(description) = property.schema.description() {
            texts.push((at("description"), description));
        }
        for option in titled_options(&property.schema) {
            texts.push((at("option title"), &option.title));
        }
        if let Some(default) = string_default(&property.schema) {
            texts.push((at("default"), default));
        }
    }
    texts
        .into_iter()
        .flat_map(|(location, text)| {
            links(text).map(move |link| LinkInForm {
                location: location.clone(),
                link: link.to_owned(),
            })
        })
        .collect()
}

fn titled_options(schema: &PrimitiveSchema) -> &[TitledOption] {
    match schema {
        PrimitiveSchema::TitledSingleSelect(s) => &s.options,
        PrimitiveSchema::TitledMultiSelect(s) => &s.options,
        _ => &[],
    }
}

fn string_default(schema: &PrimitiveSchema) -> Option<&str> {
    match schema {
        PrimitiveSchema::String(s) => s.default.as_deref(),
        _ => None,
    }
}

/// The words of `text` that a renderer would turn into links. As GitHub-flavoured Markdown's
/// autolinks do, a link may follow Markdown emphasis (`*`, `_`, `~`), and trailing
/// punctuation and emphasis are not part of it.
fn links(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '(' | ')'))
        .map(|word| {
            word.trim_start_matches(['*', '_', '~'])
                .trim_end_matches(['.', ',', ';', ':', '!', '?', '\'', '*', '_', '~'])
        })
        .filter(|word| is_link(word))
}

fn is_link(word: &str) -> bool {
    if word.len() > 4
        && word
            .get(..4)
            .is_some_and(|w| w.eq_ignore_ascii_case("www."))
    {
        return true;
    }
    match word.find("://") {
        Some(at) if at > 0 => {
            let scheme = &word[..at];
            let host = &word[at + 3..];
            scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && !host.is_empty()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links() {
        let found: Vec<&str> =
            links("See https://a.example/x, or www.b.example. Not: a://, ://x, email@c.example")
                .collect();
        assert_eq!(found, ["https://a.example/x", "www.b.example"]);
        let found: Vec<&str> =
            links("*https://a.example/x*, __www.b.example__. ~https://c.example/~").collect();
        assert_eq!(
            found,
            ["https://a.example/x", "www.b.example", "https://c.example/"]
        );
    }
}
