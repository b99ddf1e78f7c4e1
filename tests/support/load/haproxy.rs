//! HAProxy (Debian's `haproxy`) in front of replicas on loopback, as the replicas' runs put
//! it: round-robin, a 2025-11-25 session kept on its replica by its `Mcp-Session-Id`, health
//! checks, a failed connection sent to another replica.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// HAProxy in front of `backends` on a free loopback port; stopped when dropped.
pub struct Proxy {
    child: Child,
    dir: std::path::PathBuf,
    /// Its origin, `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Proxy {
    /// HAProxy in front of `backends` (`HOST:PORT` each). A port picked free can be taken as
    /// the source port of an outgoing connection (a replica's to Redis) before haproxy binds
    /// it, and haproxy then exits: another port is tried, up to five.
    pub fn start(backends: &[String]) -> Proxy {
        let dir = std::env::temp_dir().join(format!("elicit-haproxy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a dir for haproxy's config");
        for _ in 0..5 {
            if let Some(proxy) = Self::try_start(backends, &dir) {
                return proxy;
            }
        }
        panic!("haproxy did not listen on any of five free ports (apt-get install haproxy)");
    }

    /// HAProxy on one free port, if it binds it.
    fn try_start(backends: &[String], dir: &std::path::Path) -> Option<Proxy> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let servers: String = backends
            .iter()
            .enumerate()
            .map(|(index, backend)| {
                format!("    server replica-{index} {backend} check inter 500ms fall 2 rise 2\n")
            })
            .collect();
        let config = format!(
            "global\n    maxconn 1024\ndefaults\n    mode http\n    retries 3\n    \
             option redispatch\n    option http-no-delay\n    timeout connect 2s\n    timeout client 120s\n    \
             timeout server 120s\nfrontend mcp\n    bind 127.0.0.1:{port}\n    \
             default_backend replicas\nbackend replicas\n    balance roundrobin\n    \
             stick-table type string len 64 size 100k expire 30m\n    \
             stick match req.hdr(mcp-session-id)\n    \
             stick store-response res.hdr(mcp-session-id)\n{servers}"
        );
        let path = dir.join("haproxy.cfg");
        std::fs::write(&path, config).expect("haproxy's config is written");
        let mut child = Command::new("haproxy")
            .arg("-f")
            .arg(&path)
            .arg("-db")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts (apt-get install haproxy)");
        let began = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if matches!(child.try_wait(), Ok(Some(_))) {
                return None;
            }
            assert!(began.elapsed() < Duration::from_secs(10), "haproxy listens");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Proxy {
            child,
            dir: dir.to_owned(),
            url: format!("http://127.0.0.1:{port}"),
        })
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
