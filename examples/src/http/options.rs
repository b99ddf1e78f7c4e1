//! The command line every example server on streamable HTTP shares: where it listens, how large
//! a request body may be, and how long a 2025-11-25 ask waits for the client.

use std::error::Error;
use std::time::Duration;

use elicit_mcp::http::Guard;
use elicit_mcp::rmcp::Elicitation;

/// The largest request body the example servers accept unless told otherwise: the guard's
/// default.
pub const DEFAULT_MAX_BODY_BYTES: usize = Guard::DEFAULT_MAX_BODY_BYTES;

/// The lines of `--help` that describe the options of [`ServerOptions`].
pub const OPTIONS_HELP: &str = concat!(
    "  ADDRESS                 where to listen, on loopback (default: a free port on 127.0.0.1)\n",
    "  --max-body-bytes BYTES  the largest request body accepted; a larger one is answered 413\n",
    "                          (default: 262144, 256 KiB)\n",
    "  --max-bytes-in-flight BYTES\n",
    "                          how many bytes of request bodies one client (a session, or an\n",
    "                          address) may have in flight; more wait (default: the body limit)\n",
    "  --ask-timeout SECONDS   how long a 2025-11-25 ask waits for the client's answer before\n",
    "                          the tool sees a timeout (default: elicit's Elicitation::DEFAULT_TIMEOUT)\n",
    "  --session-idle SECONDS  how long a 2025-11-25 session that sends nothing is kept, as one\n",
    "                          whose client vanished without a DELETE (default: rmcp's, 300)",
);

/// Where to listen and the limits of one server, read from its command line.
///
/// ```
/// use elicit_examples::http::ServerOptions;
///
/// let args = ["--max-body-bytes", "1024", "--ask-timeout", "2", "127.0.0.1:3000"];
/// let options = ServerOptions::parse_from(args.map(String::from), "usage")
///     .unwrap()
///     .expect("no --help");
/// assert_eq!(options.max_body_bytes(), 1024);
/// assert_eq!(options.address(), Some("127.0.0.1:3000"));
/// ```
#[derive(Debug, Clone)]
pub struct ServerOptions {
    address: Option<String>,
    max_body_bytes: usize,
    max_bytes_in_flight: Option<usize>,
    ask_timeout: Option<Duration>,
    session_idle: Option<Duration>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            address: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_bytes_in_flight: None,
            ask_timeout: None,
            session_idle: None,
        }
    }
}

impl ServerOptions {
    /// The options of a server that has no others, from its command line; `None` once
    /// `--help` has printed `usage` and the options.
    pub fn parse(usage: &str) -> Result<Option<Self>, Box<dyn Error>> {
        Self::parse_from(std::env::args().skip(1), usage)
    }

    /// [`parse`](Self::parse) from the arguments given.
    pub fn parse_from(
        args: impl IntoIterator<Item = String>,
        usage: &str,
    ) -> Result<Option<Self>, Box<dyn Error>> {
        let mut options = ServerOptions::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            if arg == "--help" || arg == "-h" {
                println!("{usage}\n\n{OPTIONS_HELP}");
                return Ok(None);
            }
            if !options.take(&arg, &mut args)? {
                return Err(format!("unknown option `{arg}`; {usage}").into());
            }
        }
        Ok(Some(options))
    }

    /// Takes `arg`, and the value that follows it in `rest`, when it is one of these options or
    /// the address; `false` when it is an option of the server's own.
    pub fn take(
        &mut self,
        arg: &str,
        rest: &mut impl Iterator<Item = String>,
    ) -> Result<bool, Box<dyn Error>> {
        match arg {
            "--max-body-bytes" => {
                let value = rest
                    .next()
                    .ok_or("--max-body-bytes needs a number of bytes")?;
                self.max_body_bytes = value
                    .parse()
                    .map_err(|e| format!("--max-body-bytes `{value}`: {e}"))?;
            }
            "--max-bytes-in-flight" => {
                let value = rest
                    .next()
                    .ok_or("--max-bytes-in-flight needs a number of bytes")?;
                self.max_bytes_in_flight = match value.parse() {
                    Ok(0) => return Err("--max-bytes-in-flight must be at least 1".into()),
                    Ok(bytes) => Some(bytes),
                    Err(e) => return Err(format!("--max-bytes-in-flight `{value}`: {e}").into()),
                };
            }
            "--ask-timeout" => self.ask_timeout = Some(seconds(arg, rest.next())?),
            "--session-idle" => self.session_idle = Some(seconds(arg, rest.next())?),
            flag if flag.starts_with("--") => return Ok(false),
            _ if self.address.is_some() => {
                return Err(format!("unexpected argument `{arg}` after the address").into());
            }
            _ => self.address = Some(arg.to_owned()),
        }
        Ok(true)
    }

    /// The address given, if any.
    pub fn address(&self) -> Option<&str> {
        self.address.as_deref()
    }

    /// The largest request body accepted, in bytes.
    pub fn max_body_bytes(&self) -> usize {
        self.max_body_bytes
    }

    /// The guard in front of rmcp, with the limits given.
    pub fn guard(&self) -> Guard {
        let guard = Guard::new().with_max_body_bytes(self.max_body_bytes);
        match self.max_bytes_in_flight {
            Some(bytes) => guard.with_max_bytes_in_flight_per_client(bytes),
            None => guard,
        }
    }

    /// How long an idle session is kept, if given.
    pub fn session_idle(&self) -> Option<Duration> {
        self.session_idle
    }

    /// `elicitation` with the ask timeout given, if one was.
    pub fn elicitation(&self, elicitation: Elicitation) -> Elicitation {
        match self.ask_timeout {
            Some(timeout) => elicitation.with_timeout(timeout),
            None => elicitation,
        }
    }

    /// A listener on the address given (loopback only), or on a free port of 127.0.0.1.
    pub async fn listen(&self) -> Result<tokio::net::TcpListener, Box<dyn Error>> {
        let address = crate::listen_address(self.address())?;
        Ok(tokio::net::TcpListener::bind(address).await?)
    }
}

/// The value of `option`, a number of seconds (fractions allowed).
fn seconds(option: &str, value: Option<String>) -> Result<Duration, Box<dyn Error>> {
    let value = value.ok_or_else(|| format!("{option} needs a number of seconds"))?;
    let seconds: f64 = value
        .parse()
        .map_err(|e| format!("{option} `{value}`: {e}"))?;
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("{option} `{value}`: {e}").into())
}
