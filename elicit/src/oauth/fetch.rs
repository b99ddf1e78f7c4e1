//! The requests a resource server makes to its authorization server: a JSON document read
//! whole within a size limit, over reqwest with rustls.

use std::fmt;
use std::time::Duration;

use serde::de::DeserializeOwned;

/// The largest document read from the authorization server: metadata, a key set and an
/// introspection answer are a few KiB; a larger one is refused rather than held.
const MAX_DOCUMENT_BYTES: usize = 512 * 1024;

/// The HTTP client, shared by the verifiers of one configuration.
#[derive(Clone)]
pub(crate) struct Fetch {
    client: reqwest::Client,
}

/// Why a document could not be had: the URL and what went wrong.
#[derive(Debug)]
pub(crate) struct FetchError {
    pub url: String,
    pub problem: String,
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.url, self.problem)
    }
}

impl Fetch {
    pub fn new(timeout: Duration) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            // A metadata URL that redirects elsewhere would let that host answer for the
            // issuer; the documents are fetched where the issuer says they are.
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Fetch { client })
    }

    /// The JSON document at `url`.
    pub async fn get<T: DeserializeOwned>(&self, url: &str) -> Result<T, FetchError> {
        let request = self
            .client
            .get(url)
            .header(http::header::ACCEPT, "application/json");
        self.read(url, request).await
    }

    /// The JSON answer to a form posted to `url` with HTTP Basic client authentication
    /// (RFC 6749 section 2.3.1: the id and secret form-encoded, then joined).
    pub async fn post_form<T: DeserializeOwned>(
        &self,
        url: &str,
        client_id: &str,
        client_secret: &str,
        form: &[(&str, &str)],
    ) -> Result<T, FetchError> {
        let encode =
            |text: &str| url::form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
        let request = self
            .client
            .post(url)
            .basic_auth(encode(client_id), Some(encode(client_secret)))
            .header(http::header::ACCEPT, "application/json")
            .form(form);
        self.read(url, request).await
    }

    /// The answer to `request` as it came, status and body, the body within the size limit:
    /// the HTTP client of the page's login (oauth2 builds its token request and reads the
    /// answer itself).
    #[cfg(feature = "page")]
    pub async fn send(
        &self,
        request: http::Request<Vec<u8>>,
    ) -> Result<http::Response<Vec<u8>>, FetchError> {
        let url = request.uri().to_string();
        let failed = |problem: String| FetchError {
            url: url.clone(),
            problem,
        };
        let request = reqwest::Request::try_from(request)
            .map_err(|error| failed(format!("the request could not be made ({error})")))?;
        let mut response = self
            .client
            .execute(request)
            .await
            .map_err(|error| failed(format!("the request failed ({error})")))?;
        let mut answer = http::Response::builder().status(response.status());
        for (name, value) in response.headers() {
            answer = answer.header(name, value);
        }
        let body = read_limited(&mut response).await.map_err(failed)?;
        answer
            .body(body)
            .map_err(|error| failed(format!("the answer could not be read ({error})")))
    }

    async fn read<T: DeserializeOwned>(
        &self,
        url: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<T, FetchError> {
        let failed = |problem: String| FetchError {
            url: url.to_owned(),
            problem,
        };
        let mut response = request
            .send()
            .await
            .map_err(|error| failed(format!("the request failed ({error})")))?;
        let status = response.status();
        if status != reqwest::StatusCode::OK {
            return Err(failed(format!("answered {status}")));
        }
        let body = read_limited(&mut response).await.map_err(failed)?;
        serde_json::from_slice(&body)
            .map_err(|error| failed(format!("the answer is not the JSON expected ({error})")))
    }
}

/// The body of `response`, at most [`MAX_DOCUMENT_BYTES`].
async fn read_limited(response: &mut reqwest::Response) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| format!("the answer broke off ({error})"))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(format!(
                "the answer is larger than {MAX_DOCUMENT_BYTES} bytes"
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

impl std::error::Error for FetchError {}
