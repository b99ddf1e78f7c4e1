//! A call's event stream outlives the connection that carried it.
//!
//! On 2025-11-25 what a call sends (its asks, its progress, its result) goes on the event
//! stream that answers its POST. A client whose connection drops resumes that stream with a GET
//! and `Last-Event-ID`. rmcp 3.11's `LocalSessionManager` resumes it only while the call runs:
//! when the call answers, it forgets the stream and its cache at once
//! (`LocalSessionWorker::handle_server_message`, `session/local.rs:640`), and a resume after
//! that is answered with an empty stream. A client that answered an ask before it came back
//! (the TypeScript client comes back after the server's `retry`, 3 s) never got the call's
//! result.
//!
//! The guard relays each stream of a request on a held session through a log of its own: a
//! task reads rmcp's stream to its end, whether a client is connected or not, and keeps its
//! events; the client's body reads the log. A GET that resumes a stream the guard holds is
//! answered from the log, with the events after `Last-Event-ID` and then the rest as it comes,
//! and does not reach rmcp; the stream it resumes ends, as rmcp ends the one it replaces.
//!
//! A log is kept while its stream goes on, and [`KEPT_AFTER_ANSWER`] more when the stream
//! ended with the request's answer: whether the client got the answer, the server cannot tell
//! (a connection that broke while it waited takes the answer's bytes without an error). It
//! holds at most [`MAX_EVENTS`] events and [`MAX_BYTES`] bytes (and always the newest event);
//! the logs kept after their answer hold at most [`MAX_KEPT_BYTES`] together, and the oldest go
//! first. What the guard cannot serve whole is left to rmcp: a resume after events the log let
//! go, or of a stream whose ids are not rmcp's local ones (an event store's); rmcp's answer to
//! such a resume is relayed in turn. Once rmcp keeps an answered stream (the fix in
//! `docs/upstream/`), a resume that reaches it works too.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use http::{Response, StatusCode, header};
use http_body::{Body, Frame};
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use rmcp::transport::streamable_http_server::SessionId;

use super::GuardedResponse;
use super::sse::{LocalId, event_end, event_id, is_comment, is_event_stream, is_response};

/// How long the log of an answered request is kept for a client that comes back for the answer:
/// as long as rmcp keeps an answered request's cache where it keeps it
/// (`SessionConfig::completed_cache_ttl`, 60 s by default).
const KEPT_AFTER_ANSWER: Duration = Duration::from_secs(60);

/// The most events a log holds: four times rmcp's own cache of a stream (16 by default), so
/// that ten minutes of progress notifications, one every 10 s, do not push out an ask.
const MAX_EVENTS: usize = 64;

/// The most bytes of events a log holds, beyond its newest event.
const MAX_BYTES: usize = 1024 * 1024;

/// The most bytes the logs of answered requests hold together, each counted with
/// [`LOG_OVERHEAD`]: a server that answers many requests lets each go sooner.
const MAX_KEPT_BYTES: usize = 64 * 1024 * 1024;

/// What a kept log costs beyond its events: its entry, its state, its key.
const LOG_OVERHEAD: usize = 512;

/// The logs of the streams the guard relays, by session and request.
pub(super) struct Relays {
    registry: Mutex<Registry>,
}

#[derive(Default)]
struct Registry {
    logs: HashMap<StreamKey, Arc<Log>>,
    /// The logs of answered requests, in the order they are let go.
    answered: VecDeque<Answered>,
    /// What those logs cost together, in bytes.
    answered_bytes: usize,
}

/// The log of an answered request, kept until `until`.
struct Answered {
    until: Instant,
    key: StreamKey,
    log: Weak<Log>,
    bytes: usize,
}

/// A request's stream: the session, and the request's number in rmcp's event ids.
#[derive(Clone, PartialEq, Eq, Hash)]
struct StreamKey {
    session: SessionId,
    request: u64,
}

impl Relays {
    pub(super) fn new() -> Self {
        Relays {
            registry: Mutex::default(),
        }
    }

