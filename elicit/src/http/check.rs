//! The JSON-RPC check of a POST body: what rmcp would misanswer, answered here with the
//! JSON-RPC error the spec names. Nothing is built: the body is read once into borrowed
//! `RawValue`s, whose kinds are read from their first byte, and once more as rmcp will read it
//! into values (every string unescaped, every number parsed), keeping none of them.

use rmcp::model::{ErrorData, RequestId};
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::error::Category;
use serde_json::value::RawValue;

/// What the guard answers in rmcp's place.
#[derive(Debug, PartialEq)]
pub(crate) enum Refusal {
    /// -32700: the body is not JSON.
    Parse(String),
    /// -32600: JSON, but not a JSON-RPC message rmcp can take.
    InvalidRequest(Option<RequestId>, String),
    /// -32602: a request elicit serves whose params have a member of the wrong type.
    InvalidParams(RequestId, String),
}

impl Refusal {
    /// The request's id (when it has a usable one) and the error to answer it with.
    pub(crate) fn into_error(self) -> (Option<RequestId>, ErrorData) {
        match self {
            Refusal::Parse(message) => (
                None,
                ErrorData::parse_error(format!("Parse error: {message}"), None),
            ),
            Refusal::InvalidRequest(id, message) => (
                id,
                ErrorData::invalid_request(format!("Invalid Request: {message}"), None),
            ),
            Refusal::InvalidParams(id, message) => (
                Some(id),
                ErrorData::invalid_params(format!("Invalid params: {message}"), None),
            ),
        }
    }
}

/// `None` when rmcp can take `body` as it is; otherwise what to answer instead.
pub(crate) fn check(body: &[u8]) -> Option<Refusal> {
    if well_formed_request(body) {
        return None;
    }
    refusal(body)
}

/// Whether `body` is certainly a request rmcp can take, decided in one read of it: the common
/// case, where reading the params again (as [`refusal`] does, to name what is wrong) would
/// double the guard's cost. Anything it does not accept goes to [`refusal`], which decides.
pub(crate) fn well_formed_request(body: &[u8]) -> bool {
    // serde reads a struct from an array too (by position): only an object is read as one.
    if body.iter().find(|byte| !byte.is_ascii_whitespace()) != Some(&b'{') {
        return false;
    }
    let Ok(text) = std::str::from_utf8(body) else {
        return false;
    };
    let Ok(message) = serde_json::from_str::<RequestEnvelope<'_>>(text) else {
        return false;
    };
    if message.jsonrpc.get() != r#""2.0""#
        || message.result.is_some()
        || message.error.is_some()
        || usable_id(Some(message.id)).is_none()
    {
        return false;
    }
    let Some(method) = method_name(Some(message.method)) else {
        return false;
    };
    let params_taken = match required_member(&method) {
        None => true,
        Some(required) => message
            .params
            .is_some_and(|ObjectParams(members)| members_problems(&members, required).is_none()),
    };
    params_taken && undecodable(text).is_none()
}

/// The checks that name what is wrong with `body`, `None` when nothing is.
pub(crate) fn refusal(body: &[u8]) -> Option<Refusal> {
    shape_refusal(body).or_else(|| undecodable(std::str::from_utf8(body).ok()?))
}

/// What is wrong with `body` as a JSON-RPC message, its members' values left unread.
fn shape_refusal(body: &[u8]) -> Option<Refusal> {
    // JSON text is UTF-8 (RFC 8259, 8.1). serde_json checks it only in the strings it reads,
    // not in those it skips, so it is checked here, once.
    let body = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(error) => return Some(Refusal::Parse(format!("the body is not UTF-8: {error}"))),
    };
    // serde reads a struct from an array too (its members by position): only an object is
    // read as one.
    let first = body.bytes().find(|byte| !byte.is_ascii_whitespace());
    if first.is_some_and(|byte| byte != b'{') && serde_json::from_str::<IgnoredAny>(body).is_ok() {
        let message = if first == Some(b'[') {
            "a JSON array (a batch); MCP takes one JSON-RPC message per request"
        } else {
            "a JSON-RPC message is a JSON object"
        };
        return Some(Refusal::InvalidRequest(None, message.to_owned()));
    }
    let message = match serde_json::from_str::<Envelope<'_>>(body) {
        Ok(message) => message,
        Err(error) => return Some(envelope_error(body, &error)),
    };
    if message.jsonrpc.map(RawValue::get) != Some(r#""2.0""#) {
        let found = match message.jsonrpc {
            Some(version) => format!("got {}", version.get()),
            None => "it is missing".to_owned(),
        };
        return Some(Refusal::InvalidRequest(
            usable_id(message.id),
            format!(r#"`jsonrpc` must be "2.0", {found}"#),
        ));
    }
    let present = (
        message.method.is_some(),
        message.id.is_some(),
        message.result.is_some(),
        message.error.is_some(),
    );
    // The shapes rmcp tells apart (model.rs, `JsonRpcMessageShape`): request, notification,
    // response, error.
    match present {
        (true, true, false, false) => request(&message),
        (true, false, false, false) => notification(&message),
        (false, _, true, false) => response(&message),
        (false, _, false, true) => error_response(&message),
        _ => Some(Refusal::InvalidRequest(
            usable_id(message.id),
            "not a request (`method` and `id`), a notification (`method`), a result (`id` and \
             `result`) or an error (`error`)"
                .to_owned(),
        )),
    }
}

