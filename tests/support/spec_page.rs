//! The JSON examples of the spec's elicitation page, as text and as values.
//!
//! The page is a copy in `tests/data/spec/` (see the README there for its source and sha256),
//! read at compile time.

use std::collections::HashMap;

use serde_json::Value;

/// The elicitation page of MCP revision 2025-11-25.
const SPEC_PAGE: &str = include_str!("../data/spec/elicitation-2025-11-25.md");

/// One JSON block of the spec page: its text (comments and trailing commas removed) and value.
///
/// Round trips start from the text: a `Value`'s object keys are sorted, which would reorder a
/// form's properties before the type under test ever saw them.
#[derive(Clone, Debug)]
pub struct Example {
    /// The prose between the previous block and this one (headings included): what the spec
    /// calls this example.
    pub caption: String,
    pub text: String,
    pub value: Value,
}

impl Example {
    /// The member `key` of the example, read as `T` straight from the text.
    pub fn read_member<T: serde::de::DeserializeOwned>(&self, key: &str) -> T {
        let mut member = Member { key, found: None };
        let mut de = serde_json::Deserializer::from_str(&self.text);
        serde::Deserializer::deserialize_map(&mut de, &mut member)
            .unwrap_or_else(|e| panic!("`{key}` of the example does not read: {e}\n{}", self.text));
        member
            .found
            .unwrap_or_else(|| panic!("the example has no `{key}`: {}", self.text))
    }

    /// The JSON text of the member at `path` (`["params", "requestedSchema"]`), exactly as the
    /// spec writes it: tests of the sender's property order start from text, since a parsed
    /// `Value` need not keep it.
    pub fn member_text(&self, path: &[&str]) -> String {
        let mut text: &serde_json::value::RawValue = serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("the example does not read: {e}\n{}", self.text));
        for key in path {
            let members: HashMap<&str, &serde_json::value::RawValue> =
                serde_json::from_str(text.get())
                    .unwrap_or_else(|e| panic!("`{key}` is not inside an object: {e}"));
            text = members
                .get(key)
                .unwrap_or_else(|| panic!("the example has no `{key}`: {}", self.text));
        }
        text.get().to_owned()
    }

    /// The whole example read as `T` from the text.
    pub fn read<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("the spec's example does not read: {e}\n{}", self.text))
    }
}

/// Reads one member of an object as `T`, passing over the others.
struct Member<'k, T> {
    key: &'k str,
    found: Option<T>,
}

impl<'de, T: serde::de::DeserializeOwned> serde::de::Visitor<'de> for &mut Member<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == self.key {
                self.found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The JSON and JSONC blocks of the spec page, in order, with comments and trailing commas
/// removed so that they parse.
pub fn examples() -> Vec<Example> {
    let mut blocks = Vec::new();
    let mut rest = SPEC_PAGE;
    while let Some(start) = rest.find("```json") {
        let caption = rest[..start].trim().to_owned();
        let after_fence = &rest[start..];
        let body_start = after_fence.find('\n').expect("a fence line ends") + 1;
        let body = &after_fence[body_start..];
        let end = body.find("```").expect("a fenced block is closed");
        let text = strip_jsonc(&body[..end]);
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("a JSON block of the spec does not parse ({e}):\n{text}"));
        blocks.push(Example {
            caption,
            text,
            value,
        });
        rest = &body[end + 3..];
    }
    blocks
}

/// The first JSON block of the spec page whose caption (the prose just before it) contains
/// `caption`: `spec_example("Example: Simple Text Request")` is that example's request.
pub fn spec_example(caption: &str) -> Example {
    examples()
        .into_iter()
        .find(|e| e.caption.contains(caption))
        .unwrap_or_else(|| panic!("the spec page has no JSON block after `{caption}`"))
}

/// The spec's examples that are whole JSON-RPC messages (they have `jsonrpc`).
pub fn messages() -> Vec<Example> {
    examples()
        .into_iter()
        .filter(|e| e.value.get("jsonrpc").is_some())
        .collect()
}

/// Removes `//` comments and trailing commas outside strings: the spec writes some examples
/// as JSONC.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for skipped in chars.by_ref() {
                    if skipped == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    remove_trailing_commas(&out)
}

fn remove_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
            out.push(c);
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = text[i + 1..].trim_start().chars().next();
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}
