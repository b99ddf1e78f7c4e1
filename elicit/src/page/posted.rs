//! The page's posted answer, read where a secret passes: the body into a buffer the page owns
//! and wipes when dropped, its `application/x-www-form-urlencoded` pairs decoded straight into
//! strings that are wiped when dropped. Freeing memory does not clear it: a key typed into the
//! page would stay in the heap until something else happened to be written over it.
//!
//! The pairs are decoded here rather than by `serde_urlencoded` (axum's `Form`), which decodes
//! a value with `+` and `%XX` in it through an intermediate copy that it frees unwiped; the
//! percent-decoding itself is `percent-encoding`'s, and the result is the same pairs (a test
//! holds the two to it), except that a pair whose bytes are not UTF-8 is refused rather than
//! read with replacement characters.
//!
//! Out of reach: hyper reads the connection into a buffer of its own and hands the body on in
//! pieces of it. A piece that only this read holds is wiped; the others stay in hyper's buffer
//! until the connection's next read writes over them or the buffer is freed.

use std::ops::Deref;

use axum::body::Body;
use bytes::Bytes;
use http_body::Body as _;
use http_body_util::{BodyExt, LengthLimitError};
use percent_encoding::percent_decode;
use zeroize::{Zeroize, Zeroizing};

/// What the first reservation for a body may be at most, whatever its `Content-Length` says:
/// the page's default body limit. A larger body grows the buffer as it arrives.
const MAX_FIRST_RESERVATION: usize = 64 * 1024;

/// Why a posted body was not read.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unread {
    /// Larger than the page's body limit.
    TooLarge,
    /// The connection failed, or the body was not what it declared.
    Broken,
}

/// The whole body, read into a buffer wiped when dropped; each piece of it wiped as it is
/// copied, where this read holds the only handle on it.
pub(super) async fn read_body(mut body: Body) -> Result<Zeroizing<Vec<u8>>, Unread> {
    let first = usize::try_from(body.size_hint().lower())
        .unwrap_or(usize::MAX)
        .min(MAX_FIRST_RESERVATION);
    let mut read = Zeroizing::new(Vec::with_capacity(first));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| {
            if over_the_limit(&error) {
                Unread::TooLarge
            } else {
                Unread::Broken
            }
        })?;
        if let Ok(piece) = frame.into_data() {
            append(&mut read, &piece);
            wipe_if_only_handle(piece);
        }
    }
    Ok(read)
}

/// Appends `bytes` to `buffer` without leaving a copy behind: when `buffer` must grow, its
/// content moves to a larger buffer and the one it leaves is wiped (a `Vec` that grows by
/// itself frees its old allocation as it is).
fn append(buffer: &mut Zeroizing<Vec<u8>>, bytes: &[u8]) {
    let needed = buffer.len().saturating_add(bytes.len());
    if needed > buffer.capacity() {
        let mut larger = Zeroizing::new(Vec::with_capacity(
            needed.max(buffer.capacity().saturating_mul(2)),
        ));
        larger.extend_from_slice(buffer);
        // The buffer left behind is wiped as it drops.
        *buffer = larger;
    }
    buffer.extend_from_slice(bytes);
}

fn wipe_if_only_handle(piece: Bytes) {
    if let Ok(mut piece) = piece.try_into_mut() {
        piece.zeroize();
    }
}

