//! The Redis server of a Redis test: the one named by `REDIS_URL`, else a throwaway
//! `redis-server` of the test's own on a free loopback port (a fresh data dir, no persistence,
//! stopped and removed when dropped).
//!
//! A fresh machine has no `redis-server`, so every Redis test is
//! `#[ignore = "needs redis-server ..."]`: `cargo test --workspace` reports it ignored, and
//! `cargo test -- --include-ignored` runs it where Debian's `redis-server` is installed (or
//! `REDIS_URL` names a server), as `.ci/run` does. Asked to run without either, it fails saying
//! what to install; it never passes unrun.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a started `redis-server` may take to accept connections.
const STARTUP_LIMIT: Duration = Duration::from_secs(10);

/// A Redis server for one test: `REDIS_URL`'s, or a `redis-server` of the test's own.
pub enum Redis {
    /// The server `REDIS_URL` names.
    Given(String),
    /// A server this test started (see `redis_restart.rs` to stop and restart it).
    Own(OwnServer),
}

impl Redis {
    /// `REDIS_URL`'s server when it is set, else a server of this test's own.
    pub fn for_test(test: &str) -> Redis {
        match std::env::var("REDIS_URL") {
            Ok(url) if !url.trim().is_empty() => Redis::Given(url),
            _ => Redis::Own(OwnServer::start(test)),
        }
    }

    /// The server's URL.
    pub fn url(&self) -> String {
        match self {
            Redis::Given(url) => url.clone(),
            Redis::Own(server) => server.url(),
        }
    }
}

/// A key prefix no other test run uses, so tests sharing one Redis do not see each other.
pub fn fresh_prefix(test: &str) -> String {
    let random = elicit_mcp::wire::ElicitationId::random().unwrap();
    format!("elicit-test:{test}:{}", &random.as_str()[..12])
}

/// A `redis-server` child process on 127.0.0.1.
pub struct OwnServer {
    pub(crate) port: u16,
    pub(crate) dir: PathBuf,
    child: Option<Child>,
}

impl OwnServer {
    pub(crate) fn start(test: &str) -> OwnServer {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "elicit-redis-{}-{}-{test}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a data dir for redis-server");
        // A port just freed can be taken again before the server binds it: try a few.
        let mut last_failure = String::new();
        for _ in 0..5 {
            let mut server = OwnServer {
                port: free_port(),
                dir: dir.clone(),
                child: None,
            };
            match server.spawn() {
                Ok(()) => return server,
                Err(failure) => last_failure = failure,
            }
        }
        panic!("{test}: {last_failure}");
    }

    /// The server's URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    pub(crate) fn spawn(&mut self) -> Result<(), String> {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| {
                format!(
                    "this test needs Redis: redis-server could not be started ({error}); \
                     install it (`apt-get install redis-server`) or set REDIS_URL"
                )
            })?;
        self.child = Some(child);
        let began = Instant::now();
        while began.elapsed() < STARTUP_LIMIT {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return Ok(());
            }
            if let Some(child) = &mut self.child
                && let Ok(Some(status)) = child.try_wait()
            {
                self.child = None;
                return Err(format!(
                    "redis-server exited ({status}) on port {}",
                    self.port
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.stop();
        Err(format!(
            "redis-server did not accept connections on port {} within {STARTUP_LIMIT:?}",
            self.port
        ))
    }

    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}
