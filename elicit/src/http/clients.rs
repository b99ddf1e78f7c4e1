//! The limit on request bodies in flight per client, in bytes: who a request counts against,
//! and one semaphore per client, whose permits are bytes, made when its first request arrives
//! and dropped with its last, so the map holds only the clients being served.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::ConnectInfo;
use http::request::Parts;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Who a request counts against. There is no key for a request whose client is not known:
/// such requests would share one allowance, and one slow body would hold up all of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ClientKey {
    /// A 2025-11-25 session the server holds.
    Session(Arc<str>),
    /// The client's address, for requests without a held session (2026-07-28 requests, the
    /// `initialize` that opens a session).
    Address(IpAddr),
}

/// Where the address of a request without a held session comes from.
#[derive(Clone)]
pub(super) enum ClientAddress {
    /// The peer's, from axum's `ConnectInfo<SocketAddr>`.
    ConnectInfo,
    /// The server's own function, from
    /// [`Guard::with_client_address`](super::Guard::with_client_address).
    Function(AddressOf),
}

/// A function that finds a request's client address.
type AddressOf = Arc<dyn Fn(&Parts) -> Option<IpAddr> + Send + Sync>;

impl ClientAddress {
    /// The address of the client that sent `request`, if it can be told.
    pub(super) fn of(&self, request: &Parts) -> Option<IpAddr> {
        match self {
            ClientAddress::ConnectInfo => request
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(address)| address.ip()),
            ClientAddress::Function(address) => address(request),
        }
    }

    /// Why a request had no address, and what the server's code must do about it: the text
    /// of the guard's 500 and of its log line.
    pub(super) fn missing(&self) -> &'static str {
        match self {
            ClientAddress::ConnectInfo => {
                "the guard cannot tell this request's client from others: the server is \
                 served without the peer's address. Serve it with \
                 `into_make_service_with_connect_info::<SocketAddr>()` (axum), or give \
                 `Guard::with_client_address` a function that finds the client's address"
            }
            ClientAddress::Function(_) => {
                "the guard cannot tell this request's client from others: the function given \
                 to `Guard::with_client_address` found no address in it (behind a reverse \
                 proxy: is the request from the proxy, and does the proxy set the header?)"
            }
        }
    }
}

/// The semaphores of the clients with requests in flight.
pub(super) struct InFlight {
    /// Bytes per client, at most `u32::MAX` (what one acquisition can take).
    max_per_client: u32,
    clients: Mutex<HashMap<ClientKey, Arc<Semaphore>>>,
}

/// A request's place among its client's requests in flight; gives it back when dropped.
pub(super) struct Ticket {
    /// `None` only once dropped.
    key: Option<ClientKey>,
    in_flight: Arc<InFlight>,
    permit: Option<OwnedSemaphorePermit>,
}

impl InFlight {
    pub(super) fn new(max_per_client: usize) -> Self {
        InFlight {
            max_per_client: u32::try_from(max_per_client).unwrap_or(u32::MAX),
            clients: Mutex::default(),
        }
    }

    /// Waits until `key`'s bodies in flight leave room for `bytes` more, and counts them. A
    /// body larger than a client's whole allowance takes all of it. A waiting request has not
    /// been read: its body stays in the connection.
    pub(super) async fn enter(self: &Arc<Self>, key: ClientKey, bytes: usize) -> Ticket {
        let bytes = u32::try_from(bytes)
            .unwrap_or(u32::MAX)
            .min(self.max_per_client);
        let semaphore = self
            .lock()
            .entry(key.clone())
            .or_insert_with(|| Arc::new(Semaphore::new(self.max_per_client as usize)))
            .clone();
        let permit = semaphore
            .acquire_many_owned(bytes)
            .await
            .expect("the semaphore is never closed");
        Ticket {
            key: Some(key),
            in_flight: self.clone(),
            permit: Some(permit),
        }
    }

    /// How many clients have a semaphore now (for tests of the cleanup).
    #[cfg(test)]
    fn clients(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ClientKey, Arc<Semaphore>>> {
        // The map stays consistent whatever panicked while it was held: every change is one
        // insert or remove.
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut clients = self.in_flight.lock();
        let permit = self.permit.take();
        // Every clone of a client's semaphore is made under this lock: the map's, one per
        // permit and one per waiting request. The map's and this permit's alone mean that no
        // other request of this client is in flight or waiting. (One entry, so the key is
        // hashed once.)
        if let Some(key) = self.key.take()
            && let Entry::Occupied(entry) = clients.entry(key)
            && Arc::strong_count(entry.get()) == 2
        {
            entry.remove();
        }
        drop(permit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_client_waits_at_its_limit_and_others_do_not() {
        let in_flight = Arc::new(InFlight::new(100));
        let alice = ClientKey::Session("alice".into());
        let first = in_flight.enter(alice.clone(), 60).await;
        let _second = in_flight.enter(alice.clone(), 40).await;
        let third = tokio::spawn({
            let in_flight = in_flight.clone();
            let alice = alice.clone();
            // Larger than the whole allowance: waits for all of it.
            async move { in_flight.enter(alice, 1000).await }
        });
        tokio::task::yield_now().await;
        assert!(!third.is_finished());
        // Another client is not held up by alice's.
        let bob = ClientKey::Address(IpAddr::from([127, 0, 0, 2]));
        let _bob = in_flight.enter(bob, 100).await;
        drop(first);
        tokio::task::yield_now().await;
        assert!(!third.is_finished(), "40 bytes are still in flight");
        drop(_second);
        let third = third.await.unwrap();
        drop((third, _bob));
        assert_eq!(
            in_flight.clients(),
            0,
            "the semaphores go with the last request"
        );
    }
}
