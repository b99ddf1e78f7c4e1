//! The limit on request bodies in flight per client, in bytes: one semaphore per client, whose
//! permits are bytes, made when its first request arrives and dropped with its last, so the
//! map holds only the clients being served.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Who a request counts against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ClientKey {
    /// A 2025-11-25 session the server holds.
    Session(Arc<str>),
    /// The peer's address, for requests without a held session (2026-07-28 requests, the
    /// `initialize` that opens a session).
    Address(IpAddr),
    /// No session and no address known: such requests share one limit.
    Unknown,
}

/// The semaphores of the clients with requests in flight.
pub(super) struct InFlight {
    /// Bytes per client, at most `u32::MAX` (what one acquisition can take).
    max_per_client: u32,
    clients: Mutex<HashMap<ClientKey, Arc<Semaphore>>>,
}

/// A request's place among its client's requests in flight; gives it back when dropped.
pub(super) struct Ticket {
    key: ClientKey,
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
            key,
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
        let key = std::mem::replace(&mut self.key, ClientKey::Unknown);
        if let Entry::Occupied(entry) = clients.entry(key)
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
        let _bob = in_flight.enter(ClientKey::Unknown, 100).await;
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
