//! A Redis of the test's own that the test stops and starts again, for the failures of a Redis
//! that goes away (see `redis_server.rs`).

use crate::redis_server::OwnServer;

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
        let _ = std::fs::remove_file(self.dir.join("dump.rdb"));
        if let Err(failure) = self.spawn() {
            panic!("redis-server does not restart: {failure}");
        }
    }

    /// Saves the server's data to its data dir (`SAVE`) and stops it: a Redis that goes away
    /// with its persistence.
    pub fn shut_down_saving(&mut self) {
        use std::io::{BufRead, BufReader, Write};
        let mut connection =
            std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("redis-server accepts");
        connection.write_all(b"SAVE\r\n").expect("SAVE is sent");
        let mut saved = String::new();
        BufReader::new(connection)
            .read_line(&mut saved)
            .expect("SAVE is answered");
        assert_eq!(saved.trim_end(), "+OK", "redis-server saves its data");
        self.stop();
    }

    /// Starts the server again on the same port with the data it saved, if any.
    pub fn start_again(&mut self) {
        self.stop();
        if let Err(failure) = self.spawn() {
            panic!("redis-server does not start again: {failure}");
        }
    }
}