/// The body did not read as one JSON object: broken JSON (-32700), or an object rmcp cannot
/// read (a member twice: -32600). An error of the envelope's reading of a first value that is
/// no object (`"id"x`) is decided by whether the whole body is JSON at all.
fn envelope_error(body: &str, error: &serde_json::Error) -> Refusal {
    match error.classify() {
        Category::Syntax | Category::Eof | Category::Io => Refusal::Parse(error.to_string()),
        Category::Data => match serde_json::from_str::<IgnoredAny>(body) {
            Err(not_json) => Refusal::Parse(not_json.to_string()),
            Ok(_) => Refusal::InvalidRequest(None, error.to_string()),
        },
    }
}

/// JSON by its grammar that serde_json cannot read into values, as rmcp reads every body: a
/// string with a lone surrogate escape (`"\ud800"`), a number beyond `f64` (`1e999`). The
/// reads above skip what they do not need unread, so rmcp would be first to find it, and
/// would answer 415 with a text instead of -32700.
fn undecodable(body: &str) -> Option<Refusal> {
    let error = serde_json::from_str::<Decodable>(body).err()?;
    Some(Refusal::Parse(format!(
        "the body is JSON that cannot be read into values: {error}"
    )))
}

fn request(message: &Envelope<'_>) -> Option<Refusal> {
    let Some(id) = usable_id(message.id) else {
        let found = message.id.map_or("nothing", kind);
        return Some(Refusal::InvalidRequest(
            None,
            format!("a request's `id` must be a string or an integer, got {found}"),
        ));
    };
    let Some(method) = method_name(message.method) else {
        return Some(Refusal::InvalidRequest(
            Some(id),
            format!(
                "`method` must be a string, got {}",
                message.method.map_or("nothing", kind)
            ),
        ));
    };
    if let Some(params) = message.params
        && !is_structured(params)
    {
        return Some(Refusal::InvalidRequest(
            Some(id),
            format!("`params` must be an object, got {}", kind(params)),
        ));
    }
    let required = required_member(&method)?;
    let problems = match message.params.filter(|params| params.get() != "null") {
        None => format!("`{method}` needs params with `{required}`"),
        Some(params) => params_problems(params, required)?,
    };
    Some(Refusal::InvalidParams(id, problems))
}

fn notification(message: &Envelope<'_>) -> Option<Refusal> {
    if method_name(message.method).is_none() {
        return Some(Refusal::InvalidRequest(
            None,
            format!(
                "`method` must be a string, got {}",
                message.method.map_or("nothing", kind)
            ),
        ));
    }
    let params = message.params?;
    (!is_structured(params)).then(|| {
        Refusal::InvalidRequest(
            None,
            format!("`params` must be an object, got {}", kind(params)),
        )
    })
}

/// A client's answer to a request of the server's (an `elicitation/create`, say).
fn response(message: &Envelope<'_>) -> Option<Refusal> {
    if usable_id(message.id).is_none() {
        return Some(Refusal::InvalidRequest(
            None,
            format!(
                "a result's `id` must be a string or an integer, got {}",
                message.id.map_or("nothing", kind)
            ),
        ));
    }
    None
}

fn error_response(message: &Envelope<'_>) -> Option<Refusal> {
    let id = message.id.filter(|id| id.get() != "null");
    if id.is_some() && usable_id(id).is_none() {
        return Some(Refusal::InvalidRequest(
            None,
            format!(
                "an error's `id` must be a string, an integer or null, got {}",
                id.map_or("nothing", kind)
            ),
        ));
    }
    let error = message.error?;
    let problem = match serde_json::from_str::<ErrorProbe<'_>>(error.get()) {
        Ok(ErrorProbe { code, message }) => {
            if serde_json::from_str::<i32>(code.get()).is_err() {
                format!("`error.code` must be an integer, got {}", code.get())
            } else if !message.get().starts_with('"') {
                format!("`error.message` must be a string, got {}", kind(message))
            } else {
                return None;
            }
        }
        Err(_) if !error.get().starts_with('{') => {
            format!("`error` must be an object, got {}", kind(error))
        }
        Err(problem) => format!("`error`: {problem}"),
    };
    Some(Refusal::InvalidRequest(usable_id(id), problem))
}

