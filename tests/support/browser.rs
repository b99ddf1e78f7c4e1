//! A browser for the tests: plain HTTP/1.1 over a socket, one request per connection, cookies
//! carried by hand or in a [`Browser`]'s jar.

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

/// A browser with a cookie jar: the cookies each answer sets are kept (one per name, the
/// newest; gone when set to expire at once) and sent with its next requests.
#[derive(Default)]
pub struct Browser {
    cookies: Vec<String>,
}

impl Browser {
    /// A browser of user `name`, signed in with the development sign-in (`DevelopmentLogin`)
    /// of the server at `origin`: its form, then the form posted with its token.
    pub fn signed_in(origin: &str, name: &str) -> Browser {
        let mut browser = Browser::default();
        let login = format!("{origin}/login");
        let form = browser.request("GET", &login, None);
        assert_eq!(form.status, 200, "{}", form.body);
        let token = hidden_field(&form, "_csrf").expect("the sign-in's CSRF token");
        let fields = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("user", name)
            .append_pair("_csrf", &token)
            .finish();
        let signed = browser.request("POST", &login, Some(&fields));
        assert_eq!(signed.status, 303, "{}", signed.body);
        browser
    }

    /// A request of `method` to `url` with the browser's cookies, and `form` as its body; the
    /// cookies the answer sets are kept.
    pub fn request(&mut self, method: &str, url: &str, form: Option<&str>) -> Answer {
        let answer = request(method, url, &self.cookies, form);
        for (name, value) in &answer.headers {
            if name.eq_ignore_ascii_case("set-cookie") {
                self.keep(value);
            }
        }
        answer
    }

    /// The cookies it holds, as `name=value`.
    pub fn cookies(&self) -> &[String] {
        &self.cookies
    }

    fn keep(&mut self, set_cookie: &str) {
        let pair = set_cookie.split(';').next().unwrap_or_default().trim();
        let name = pair.split('=').next().unwrap_or_default();
        self.cookies
            .retain(|kept| kept.split('=').next() != Some(name));
        let expired = set_cookie
            .split(';')
            .any(|attribute| attribute.trim().eq_ignore_ascii_case("max-age=0"));
        if !expired {
            self.cookies.push(pair.to_owned());
        }
    }
}

/// The value of the first input named `name` of a page, its HTML escapes read back.
pub fn hidden_field(page: &Answer, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let at = page.body.find(&marker)? + marker.len();
    let escaped = page.body[at..].split('"').next()?;
    Some(
        escaped
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}