    /// rmcp's answer to a POST on `session` (a session the server holds): an event stream is
    /// relayed through a log; anything else, or an answer outside a held session, as it is.
    pub(super) fn relay_call(
        self: &Arc<Self>,
        session: Option<SessionId>,
        response: GuardedResponse,
    ) -> GuardedResponse {
        match session {
            Some(session) if is_event_stream(response.headers()) => {
                self.relay(session, None, response)
            }
            _ => response,
        }
    }

    /// rmcp's answer to a GET on `session` that resumed a request's stream after `last`:
    /// relayed too, so that a second drop is resumed as the first. The stream starts after
    /// `last` (the guard has dropped what rmcp repeats).
    pub(super) fn relay_resumed(
        self: &Arc<Self>,
        session: Option<SessionId>,
        last: Option<LocalId>,
        response: GuardedResponse,
    ) -> GuardedResponse {
        match (session, last) {
            (Some(session), Some(last)) if is_event_stream(response.headers()) => {
                self.relay(session, Some(last), response)
            }
            _ => response,
        }
    }

    /// The rest of the stream a GET on `session` resumes after `last`, from the guard's log,
    /// when the log holds every event after it. The stream last handed out for that request
    /// ends.
    pub(super) fn resume(&self, session: &SessionId, last: LocalId) -> Option<GuardedResponse> {
        let key = StreamKey {
            session: session.clone(),
            request: last.request?,
        };
        let log = self.lock().logs.get(&key)?.clone();
        let reader = Log::resume_after(&log, last.index)?;
        Some(event_stream(reader))
    }

    fn relay(
        self: &Arc<Self>,
        session: SessionId,
        resumed: Option<LocalId>,
        response: GuardedResponse,
    ) -> GuardedResponse {
        let (parts, body) = response.into_parts();
        let log = Arc::new(Log::new(resumed.map(|last| last.index.saturating_add(1))));
        let key = resumed.and_then(|last| {
            Some(StreamKey {
                session: session.clone(),
                request: last.request?,
            })
        });
        if let Some(key) = &key {
            self.register(key.clone(), &log);
        }
        let reader = Reader::from_start(&log);
        tokio::spawn(pump(self.clone(), session, log, body, key));
        Response::from_parts(parts, BoxBody::new(reader))
    }

    /// `log` is the stream `key` names from now on.
    fn register(&self, key: StreamKey, log: &Arc<Log>) {
        self.lock().logs.insert(key, log.clone());
    }

    /// The stream of `log` ended: kept a while if it carried the request's answer (`answered`,
    /// the bytes it holds), else let go (a resume of it is rmcp's to answer).
    fn ended(&self, key: StreamKey, log: &Arc<Log>, answered: Option<usize>) {
        let mut registry = self.lock();
        if !registry
            .logs
            .get(&key)
            .is_some_and(|held| Arc::ptr_eq(held, log))
        {
            // Replaced by a later stream of the same request.
            return;
        }
        match answered {
            Some(bytes) => registry.keep(Answered {
                until: Instant::now() + KEPT_AFTER_ANSWER,
                key,
                log: Arc::downgrade(log),
                bytes: bytes + LOG_OVERHEAD,
            }),
            None => {
                registry.logs.remove(&key);
            }
        }
    }

    /// The registry, with the logs whose time is up let go.
    fn lock(&self) -> MutexGuard<'_, Registry> {
        let mut registry = self.registry.lock().unwrap_or_else(PoisonError::into_inner);
        registry.let_go_until(Instant::now());
        registry
    }
}

impl Registry {
    /// Keeps an answered log until its time is up, or until the answered logs after it need
    /// its room.
    fn keep(&mut self, answered: Answered) {
        self.answered_bytes += answered.bytes;
        self.answered.push_back(answered);
        while self.answered_bytes > MAX_KEPT_BYTES && self.answered.len() > 1 {
            self.let_go_oldest();
        }
    }

    fn let_go_until(&mut self, now: Instant) {
        while self
            .answered
            .front()
            .is_some_and(|oldest| oldest.until <= now)
        {
            self.let_go_oldest();
        }
    }

