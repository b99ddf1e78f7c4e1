//! A browser for the tests: plain HTTP/1.1 over a socket, one request per connection, cookies
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

/// A whole answer: its status, every header, and the body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The first header `name`, in any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Each cookie it set, as `name=value`.
    pub fn cookies(&self) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(key, _)| key.eq_ignore_ascii_case("set-cookie"))
            .map(|(_, value)| value.split(';').next().unwrap_or_default().to_owned())
            .collect()
    }
}

/// A request of `method` to `url` (with `cookie`), as a browser sends it, without a body.
pub fn browse(method: &str, url: &str, cookie: Option<&str>) -> Page {
    let cookies: Vec<String> = cookie.into_iter().map(str::to_owned).collect();
    let answer = request(method, url, &cookies, None);
    Page {
        status: answer.status,
        set_cookie: answer.cookies().into_iter().next(),
        body: answer.body,
    }
}

/// A request of `method` to `url` with `cookies`, and `form` as an
/// `application/x-www-form-urlencoded` body when given, as a browser sends it.
pub fn request(method: &str, url: &str, cookies: &[String], form: Option<&str>) -> Answer {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let cookie = if cookies.is_empty() {
        String::new()
    } else {
        format!("Cookie: {}\r\n", cookies.join("; "))
    };
    let body = form.unwrap_or_default();
    let content_type = if form.is_some() {
        "Content-Type: application/x-www-form-urlencoded\r\n"
    } else {
        ""
    };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{cookie}{content_type}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}