/// The member of its params that rmcp's model needs for a request elicit serves: `name` for
/// `tools/call` and `prompts/get`, `uri` for `resources/read`; `None` for other methods.
fn required_member(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// Every member of the params of `tools/call`, `prompts/get` or `resources/read` that rmcp's
/// model would not take (its request enum is untagged, so such a request falls through to a
/// custom request answered -32601), listed together; `None` when there is none.
fn params_problems(params: &RawValue, required: &str) -> Option<String> {
    let members = match serde_json::from_str::<ParamsProbe<'_>>(params.get()) {
        Ok(members) => members,
        Err(_) if !params.get().starts_with('{') => {
            return Some(format!("`params` must be an object, got {}", kind(params)));
        }
        Err(error) => return Some(format!("`params`: {error}")),
    };
    members_problems(&members, required)
}

/// Every member of `members` (params read as an object) that rmcp's model would not take.
fn members_problems(members: &ParamsProbe<'_>, required: &str) -> Option<String> {
    let required_value = if required == "name" {
        members.name
    } else {
        members.uri
    };
    let problems: Vec<String> = [
        match required_value {
            None => Some(format!("`{required}` must be a string, got nothing")),
            value => mistyped(required, value, b'"', "a string"),
        },
        // `resources/read` has no `arguments`; a stray one is rmcp's to ignore.
        (required == "name")
            .then(|| mistyped("arguments", optional(members.arguments), b'{', "an object"))
            .flatten(),
        mistyped("_meta", optional(members.meta), b'{', "an object"),
        mistyped(
            "requestState",
            optional(members.request_state),
            b'"',
            "a string",
        ),
        mistyped(
            "inputResponses",
            optional(members.input_responses),
            b'{',
            "an object",
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!problems.is_empty()).then(|| problems.join("; "))
}

/// What is wrong with member `name` when its `value` is there and not of the kind that opens
/// with `opening`.
fn mistyped(name: &str, value: Option<&RawValue>, opening: u8, what: &str) -> Option<String> {
    let value = value?;
    (value.get().as_bytes().first() != Some(&opening))
        .then(|| format!("`{name}` must be {what}, got {}", kind(value)))
}

/// `null` for an optional member is the member left out, as rmcp's `Option`s read it.
fn optional(value: Option<&RawValue>) -> Option<&RawValue> {
    value.filter(|value| value.get() != "null")
}

/// What kind of JSON value `value` is, in the words of an error message.
fn kind(value: &RawValue) -> &'static str {
    match value.get().as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// JSON-RPC's params are structured, an object or an array; `null` reads as params left out.
fn is_structured(params: &RawValue) -> bool {
    matches!(params.get().as_bytes().first(), Some(b'{' | b'[' | b'n'))
}

/// The id as rmcp reads it (a string, or an integer that fits an `i64`), or `None`.
fn usable_id(id: Option<&RawValue>) -> Option<RequestId> {
    serde_json::from_str(id?.get()).ok()
}

fn method_name<'a>(method: Option<&'a RawValue>) -> Option<std::borrow::Cow<'a, str>> {
    serde_json::from_str(method?.get()).ok()
}

/// The members of one JSON-RPC message, borrowed unread. A member given as `null` is
/// `Some("null")`, not `None`: `"id": null` is not an absent id.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// The members of the params of the requests elicit serves.
#[derive(Deserialize)]
struct ParamsProbe<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    name: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    uri: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "_meta", deserialize_with = "present")]
    meta: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "requestState", deserialize_with = "present")]
    request_state: Option<&'a RawValue>,
    #[serde(
        borrow,
        default,
        rename = "inputResponses",
        deserialize_with = "present"
    )]
    input_responses: Option<&'a RawValue>,
}

/// A request's members as [`well_formed_request`] reads them: a message without `jsonrpc`,
/// `id` or `method`, or with params that are not an object, does not read as one.
#[derive(Deserialize)]
struct RequestEnvelope<'a> {
    #[serde(borrow)]
    jsonrpc: &'a RawValue,
    #[serde(borrow)]
    id: &'a RawValue,
    #[serde(borrow)]
    method: &'a RawValue,
    #[serde(borrow, default)]
    params: Option<ObjectParams<'a>>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// Params that are a JSON object (serde would read a struct from an array too), their members
/// read in the same pass as the message.
struct ObjectParams<'a>(ParamsProbe<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for ObjectParams<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<'a>(PhantomData<ObjectParams<'a>>);

impl<'de: 'a, 'a> Visitor<'de> for ObjectVisitor<'a> {
    type Value = ObjectParams<'a>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("params that are an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        ParamsProbe::deserialize(MapAccessDeserializer::new(map)).map(ObjectParams)
    }
}