    fn let_go_oldest(&mut self) {
        let Some(oldest) = self.answered.pop_front() else {
            return;
        };
        self.answered_bytes -= oldest.bytes;
        let same = |held: &Arc<Log>| std::ptr::eq(Arc::as_ptr(held), oldest.log.as_ptr());
        // Unless a later stream of the same request replaced it.
        if self.logs.get(&oldest.key).is_some_and(same) {
            self.logs.remove(&oldest.key);
        }
    }
}

/// Reads rmcp's stream `body` to its end into `log`, naming the log `key` once the stream's
/// first event says which request it is (unless the stream was named already).
async fn pump(
    relays: Arc<Relays>,
    session: SessionId,
    log: Arc<Log>,
    mut body: BoxBody<Bytes, Infallible>,
    mut key: Option<StreamKey>,
) {
    let mut partial = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = match frame {
            Ok(frame) => frame,
            Err(never) => match never {},
        };
        let Ok(data) = frame.into_data() else {
            // Trailers: an event stream has none.
            continue;
        };
        partial.extend_from_slice(&data);
        while let Some(end) = event_end(&partial) {
            let event = partial.split_to(end).freeze();
            let id = event_id(&event).and_then(LocalId::parse);
            if key.is_none()
                && let Some(request) = id.and_then(|id| id.request)
            {
                let named = StreamKey {
                    session: session.clone(),
                    request,
                };
                // Named before the event is readable: no client can resume after an event
                // the guard would not find.
                relays.register(named.clone(), &log);
                key = Some(named);
            }
            log.take(event, id);
        }
    }
    if !partial.is_empty() {
        let event = partial.freeze();
        let id = event_id(&event).and_then(LocalId::parse);
        log.take(event, id);
    }
    let answered = log.end();
    if let Some(key) = key {
        relays.ended(key, &log, answered);
    }
}

/// The events of one stream, as rmcp sent them, and who reads them.
struct Log {
    state: Mutex<LogState>,
}

struct LogState {
    events: VecDeque<Kept>,
    /// How many events were let go from the front: the number of `events[0]` in the stream.
    let_go: u64,
    bytes: usize,
    /// The index (rmcp's) from which on every event of the stream is held: the first one's,
    /// or the one after the last event let go.
    held_from: Option<u64>,
    /// The stream carried the request's answer.
    answered: bool,
    ended: bool,
    /// The last keep-alive rmcp sent, and how many it has sent: a reader passes them on.
    keep_alive: Bytes,
    keep_alives: u64,
    /// Which reader may read: a resume makes a new one, and the ones before it end.
    reader: u64,
    waiting: Vec<Waker>,
}

struct Kept {
    event: Bytes,
    /// Its index in rmcp's id, when it has one.
    index: Option<u64>,
}

