//! A resumed event stream never delivers again the event it resumed after.
//!
//! A client that lost a call's event stream asks for it again with `Last-Event-ID`, the id of
//! the last event it received; the server owes it the events *after* that one. rmcp 3.11's
//! `LocalSessionManager` replays from its cache starting *at* that event
//! (`CachedTx::sync` skips `index - first` cached events where it should skip one more), so a
//! 2025-11-25 client that had received an `elicitation/create` before the connection broke got
//! it again, and showed a second form for the same ask. The guard drops from a resumed stream
//! every event at or before `Last-Event-ID`. Once rmcp is fixed there is nothing left to drop,
//! so the guard stays correct with either rmcp; the fix for rmcp itself is in
//! `docs/upstream/`. (A call's stream that the guard holds, it resumes itself, from after the
//! last event: see `relay`. This filter is for the resumes it leaves to rmcp.)

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::{Bytes, BytesMut};
use http::{HeaderMap, header};
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;

use super::GuardedResponse;
use super::sse::{LocalId, event_end, event_id, is_event_stream};

/// The header a client resumes a stream with.
const LAST_EVENT_ID: header::HeaderName = header::HeaderName::from_static("last-event-id");

/// The event a request resumes a stream after, when it names one.
pub(super) fn resumed_after(headers: &HeaderMap) -> Option<LastEvent> {
    let id = headers.get(LAST_EVENT_ID)?.to_str().ok()?;
    Some(LastEvent::new(id))
}

/// `response` without the events at or before `last`, when it is an event stream; any other
/// answer (an error, JSON) as it is.
pub(super) fn after(last: LastEvent, response: GuardedResponse) -> GuardedResponse {
    if !is_event_stream(response.headers()) {
        return response;
    }
    response.map(|body| BoxBody::new(AfterLastEvent::new(body, last)))
}

/// The id a client resumed after.
pub(super) struct LastEvent {
    id: String,
    /// The id read as rmcp's local session manager writes them.
    local: Option<LocalId>,
}

impl LastEvent {
    fn new(id: &str) -> Self {
        LastEvent {
            id: id.to_owned(),
            local: LocalId::parse(id),
        }
    }

    /// The last event, when it is one of a request's stream as rmcp's local session manager
    /// numbers them (`INDEX/REQUEST`).
    pub(super) fn on_request_stream(&self) -> Option<LocalId> {
        self.local.filter(|local| local.request.is_some())
    }

    /// Whether the client had the event `id` already: it is the last one, or one before it
    /// in the same stream. An id of another form than the last one's is never dropped.
    fn covers(&self, id: &str) -> bool {
        if id == self.id {
            return true;
        }
        match (self.local, LocalId::parse(id)) {
            (Some(last), Some(event)) => event.request == last.request && event.index <= last.index,
            _ => false,
        }
    }
}

/// An event stream's body without the events a [`LastEvent`] covers. Events are cut at their
/// blank line; what has no blank line yet waits for the next chunk, and whatever is left when
/// the stream ends goes out as it is.
struct AfterLastEvent {
    inner: BoxBody<Bytes, Infallible>,
    last: LastEvent,
    /// Received, not yet a whole event.
    partial: BytesMut,
}

impl AfterLastEvent {
    fn new(inner: BoxBody<Bytes, Infallible>, last: LastEvent) -> Self {
        AfterLastEvent {
            inner,
            last,
            partial: BytesMut::new(),
        }
    }

    /// The whole events received so far that the client did not have, in order.
    fn whole_events(&mut self) -> Bytes {
        let mut kept = BytesMut::new();
        while let Some(end) = event_end(&self.partial) {
            let event = self.partial.split_to(end);
            let seen = event_id(&event).is_some_and(|id| self.last.covers(id));
            if !seen {
                kept.extend_from_slice(&event);
            }
        }
        kept.freeze()
    }
}

impl Body for AfterLastEvent {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        loop {
            match ready!(Pin::new(&mut this.inner).poll_frame(context)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        this.partial.extend_from_slice(&data);
                        let kept = this.whole_events();
                        if !kept.is_empty() {
                            return Poll::Ready(Some(Ok(Frame::data(kept))));
                        }
                    }
                    Err(trailers) => return Poll::Ready(Some(Ok(trailers))),
                },
                Some(Err(never)) => match never {},
                None if this.partial.is_empty() => return Poll::Ready(None),
                None => {
                    let rest = this.partial.split().freeze();
                    return Poll::Ready(Some(Ok(Frame::data(rest))));
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.partial.is_empty() && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        // Events may be dropped: only that nothing is added is known.
        let mut hint = SizeHint::new();
        if let Some(upper) = self.inner.size_hint().upper() {
            hint.set_upper(upper + self.partial.len() as u64);
        }
        hint
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::{BodyExt, Full, StreamBody};

    use super::*;

    /// The body `chunks` make, filtered after `last`, as text.
    fn filtered(last: &str, chunks: &[&str]) -> String {
        let frames: Vec<Result<Frame<Bytes>, Infallible>> = chunks
            .iter()
            .map(|chunk| Ok(Frame::data(Bytes::copy_from_slice(chunk.as_bytes()))))
            .collect();
        let body = BoxBody::new(StreamBody::new(futures_util::stream::iter(frames)));
        let filtered = AfterLastEvent::new(body, LastEvent::new(last));
        let bytes = ready_now(filtered.collect()).unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    /// A body of this crate is ready at once: polled to its end without a runtime.
    fn ready_now<F: std::future::Future>(future: F) -> F::Output {
        let waker = std::task::Waker::noop();
        let mut context = Context::from_waker(waker);
        let mut future = std::pin::pin!(future);
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
                return output;
            }
        }
    }

    const STREAM: &str =
        "id: 0/1\ndata: {\"a\":0}\n\nid: 1/1\ndata: {\"a\":1}\n\nid: 2/1\ndata: {\"a\":2}\n\n";

    #[test]
    fn events_at_and_before_the_last_one_are_dropped_and_the_rest_kept_in_order() {
        assert_eq!(filtered("1/1", &[STREAM]), "id: 2/1\ndata: {\"a\":2}\n\n");
        assert_eq!(filtered("2/1", &[STREAM]), "");
        // Another request's stream, or another form of id: nothing is covered.
        assert_eq!(filtered("1/2", &[STREAM]), STREAM);
        assert_eq!(filtered("opaque-1", &[STREAM]), STREAM);
    }

    #[test]
    fn an_event_cut_across_chunks_is_judged_whole() {
        let chunks = [
            "id: 1",
            "/1\ndata: x\n",
            "\nid: 2/1\r\ndata: y\r\n\r",
            "\n: ping\n\n",
        ];
        assert_eq!(
            filtered("1/1", &chunks),
            "id: 2/1\r\ndata: y\r\n\r\n: ping\n\n"
        );
    }

    #[test]
    fn what_never_ends_in_a_blank_line_goes_out_at_the_end() {
        assert_eq!(
            filtered("0", &["id: 0\ndata: a\n\nid: 1\ndata: b"]),
            "id: 1\ndata: b"
        );
        assert_eq!(filtered("0", &["data: no id\n\n"]), "data: no id\n\n");
    }

    #[test]
    fn an_answer_that_is_no_event_stream_is_not_touched() {
        let response = http::Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(BoxBody::new(Full::new(Bytes::from_static(b"id: 0\n\n"))))
            .unwrap();
        let kept = after(LastEvent::new("0"), response);
        let bytes = ready_now(kept.into_body().collect()).unwrap().to_bytes();
        assert_eq!(&bytes[..], b"id: 0\n\n");
    }
}
