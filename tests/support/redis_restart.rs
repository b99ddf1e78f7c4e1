//! A Redis of the test's own that the test stops and starts again, for the failures of a Redis
//! that goes away (see `redis_server.rs`).

use super::redis_server::OwnServer;

/// A `redis-server` of the test's own, whatever `REDIS_URL` says.
pub fn own(test: &str) -> OwnServer {
    OwnServer::start(test)
}

impl OwnServer {
    /// Stops the server; its data goes with it (no persistence).
    pub fn shut_down(&mut self) {
        self.stop();
    }

    /// Starts the server again on the same port, empty.
    pub fn restart(&mut self) {
        self.stop();
        if let Err(failure) = self.spawn() {
            panic!("redis-server does not restart: {failure}");
        }
    }
}