impl Log {
    /// A log of a stream whose first event is the one of index `first` (rmcp's resume of a
    /// stream after `first - 1`), or, for a stream from its start, whatever comes first.
    fn new(first: Option<u64>) -> Self {
        Log {
            state: Mutex::new(LogState {
                events: VecDeque::new(),
                let_go: 0,
                bytes: 0,
                held_from: first,
                answered: false,
                ended: false,
                keep_alive: Bytes::new(),
                keep_alives: 0,
                reader: 0,
                waiting: Vec::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LogState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One whole event of the stream, with its id as rmcp wrote it.
    fn take(&self, event: Bytes, id: Option<LocalId>) {
        let mut state = self.lock();
        if is_comment(&event) {
            state.keep_alive = event;
            state.keep_alives += 1;
        } else {
            let index = id.map(|id| id.index);
            if state.held_from.is_none() {
                state.held_from = index;
            }
            state.answered |= is_response(&event);
            state.bytes += event.len();
            state.events.push_back(Kept { event, index });
            state.keep_within_bounds();
        }
        state.wake();
    }

    /// The stream ended: the bytes the log holds, when the stream carried the request's
    /// answer.
    fn end(&self) -> Option<usize> {
        let mut state = self.lock();
        state.ended = true;
        state.wake();
        state.answered.then_some(state.bytes)
    }

    /// A reader of the events after the one of index `last`, if the log holds all of them and
    /// will go on (it has not ended without the answer); the readers before it end.
    fn resume_after(log: &Arc<Log>, last: u64) -> Option<Reader> {
        let mut state = log.lock();
        if state.ended && !state.answered {
            return None;
        }
        let next = last.checked_add(1)?;
        let newest = state.events.iter().rev().find_map(|kept| kept.index);
        // Every event after `last` is held, and `last` is one the stream sent.
        let whole = state.held_from.is_some_and(|from| from <= next)
            && newest.map_or(state.held_from == Some(next), |newest| last <= newest);
        if !whole {
            return None;
        }
        let had = state
            .events
            .iter()
            .rposition(|kept| kept.index.is_some_and(|index| index <= last))
            .map_or(0, |at| at + 1);
        state.reader += 1;
        state.wake();
        Some(Reader {
            log: log.clone(),
            next: state.let_go + had as u64,
            keep_alives: state.keep_alives,
            reader: state.reader,
        })
    }
}

impl LogState {
    fn keep_within_bounds(&mut self) {
        while self.events.len() > 1 && (self.events.len() > MAX_EVENTS || self.bytes > MAX_BYTES) {
            let Some(gone) = self.events.pop_front() else {
                break;
            };
            self.bytes -= gone.event.len();
            self.let_go += 1;
            if let Some(index) = gone.index {
                self.held_from = Some(index + 1);
            }
        }
    }

    fn wake(&mut self) {
        for waker in self.waiting.drain(..) {
            waker.wake();
        }
    }

    /// The number, in the stream, of the event after the newest one held.
    fn end_of_events(&self) -> u64 {
        self.let_go + self.events.len() as u64
    }
}

/// A client's body: the log's events from one of them on, and rmcp's keep-alives.
struct Reader {
    log: Arc<Log>,
    /// The number, in the stream, of the next event to hand out.
    next: u64,
    keep_alives: u64,
    reader: u64,
}

impl Reader {
    fn from_start(log: &Arc<Log>) -> Self {
        Reader {
            log: log.clone(),
            next: 0,
            keep_alives: 0,
            reader: log.lock().reader,
        }
    }
}

impl Body for Reader {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        let mut state = this.log.lock();
        // Resumed elsewhere; or so far behind that events it owes were let go, which a
        // resume then asks of rmcp rather than skipping them here.
        if state.reader != this.reader || this.next < state.let_go {
            return Poll::Ready(None);
        }
        let end = state.end_of_events();
        if this.next < end {
            let mut out = BytesMut::new();
            let skip = (this.next - state.let_go) as usize;
            for kept in state.events.iter().skip(skip) {
                out.extend_from_slice(&kept.event);
            }
            this.next = end;
            this.keep_alives = state.keep_alives;
            return Poll::Ready(Some(Ok(Frame::data(out.freeze()))));
        }
        if this.keep_alives != state.keep_alives {
            this.keep_alives = state.keep_alives;
            return Poll::Ready(Some(Ok(Frame::data(state.keep_alive.clone()))));
        }
        if state.ended {
            return Poll::Ready(None);
        }
        if !state.waiting.iter().any(|w| w.will_wake(context.waker())) {
            state.waiting.push(context.waker().clone());
        }
        Poll::Pending
    }
}

/// A resumed stream answered by the guard, with the headers rmcp gives its own.
fn event_stream(reader: Reader) -> GuardedResponse {
    let mut response = Response::new(BoxBody::new(reader));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    headers.insert(
        header::HeaderName::from_static("x-accel-buffering"),
        header::HeaderValue::from_static("no"),
    );
    response
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures_util::stream;
    use http_body_util::StreamBody;
    use tokio::sync::mpsc;

    use super::*;

    const PRIMING: &str = "data:\nid: 0/5\nretry: 3000\n\n";
    const ASK: &str =
        "data: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"elicitation/create\"}\nid: 1/5\n\n";
    const RESULT: &str = "data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\nid: 2/5\n\n";

    /// An event stream as rmcp answers a request with, fed by the sender.
    fn rmcp_stream() -> (mpsc::UnboundedSender<String>, GuardedResponse) {
        let (sender, receiver) = mpsc::unbounded_channel::<String>();
        let events = stream::unfold(receiver, |mut receiver| async move {
            let event = receiver.recv().await?;
            Some((Ok(Frame::data(Bytes::from(event))), receiver))
        });
        let response = Response::builder()
            .header(header::CONTENT_TYPE, "text/event-stream")
            .body(BoxBody::new(StreamBody::new(events)))
            .unwrap();
        (sender, response)
    }

    fn session() -> SessionId {
        SessionId::from("session")
    }

    fn last(id: &str) -> LocalId {
        LocalId::parse(id).unwrap()
    }

    /// The next chunk of `body`, or `None` at its end; within a second.
    async fn next(body: &mut BoxBody<Bytes, Infallible>) -> Option<String> {
        let frame = tokio::time::timeout(Duration::from_secs(1), body.frame())
            .await
            .expect("a chunk or the end within a second")?
            .unwrap();
        Some(String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap())
    }

    async fn to_the_end(body: &mut BoxBody<Bytes, Infallible>) -> String {
        let mut text = String::new();
        while let Some(chunk) = next(body).await {
            text.push_str(&chunk);
        }
        text
    }

    #[tokio::test]
    async fn a_stream_goes_on_without_its_client_and_is_resumed_after_the_last_event_it_had() {
        let relays = Arc::new(Relays::new());
        let (rmcp, response) = rmcp_stream();
        let mut call = relays.relay_call(Some(session()), response).into_body();
        rmcp.send(PRIMING.to_owned()).unwrap();
        rmcp.send(ASK.to_owned()).unwrap();
        let mut had = String::new();
        while had.len() < PRIMING.len() + ASK.len() {
            had.push_str(&next(&mut call).await.unwrap());
        }
        assert_eq!(had, format!("{PRIMING}{ASK}"));
        // The connection breaks; the call answers while the client is away.
        drop(call);
        rmcp.send(": keep-alive\n\n".to_owned()).unwrap();
        rmcp.send(RESULT.to_owned()).unwrap();
        drop(rmcp);

        let resumed = relays.resume(&session(), last("1/5")).expect("held");
        assert_eq!(resumed.status(), StatusCode::OK);
        assert_eq!(resumed.headers()[header::CONTENT_TYPE], "text/event-stream");
        assert_eq!(to_the_end(&mut resumed.into_body()).await, RESULT);
        // After the priming event: the ask too. After the result: nothing more.
        let resumed = relays.resume(&session(), last("0/5")).expect("held");
        assert_eq!(
            to_the_end(&mut resumed.into_body()).await,
            format!("{ASK}{RESULT}")
        );
        let resumed = relays.resume(&session(), last("2/5")).expect("held");
        assert_eq!(to_the_end(&mut resumed.into_body()).await, "");
    }

    #[tokio::test]
    async fn a_resume_ends_the_stream_it_replaces_and_hears_rmcp_s_keep_alives() {
        let relays = Arc::new(Relays::new());
        let (rmcp, response) = rmcp_stream();
        let mut call = relays.relay_call(Some(session()), response).into_body();
        rmcp.send(PRIMING.to_owned()).unwrap();
        assert_eq!(next(&mut call).await.unwrap(), PRIMING);
        let mut first = relays.resume(&session(), last("0/5")).unwrap().into_body();
        let mut second = relays.resume(&session(), last("0/5")).unwrap().into_body();
        assert_eq!(next(&mut call).await, None);
        assert_eq!(next(&mut first).await, None);
        rmcp.send(": keep-alive\n\n".to_owned()).unwrap();
        assert_eq!(next(&mut second).await.unwrap(), ": keep-alive\n\n");
        rmcp.send(ASK.to_owned()).unwrap();
        assert_eq!(next(&mut second).await.unwrap(), ASK);
    }

    #[tokio::test]
    async fn what_the_log_cannot_serve_whole_is_left_to_rmcp() {
        let relays = Arc::new(Relays::new());
        let (rmcp, response) = rmcp_stream();
        let call = relays.relay_call(Some(session()), response);
        drop(call);
        // More events than a log holds: the first ones are let go.
        let events: Vec<String> = (0..MAX_EVENTS + 6)
            .map(|index| format!("data: {{}}\nid: {index}/5\n\n"))
            .collect();
        for event in &events {
            rmcp.send(event.clone()).unwrap();
        }
        let newest = MAX_EVENTS + 5;
        let held_from = newest + 1 - MAX_EVENTS;
        let resumes = |id: usize| relays.resume(&session(), last(&format!("{id}/5")));
        tokio::time::timeout(Duration::from_secs(1), async {
            while resumes(newest).is_none() {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the pump reads every event");
        // After an event let go, or one rmcp never sent, or of another request: not here.
        assert!(resumes(held_from - 2).is_none());
        assert!(resumes(newest + 1).is_none());
        assert!(relays.resume(&session(), last("1/6")).is_none());
        assert!(
            relays
                .resume(&SessionId::from("other"), last("1/5"))
                .is_none()
        );
        // After the event just before the first held: all there.
        let resumed = resumes(held_from - 1).unwrap();
        drop(rmcp);
        let text = to_the_end(&mut resumed.into_body()).await;
        assert_eq!(text, events[held_from..].concat());
    }

    #[tokio::test]
    async fn an_unanswered_stream_is_let_go_when_it_ends_and_an_answered_one_a_while_after() {
        let relays = Arc::new(Relays::new());
        let (unanswered, response) = rmcp_stream();
        drop(relays.relay_call(Some(session()), response));
        unanswered.send(PRIMING.to_owned()).unwrap();
        unanswered.send(ASK.to_owned()).unwrap();
        drop(unanswered);
        tokio::time::timeout(Duration::from_secs(1), async {
            while relays.resume(&session(), last("0/5")).is_some() {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("let go once rmcp's stream ended without the answer");

        let (answered, response) = rmcp_stream();
        drop(relays.relay_call(Some(session()), response));
        answered.send(PRIMING.to_owned()).unwrap();
        answered.send(RESULT.to_owned()).unwrap();
        drop(answered);
        let ended = || relays.resume(&session(), last("2/5")).is_some();
        tokio::time::timeout(Duration::from_secs(1), async {
            while !relays
                .lock()
                .answered
                .iter()
                .any(|kept| kept.key.request == 5)
            {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the answered stream ends");
        assert!(ended());
        let later = Instant::now() + KEPT_AFTER_ANSWER;
        relays.lock().let_go_until(later);
        assert!(!ended());
    }

    #[test]
    fn the_answered_logs_kept_hold_at_most_their_bound_together_the_oldest_going_first() {
        let relays = Relays::new();
        let kept = |request: u64| {
            let log = Arc::new(Log::new(None));
            let key = StreamKey {
                session: session(),
                request,
            };
            relays.register(key.clone(), &log);
            relays.ended(key, &log, Some(MAX_KEPT_BYTES / 4));
            log
        };
        let _logs: Vec<Arc<Log>> = (0..5).map(kept).collect();
        let registry = relays.lock();
        let held: Vec<u64> = registry
            .answered
            .iter()
            .map(|kept| kept.key.request)
            .collect();
        assert_eq!(held, [2, 3, 4]);
        assert_eq!(registry.logs.len(), 3);
        assert!(registry.answered_bytes <= MAX_KEPT_BYTES);
    }

    #[tokio::test]
    async fn an_answer_that_is_no_event_stream_or_outside_a_held_session_is_not_relayed() {
        let relays = Arc::new(Relays::new());
        let (rmcp, response) = rmcp_stream();
        let mut passed = relays.relay_call(None, response).into_body();
        rmcp.send(PRIMING.to_owned()).unwrap();
        assert_eq!(next(&mut passed).await.unwrap(), PRIMING);
        assert!(relays.resume(&session(), last("0/5")).is_none());
        let json = Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(BoxBody::new(http_body_util::Full::new(Bytes::from_static(
                b"{}",
            ))))
            .unwrap();
        let passed = relays.relay_call(Some(session()), json);
        assert_eq!(passed.headers()[header::CONTENT_TYPE], "application/json");
        assert!(relays.lock().logs.is_empty());
    }
}
