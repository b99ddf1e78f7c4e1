//! Requests on a 2025-11-25 session: any request sent with a watch on the call it is made in,
//! and `elicitation/create` sent and read back. Both
//! [`ElicitPeer`](crate::rmcp::ElicitPeer) and the `Requests` way build on it.

use std::future::Future;
use std::pin::pin;
use std::time::{Duration, Instant};

use ::rmcp::model as sdk;
use ::rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer};
use futures_util::future::{Either, select};
use tokio_util::sync::CancellationToken;

use crate::rmcp::error::ElicitError;
#[cfg(feature = "url-mode")]
use crate::rmcp::kind::elicitation::{session_request, session_result};
#[cfg(feature = "url-mode")]
use crate::wire::{ElicitRequestParams, ElicitResult};

/// Sends `elicitation/create` with the params as elicit writes them (see
/// [`session_request`]), and reads the result.
#[cfg(feature = "url-mode")]
pub(crate) async fn send(
    peer: &Peer<RoleServer>,
    params: &ElicitRequestParams,
    timeout: Option<Duration>,
    watch: Option<&CallWatch>,
) -> Result<ElicitResult, ElicitError> {
    let response = request(peer, session_request(params)?, timeout, watch).await?;
    session_result(response)
}

/// What a request sent inside a call watches of that call: its progress token, on which the
/// client hears that the server waits for the user (a client that resets its timeout on
/// progress then waits as long as the user takes), and its cancellation, which withdraws the
/// request at once.
pub(crate) struct CallWatch {
    pub progress: Option<sdk::ProgressToken>,
    pub cancelled: CancellationToken,
}

impl CallWatch {
    /// How often the client hears that the server still waits: well within the 60 seconds
    /// after which the TypeScript SDK's client gives up on a request by default.
    pub const PROGRESS_EVERY: Duration = Duration::from_secs(10);

    /// The watch of the call `context` is the context of.
    pub fn of(context: &RequestContext<RoleServer>) -> Self {
        CallWatch {
            progress: context.meta.get_progress_token(),
            cancelled: context.ct.clone(),
        }
    }
}

/// Sends `request` on a 2025-11-25 session and waits for the client's result, at most
/// `timeout` (then rmcp cancels the request, and the ask is [`ElicitError::TimedOut`]). Inside
/// a call (`watch`), the call's progress token hears every
/// [`PROGRESS_EVERY`](CallWatch::PROGRESS_EVERY) that the server waits for the user, and the
/// call's cancellation withdraws the request (`notifications/cancelled`) and gives
/// [`ElicitError::CallCancelled`].
pub(crate) async fn request(
    peer: &Peer<RoleServer>,
    request: sdk::ServerRequest,
    timeout: Option<Duration>,
    watch: Option<&CallWatch>,
) -> Result<sdk::ClientResult, ElicitError> {
    let mut options = PeerRequestOptions::no_options();
    options.timeout = timeout;
    let handle = peer.send_request_with_option(request, options).await?;
    let Some(watch) = watch else {
        return Ok(handle.await_response().await?);
    };
    let id = handle.id.clone();
    let answered = pin!(handle.await_response());
    let waiting = pin!(watch.tell_until_cancelled(peer));
    match select(answered, waiting).await {
        Either::Left((answer, _)) => Ok(answer?),
        Either::Right(((), _)) => {
            withdraw(peer, id).await;
            Err(ElicitError::CallCancelled)
        }
    }
}

impl CallWatch {
    /// Tells the client, on the call's progress token, that the server waits for the user,
    /// until the call is cancelled (and forever if it is not: the caller races this).
    fn tell_until_cancelled<'a>(
        &'a self,
        peer: &'a Peer<RoleServer>,
    ) -> impl Future<Output = ()> + 'a {
        let started = Instant::now();
        let telling = async move {
            let Some(token) = &self.progress else {
                return std::future::pending().await;
            };
            loop {
                tokio::time::sleep(Self::PROGRESS_EVERY).await;
                // The seconds waited: progress must grow with each notification.
                let waited = started.elapsed().as_secs_f64().floor();
                let progress = sdk::ProgressNotificationParam::new(token.clone(), waited)
                    .with_message("waiting for the user to answer");
                // A client that went away stops hearing; the request's own end says why.
                let _ = peer.notify_progress(progress).await;
            }
        };
        let cancelled = self.cancelled.cancelled();
        async move {
            let (telling, cancelled) = (pin!(telling), pin!(cancelled));
            select(telling, cancelled).await;
        }
    }
}

/// Withdraws request `id` from the client: the call it was asked for was cancelled.
async fn withdraw(peer: &Peer<RoleServer>, id: sdk::RequestId) {
    let notification = sdk::CancelledNotification::new(sdk::CancelledNotificationParam::new(
        Some(id),
        Some("the call that asked was cancelled".to_owned()),
    ));
    let _ = peer.send_notification(notification.into()).await;
}