#[derive(Deserialize)]
struct ErrorProbe<'a> {
    #[serde(borrow)]
    code: &'a RawValue,
    #[serde(borrow)]
    message: &'a RawValue,
}

/// A JSON value read to its end as serde_json reads one into a `Value`, and kept nowhere.
struct Decodable;

impl<'de> Deserialize<'de> for Decodable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DecodableVisitor)
    }
}

struct DecodableVisitor;

impl<'de> Visitor<'de> for DecodableVisitor {
    type Value = Decodable;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Decodable, E> {
        Ok(Decodable)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Decodable, E> {
        Ok(Decodable)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Decodable, E> {
        Ok(Decodable)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Decodable, E> {
        Ok(Decodable)
    }

    fn visit_str<E>(self, _: &str) -> Result<Decodable, E> {
        Ok(Decodable)
    }

    fn visit_unit<E>(self) -> Result<Decodable, E> {
        Ok(Decodable)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Decodable, A::Error> {
        while items.next_element::<Decodable>()?.is_some() {}
        Ok(Decodable)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Decodable, A::Error> {
        while members.next_entry::<Decodable, Decodable>()?.is_some() {}
        Ok(Decodable)
    }
}

/// A member that is there, `null` included.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(body: &str) -> Option<(i32, String)> {
        check(body.as_bytes()).map(|refusal| {
            let (_, error) = refusal.into_error();
            (error.code.0, error.message.into_owned())
        })
    }

    #[test]
    fn well_formed_messages_pass() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":null,"requestState":null,"_meta":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a","inputResponses":{}}}"#,
        ] {
            assert_eq!(code(body), None, "{body}");
        }
    }

    #[test]
    fn each_bad_member_is_named() {
        let (code, message) = code(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":[],"_meta":1,"requestState":{},"inputResponses":"x"}}"#,
        )
        .unwrap();
        assert_eq!(code, -32602);
        assert_eq!(
            message,
            "Invalid params: `name` must be a string, got a number; `arguments` must be an object, got an array; `_meta` must be an object, got a number; `requestState` must be a string, got an object; `inputResponses` must be an object, got a string"
        );
        let (_, message) =
            super::tests::code(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}}"#)
                .unwrap();
        assert_eq!(
            message,
            "Invalid params: `uri` must be a string, got nothing"
        );
    }

    #[test]
    fn the_one_read_accepts_only_what_the_full_check_accepts() {
        let good = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}"#;
        assert!(well_formed_request(good.as_bytes()));
        for body in [
            // A struct read by position from an array, in the message and in its params.
            r#"["2.0",1,"tools/call",{"name":"x"}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","name":"y"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"},"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"name":"x"}}"#,
        ] {
            assert!(!well_formed_request(body.as_bytes()), "{body}");
            assert!(refusal(body.as_bytes()).is_some(), "{body}");
        }
        // Params by position: the full check decides.
        let by_position = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["x",{}]}"#;
        assert!(!well_formed_request(by_position.as_bytes()));
    }

    #[test]
    fn shapes_that_are_not_messages_are_invalid_requests() {
        for body in ["{}", "[]", "5", r#"{"jsonrpc":"2.0","id":[],"method":"x"}"#] {
            assert_eq!(code(body).map(|c| c.0), Some(-32600), "{body}");
        }
        assert_eq!(code(r#"{"jsonrpc":"#).map(|c| c.0), Some(-32700));
    }

    /// Found by fuzzing (`fuzz/fuzz_targets/http_body.rs`): a body that is not JSON is a parse
    /// error, -32700, also when serde_json skips its bytes unread (a string that is not UTF-8)
    /// or reads a first value before finding what follows it broken.
    #[test]
    fn what_is_not_json_is_a_parse_error_wherever_it_is_broken() {
        for body in [
            &b"[\"\xff\"]"[..],
            b"\"\xff\"",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xf2.0\"}",
            b"{\"jsonrpc\":\"\xf2.0\",\"id\":1,\"method\":\"ping\"}",
            b"\"id\"fls\0\0:",
            b"5 5",
            b"[] {}",
            // JSON by its grammar, found by fuzzing too: rmcp cannot read these into values.
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","_meta":{"x":"\ud800x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"n":1e999}}}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized","\udfff":1}"#,
            br#"{"jsonrpc":"2.0","id":7,"result":{"content":{"a":[-1e400]}}}"#,
        ] {
            let refused = check(body).map(|refusal| refusal.into_error().1);
            assert_eq!(
                refused.as_ref().map(|error| error.code.0),
                Some(-32700),
                "{}: {refused:?}",
                String::from_utf8_lossy(body)
            );
        }
    }
}
