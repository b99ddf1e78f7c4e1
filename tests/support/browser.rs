//! A browser for the tests: plain HTTP/1.1 over a socket, one request per connection, a cookie
//! carried by hand.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// What a page answered.
pub struct Page {
    pub status: u16,
    /// The first cookie it set, as `name=value`.
    pub set_cookie: Option<String>,
    pub body: String,
}

/// A request of `method` to `url` (with `cookie`), as a browser sends it, without a body.
pub fn browse(method: &str, url: &str, cookie: Option<&str>) -> Page {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{cookie}Content-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let set_cookie = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("set-cookie").then(|| {
            value
                .trim()
                .split(';')
                .next()
                .unwrap_or_default()
                .to_owned()
        })
    });
    Page {
        status,
        set_cookie,
        body: body.to_owned(),
    }
}