fn over_the_limit(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(error) = source {
        if error.is::<LengthLimitError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// A posted form's pairs, name and value, in the order sent (a multi-select's ticks are
/// repeated names); every string is wiped when they are dropped.
pub(crate) struct FormPairs(Vec<(String, String)>);

impl Deref for FormPairs {
    type Target = [(String, String)];

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Drop for FormPairs {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl FormPairs {
    /// The first value sent for `name`.
    pub(super) fn first(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn wipe(&mut self) {
        for (name, value) in &mut self.0 {
            name.zeroize();
            value.zeroize();
        }
    }
}

/// A body that is not a form the page could have sent: a name or value whose bytes, once
/// decoded, are not UTF-8.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NotAForm;

/// The pairs of an `application/x-www-form-urlencoded` body, as the URL standard reads them:
/// pairs split at `&` (empty ones skipped), name and value at the first `=`, `+` read as a
/// space and `%XX` as its byte.
pub(crate) fn pairs(body: &[u8]) -> Result<FormPairs, NotAForm> {
    let mut pairs = FormPairs(Vec::new());
    for sequence in body.split(|&byte| byte == b'&') {
        if sequence.is_empty() {
            continue;
        }
        let (name, value) = match sequence.iter().position(|&byte| byte == b'=') {
            Some(at) => (&sequence[..at], &sequence[at + 1..]),
            None => (sequence, &[][..]),
        };
        // Wiped if the value is refused.
        let mut name = Zeroizing::new(decoded(name)?);
        let value = decoded(value)?;
        pairs.0.push((std::mem::take(&mut *name), value));
    }
    Ok(pairs)
}

/// One name or value decoded into a string of its own, with no copy on the way (a decoded
/// text is never longer than its encoding, so the buffer never grows).
fn decoded(encoded: &[u8]) -> Result<String, NotAForm> {
    let mut text = Vec::with_capacity(encoded.len());
    // `+` is never part of a `%XX`, so each stretch between two `+` decodes alone.
    for (index, stretch) in encoded.split(|&byte| byte == b'+').enumerate() {
        if index > 0 {
            text.push(b' ');
        }
        text.extend(percent_decode(stretch));
    }
    String::from_utf8(text).map_err(|not_text| {
        not_text.into_bytes().zeroize();
        NotAForm
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    fn as_owned(pairs: &FormPairs) -> Vec<(String, String)> {
        pairs.to_vec()
    }

    #[test]
    fn a_form_reads_as_the_browser_sent_it() {
        let pairs = pairs(b"key=sk%2B1+2%3D%3D&_csrf=abc&&colors=red&colors=blue&flag&=x").unwrap();
        let expected = [
            ("key", "sk+1 2=="),
            ("_csrf", "abc"),
            ("colors", "red"),
            ("colors", "blue"),
            ("flag", ""),
            ("", "x"),
        ]
        .map(|(name, value)| (name.to_owned(), value.to_owned()));
        assert_eq!(as_owned(&pairs), expected);
        assert_eq!(pairs.first("colors"), Some("red"));
        assert_eq!(pairs.first("missing"), None);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_not_replaced() {
        assert_eq!(pairs(b"key=%FF").map(|_| ()), Err(NotAForm));
        assert_eq!(pairs(b"%C3=ok").map(|_| ()), Err(NotAForm));
        // A `%` that starts no byte is kept as it is, as the URL standard says.
        assert_eq!(
            as_owned(&pairs(b"a=%zz%4").unwrap()),
            [("a".into(), "%zz%4".into())]
        );
    }

    #[test]
    fn wiping_clears_every_name_and_value() {
        let mut pairs = pairs(b"key=sk-123456789&_csrf=token").unwrap();
        pairs.wipe();
        assert!(
            pairs
                .iter()
                .all(|(name, value)| name.is_empty() && value.is_empty()),
            "{:?}",
            as_owned(&pairs)
        );
    }

    #[test]
    fn a_growing_buffer_keeps_what_it_holds() {
        let mut buffer = Zeroizing::new(Vec::with_capacity(2));
        let mut expected = Vec::new();
        for piece in [&b"ab"[..], b"cde", b"", b"fghijklmnop", b"q"] {
            append(&mut buffer, piece);
            expected.extend_from_slice(piece);
            assert_eq!(**buffer, expected);
        }
    }

    #[tokio::test]
    async fn a_body_in_pieces_reads_whole_and_one_over_the_limit_is_too_large() {
        let streamed = || {
            let pieces = ["key=sk", "-12345", "6789&_csrf=t"].map(|piece| {
                Ok::<_, std::convert::Infallible>(http_body::Frame::data(Bytes::from(piece)))
            });
            Body::new(http_body_util::StreamBody::new(futures_util::stream::iter(
                pieces,
            )))
        };
        let read: Zeroizing<Vec<u8>> = read_body(streamed()).await.unwrap();
        assert_eq!(&**read, b"key=sk-123456789&_csrf=t");
        let limited = Body::new(http_body_util::Limited::new(streamed(), read.len() - 1));
        assert_eq!(read_body(limited).await.map(|_| ()), Err(Unread::TooLarge));
        let fits = Body::new(http_body_util::Limited::new(streamed(), read.len()));
        assert_eq!(*read_body(fits).await.unwrap(), *read);
    }

    /// What a browser may send in a value: the characters that are encoded, and stray `%`.
    fn form_text() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-c=&+% 2BF0éЖ😀%]{0,24}").unwrap()
    }

    proptest! {
        /// The same pairs as `serde_urlencoded` (what axum's `Form` reads) wherever its
        /// decoding is UTF-8, and a refusal where it had to replace bytes.
        #[test]
        fn the_pairs_are_serde_urlencodeds(body in form_text()) {
            let theirs: Vec<(String, String)> = serde_urlencoded::from_bytes(body.as_bytes())
                .expect("serde_urlencoded reads any bytes");
            match pairs(body.as_bytes()) {
                Ok(ours) => prop_assert_eq!(as_owned(&ours), theirs),
                Err(NotAForm) => prop_assert!(
                    theirs.iter().any(|(name, value)| {
                        name.contains('\u{FFFD}') || value.contains('\u{FFFD}')
                    }),
                    "refused {:?}, which reads as {:?}",
                    body,
                    theirs
                ),
            }
        }

        /// Encoded by the standard's encoder, any text comes back as it was.
        #[test]
        fn encoded_pairs_come_back_whole(
            fields in proptest::collection::vec((".{0,8}", ".{0,12}"), 0..5)
        ) {
            let body = serde_urlencoded::to_string(&fields).unwrap();
            prop_assert_eq!(as_owned(&pairs(body.as_bytes()).unwrap()), fields);
        }
    }
}
