//! An example server as its own process, so that what it costs is read from the kernel
//! (`/proc/PID/status`, `/proc/PID/fd`) without the clients' memory mixed in.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdout, Command, Stdio};

use crate::examples_built::examples_dir;

/// A running example server; stopped when dropped.
pub struct ServerProcess {
    child: Child,
    /// Kept open: the server may print more, and a closed pipe would fail its `println!`.
    _stdout: BufReader<ChildStdout>,
    url: String,
}

/// The server's memory, in KiB: what it holds now (`VmRSS`) and the most it has held
/// (`VmHWM`).
#[derive(Clone, Copy, Debug)]
pub struct Memory {
    pub rss_kib: u64,
    pub peak_kib: u64,
}

impl ServerProcess {
    /// Starts the built example `name` with `args` and waits for the URL it prints
    /// (`listening on http://.../mcp`).
    pub fn start(name: &str, args: &[&str]) -> Self {
        Self::start_with_env(name, args, &[])
    }

    /// [`start`](Self::start) with these variables added to its environment.
    pub fn start_with_env(name: &str, args: &[&str], env: &[(&str, &str)]) -> Self {
        let program = examples_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        let mut child = Command::new(&program)
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", program.display()));
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("the server prints a line");
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in the server's first line: {line:?}"))
            .to_owned();
        ServerProcess {
            child,
            _stdout: stdout,
            url,
        }
    }

    /// The URL of its MCP endpoint.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The address it listens on, `HOST:PORT`: what a load balancer names as a backend.
    pub fn address(&self) -> &str {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
    }

    pub fn memory(&self) -> Memory {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status is readable");
        let kib = |field: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(field))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|number| number.parse().ok())
                .unwrap_or_else(|| panic!("no {field} in /proc/PID/status"))
        };
        Memory {
            rss_kib: kib("VmRSS:"),
            peak_kib: kib("VmHWM:"),
        }
    }

    /// How many file descriptors the server holds (its sockets among them).
    pub fn open_fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .expect("the server's fds are listable")
            .count()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
