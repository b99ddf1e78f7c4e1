//! The event streams rmcp answers with, as the guard reads them: where an event ends, its id,
//! what it carries, and the ids rmcp's local session manager writes.

use http::{HeaderMap, header};
use serde::Deserialize;
use serde::de::IgnoredAny;

/// Whether an answer is an event stream.
pub(super) fn is_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}

/// Where the first whole event of `bytes` ends: after the blank line that ends it (`\n\n` or
/// `\n\r\n`). Events ended by lone `\r`s are not cut, so they pass as they are.
pub(super) fn event_end(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(newline) = bytes[at..].iter().position(|&b| b == b'\n') {
        let next = at + newline + 1;
        match &bytes[next..] {
            [b'\n', ..] => return Some(next + 1),
            [b'\r', b'\n', ..] => return Some(next + 2),
            _ => at = next,
        }
    }
    None
}

/// The lines of an event, without their line ends.
fn lines(event: &[u8]) -> impl Iterator<Item = &[u8]> {
    event
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
}

/// The value of a field line `name:value`, with the one space after the colon that SSE allows.
fn field<'a>(line: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    let value = line.strip_prefix(name)?.strip_prefix(b":")?;
    Some(value.strip_prefix(b" ").unwrap_or(value))
}

/// The id an event sets (its last `id:` field), when it has one that is text.
pub(super) fn event_id(event: &[u8]) -> Option<&str> {
    let id = lines(event).filter_map(|line| field(line, b"id")).last()?;
    std::str::from_utf8(id).ok()
}

/// Whether an event is only comments (a keep-alive): no field at all.
pub(super) fn is_comment(event: &[u8]) -> bool {
    lines(event).all(|line| line.is_empty() || line.starts_with(b":"))
}

/// Whether an event's message is a JSON-RPC response, a result or an error: on the stream of
/// one request, the answer to it, after which the stream carries nothing more.
pub(super) fn is_response(event: &[u8]) -> bool {
    // What a member holds is skipped, not built: a result may be large.
    #[derive(Deserialize)]
    struct Members {
        method: Option<IgnoredAny>,
        result: Option<IgnoredAny>,
        error: Option<IgnoredAny>,
    }
    let mut data = lines(event).filter_map(|line| field(line, b"data"));
    let Some(first) = data.next() else {
        return false;
    };
    let read = |message: &[u8]| {
        serde_json::from_slice::<Members>(message).is_ok_and(|members| {
            members.method.is_none() && (members.result.is_some() || members.error.is_some())
        })
    };
    match data.next() {
        // One line, as rmcp writes a message: read where it is.
        None => read(first),
        Some(second) => {
            let mut message = [first, second].join(&b'\n');
            for line in data {
                message.push(b'\n');
                message.extend_from_slice(line);
            }
            read(&message)
        }
    }
}

/// An event id as rmcp's local session manager writes them: `INDEX` on the session's own
/// stream, `INDEX/REQUEST` on the stream of one request, whose events are numbered from 0 in
/// the order sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LocalId {
    pub(super) index: u64,
    pub(super) request: Option<u64>,
}

impl LocalId {
    pub(super) fn parse(id: &str) -> Option<Self> {
        let number = |text: &str| {
            (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse().ok())
                .flatten()
        };
        match id.split_once('/') {
            Some((index, request)) => Some(LocalId {
                index: number(index)?,
                request: Some(number(request)?),
            }),
            None => Some(LocalId {
                index: number(id)?,
                request: None,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_ends_at_its_blank_line() {
        assert_eq!(event_end(b"id: 1\ndata: x\n\nid: 2"), Some(15));
        assert_eq!(event_end(b"id: 1\r\ndata: x\r\n\r\n"), Some(18));
        assert_eq!(event_end(b"id: 1\ndata: x\n"), None);
    }

    #[test]
    fn the_last_id_field_is_the_event_s_id() {
        assert_eq!(event_id(b"id: 1/2\nid:3/2\ndata: x\n\n"), Some("3/2"));
        assert_eq!(event_id(b"data: x\n\n"), None);
        // `identity:` is no `id` field.
        assert_eq!(event_id(b"identity: 1\n\n"), None);
    }

    #[test]
    fn a_keep_alive_is_comments_only() {
        assert!(is_comment(b":\n\n"));
        assert!(is_comment(b": ping\r\n\r\n"));
        assert!(!is_comment(b"data:\nid: 0/0\nretry: 3000\n\n"));
    }

    #[test]
    fn a_response_is_a_result_or_an_error_without_a_method() {
        assert!(is_response(
            b"data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\nid: 3/0\n\n"
        ));
        assert!(is_response(
            b"data: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":1,\"message\":\"\"}}\n\n"
        ));
        // A message split over two data lines is read whole.
        assert!(is_response(b"data: {\"id\":2,\ndata: \"result\":[]}\n\n"));
        assert!(!is_response(
            b"data: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"elicitation/create\"}\n\n"
        ));
        assert!(!is_response(b"data:\nid: 0/0\nretry: 3000\n\n"));
        assert!(!is_response(b"data: not json\n\n"));
    }

    #[test]
    fn rmcp_s_local_ids_are_read_and_others_are_not() {
        assert_eq!(
            LocalId::parse("3/7"),
            Some(LocalId {
                index: 3,
                request: Some(7)
            })
        );
        assert_eq!(
            LocalId::parse("3"),
            Some(LocalId {
                index: 3,
                request: None
            })
        );
        for other in ["", "/7", "3/", "+3/7", "3/7/1", "a1b2-c3"] {
            assert_eq!(LocalId::parse(other), None, "{other}");
        }
    }
}
