//! The command line of an example server that can run as one of several replicas: the options
//! every server shares ([`ServerOptions`]) and `--redis URL [--prefix NAME]` (or
//! `--redis-cluster URL[,URL...]`), the store the replicas share.

use std::error::Error;
use std::time::Duration;

use elicit_mcp::rmcp::Tasks;
use elicit_mcp::server::RedisStore;

use super::{OPTIONS_HELP, ServerOptions};

/// The lines of `--help` that describe the options of [`ReplicaOptions`].
pub const REPLICA_HELP: &str = concat!(
    "  --redis URL             keep what the replicas share in this Redis (redis://HOST:PORT/)\n",
    "  --redis-cluster URLS    or in this Redis Cluster: the URLs of some of its nodes, separated\n",
    "                          by commas (redis://HOST:PORT,redis://HOST:PORT)\n",
    "  --prefix NAME           this server's keys and channels in Redis (default: elicit)\n",
    "  --task-lease SECONDS    how long a replica's tasks outlive its last heartbeat before the\n",
    "                          others fail them (default: 15)",
);

/// The command line of a server that may share a Redis with other replicas of itself.
///
/// ```
/// use elicit_examples::http::ReplicaOptions;
///
/// let args = ["--redis", "redis://127.0.0.1:6379/", "--prefix", "demo", "127.0.0.1:3000"];
/// let options = ReplicaOptions::parse_from(args.map(String::from), "usage")
///     .unwrap()
///     .expect("no --help");
/// assert_eq!(options.redis(), Some("redis://127.0.0.1:6379/"));
/// assert_eq!(options.prefix(), "demo");
/// assert_eq!(options.server.address(), Some("127.0.0.1:3000"));
///
/// let args = ["--redis-cluster", "redis://10.0.0.1:7000,redis://10.0.0.2:7000"];
/// let options = ReplicaOptions::parse_from(args.map(String::from), "usage")
///     .unwrap()
///     .expect("no --help");
/// assert_eq!(
///     options.redis_cluster(),
///     Some(&["redis://10.0.0.1:7000".to_owned(), "redis://10.0.0.2:7000".to_owned()][..])
/// );
/// assert!(options.redis().is_none() && options.shares_redis());
/// ```
#[derive(Debug, Clone)]
pub struct ReplicaOptions {
    /// The options every example server shares.
    pub server: ServerOptions,
    redis: Option<String>,
    redis_cluster: Option<Vec<String>>,
    prefix: String,
    task_lease: Duration,
}

impl ReplicaOptions {
    /// The options from the command line; `None` once `--help` has printed `usage` and them.
    pub fn parse(usage: &str) -> Result<Option<Self>, Box<dyn Error>> {
        Self::parse_from(std::env::args().skip(1), usage)
    }

    /// [`parse`](Self::parse) from the arguments given.
    pub fn parse_from(
        args: impl IntoIterator<Item = String>,
        usage: &str,
    ) -> Result<Option<Self>, Box<dyn Error>> {
        let mut options = ReplicaOptions {
            server: ServerOptions::default(),
            redis: None,
            redis_cluster: None,
            prefix: RedisStore::DEFAULT_PREFIX.to_owned(),
            task_lease: Tasks::DEFAULT_LEASE,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--help" | "-h" => {
                    println!("{usage}\n\n{REPLICA_HELP}\n{OPTIONS_HELP}");
                    return Ok(None);
                }
                "--redis" => {
                    let url = args
                        .next()
                        .ok_or("--redis needs a URL, e.g. redis://127.0.0.1:6379/")?;
                    options.redis = Some(url);
                }
                "--redis-cluster" => {
                    let urls = args.next().ok_or(
                        "--redis-cluster needs the URLs of some of its nodes, separated by \
                         commas, e.g. redis://127.0.0.1:7000,redis://127.0.0.1:7001",
                    )?;
                    let urls: Vec<String> = urls
                        .split(',')
                        .map(str::trim)
                        .filter(|url| !url.is_empty())
                        .map(str::to_owned)
                        .collect();
                    if urls.is_empty() {
                        return Err("--redis-cluster names no node".into());
                    }
                    options.redis_cluster = Some(urls);
                }
                "--prefix" => options.prefix = args.next().ok_or("--prefix needs a name")?,
                "--task-lease" => {
                    let value = args
                        .next()
                        .ok_or("--task-lease needs a number of seconds")?;
                    let seconds: f64 = value
                        .parse()
                        .map_err(|e| format!("--task-lease `{value}`: {e}"))?;
                    options.task_lease = Duration::try_from_secs_f64(seconds)
                        .ok()
                        .filter(|lease| !lease.is_zero())
                        .ok_or_else(|| {
                            format!("--task-lease `{value}`: not a positive number of seconds")
                        })?;
                }
                _ if options.server.take(&arg, &mut args)? => {}
                _ => return Err(format!("unknown option `{arg}`; {usage}").into()),
            }
        }
        if options.redis.is_some() && options.redis_cluster.is_some() {
            return Err(
                "--redis and --redis-cluster: give one Redis, a server or a cluster".into(),
            );
        }
        if !options.shares_redis() && options.prefix != RedisStore::DEFAULT_PREFIX {
            return Err("--prefix names keys in Redis: give --redis or --redis-cluster too".into());
        }
        Ok(Some(options))
    }

    /// The Redis URL given (`--redis`), if any.
    pub fn redis(&self) -> Option<&str> {
        self.redis.as_deref()
    }

    /// The URLs of the Redis Cluster's nodes given (`--redis-cluster`), if any.
    pub fn redis_cluster(&self) -> Option<&[String]> {
        self.redis_cluster.as_deref()
    }

    /// Whether the replicas share a Redis, a server or a cluster.
    pub fn shares_redis(&self) -> bool {
        self.redis.is_some() || self.redis_cluster.is_some()
    }

    /// The prefix of this server's keys and channels in Redis.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// How long a replica's tasks outlive its last heartbeat (`--task-lease`).
    pub fn task_lease(&self) -> Duration {
        self.task_lease
    }

    /// The store the replicas share, connected, when `--redis` or `--redis-cluster` was given.
    pub async fn store(&self) -> Result<Option<RedisStore>, Box<dyn Error>> {
        let store = match (&self.redis, &self.redis_cluster) {
            (Some(url), _) => RedisStore::connect(url)
                .await
                .map_err(|e| format!("cannot use Redis at {url}: {e}"))?,
            (None, Some(nodes)) => RedisStore::connect_cluster(nodes)
                .await
                .map_err(|e| format!("cannot use the Redis Cluster of {nodes:?}: {e}"))?,
            (None, None) => return Ok(None),
        };
        Ok(Some(store.with_prefix(&self.prefix)))
    }
}
