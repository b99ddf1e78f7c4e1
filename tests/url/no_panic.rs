//! No input to the URL-mode and protocol entry points panics: every one returns a value or a
//! typed error. Inputs are arbitrary text, and JSON built from the spec's own keys and values so
//! that the parsers get past their first check and into the deep paths.

use std::sync::LazyLock;

use elicit_mcp::UrlConsent;
use elicit_mcp::client::{UrlElicitationWatch, UrlReview, accept_form, validate_request};
use elicit_mcp::schema::RequestedSchema;
use elicit_mcp::server::{
    ConnectionId, ElicitationTracker, Initiator, UrlPolicy, UserId, links_in_form,
};
use elicit_mcp::wire::{
    ElicitRequest, ElicitRequestParams, ElicitRequestUrlParams, ElicitResult,
    ElicitationCapability, ElicitationCompleteNotification, ElicitationId, JsonRpcError, RequestId,
    UrlElicitationRequiredError,
};
use proptest::prelude::*;
use serde_json::{Map, Value};

const KEYS: &[&str] = &[
    "mode",
    "message",
    "url",
    "elicitationId",
    "requestedSchema",
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "const",
    "title",
    "description",
    "default",
    "minimum",
    "maximum",
    "minLength",
    "format",
    "code",
    "data",
    "elicitations",
    "form",
    "jsonrpc",
    "method",
    "params",
    "id",
    "action",
    "content",
    "_meta",
];

const WORDS: &[&str] = &[
    "url",
    "form",
    "object",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "accept",
    "decline",
    "cancel",
    "2.0",
    "elicitation/create",
    "notifications/elicitation/complete",
    "email",
    "uri",
    "date",
    "date-time",
    "https://mcp.example.com/connect?elicitationId=1",
    "http://127.0.0.1:1/",
    "https://xn--pple-43d.com/",
    "https://u:p@h/",
    "javascript:x",
    "https://\u{430}pple.com/",
    "https://[::1]/",
    "https://a.b.c.co.uk./",
    "",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(WORDS).prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(KEYS).prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        Just(Value::from(-32042)),
        Just(Value::from(u64::MAX)),
        any::<f64>()
            .prop_filter_map("finite", serde_json::Number::from_f64)
            .prop_map(Value::Number),
        word().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A URL-ish string: a scheme, maybe userinfo, a host of ASCII, Unicode or Punycode labels,
/// maybe a port, path, query and fragment.
fn urlish() -> impl Strategy<Value = String> {
    let scheme = prop_oneof![
        Just("https"),
        Just("http"),
        Just("file"),
        Just("data"),
        Just("x")
    ];
    let label = prop_oneof![
        "[a-z0-9-]{1,8}",
        "xn--[a-z0-9-]{0,10}",
        "\\PC{1,4}",
        Just("\u{430}pple".to_owned()),
    ];
    let host = proptest::collection::vec(label, 1..4).prop_map(|labels| labels.join("."));
    (
        scheme,
        proptest::option::of("[a-z:@]{0,6}"),
        host,
        proptest::option::of(any::<u16>()),
        "\\PC{0,12}",
    )
        .prop_map(|(scheme, userinfo, host, port, rest)| {
            let userinfo = userinfo.map(|u| format!("{u}@")).unwrap_or_default();
            let port = port.map(|p| format!(":{p}")).unwrap_or_default();
            format!("{scheme}://{userinfo}{host}{port}/{rest}")
        })
}

fn capabilities() -> [Option<ElicitationCapability>; 5] {
    [
        None,
        Some(ElicitationCapability::default()),
        Some(ElicitationCapability::form()),
        Some(ElicitationCapability::url()),
        Some(ElicitationCapability::form_and_url()),
    ]
}

/// Drives the async tracker; its memory store's futures are ready at once.
static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime")
});

static TRACKER: LazyLock<ElicitationTracker> =
    LazyLock::new(|| ElicitationTracker::new(UrlPolicy::development()));

/// Every deserializing entry point, on one text.
fn parse_all_from_str(text: &str) {
    let _ = serde_json::from_str::<ElicitRequestParams>(text);
    let _ = serde_json::from_str::<ElicitRequestUrlParams>(text);
    let _ = serde_json::from_str::<ElicitRequest>(text);
    let _ = serde_json::from_str::<ElicitationCompleteNotification>(text);
    let _ = serde_json::from_str::<UrlElicitationRequiredError>(text);
    let _ = serde_json::from_str::<JsonRpcError>(text);
    let _ = serde_json::from_str::<ElicitationCapability>(text);
    let _ = serde_json::from_str::<RequestId>(text);
    let _ = serde_json::from_str::<ElicitResult>(text);
}

/// Every entry point that takes a JSON value, and what can be done with what they return.
fn exercise_value(value: &Value) {
    parse_all_from_str(&value.to_string());
    for declared in capabilities() {
        match validate_request(value, declared.as_ref()) {
            Ok(params) => exercise_params(params, value, declared.as_ref()),
            Err(e) => {
                let _ = serde_json::to_string(&e.to_jsonrpc_error());
            }
        }
    }
    let _ = ElicitationCapability::of_client(value);
    let error = JsonRpcError {
        code: value
            .get("code")
            .and_then(Value::as_i64)
            .and_then(|code| i32::try_from(code).ok())
            .unwrap_or(-32042),
        message: "m".to_owned(),
        data: value.get("data").cloned().or_else(|| Some(value.clone())),
    };
    if let Ok(required) = UrlElicitationRequiredError::try_from(&error) {
        let mut watch = UrlElicitationWatch::new();
        let _ = watch.retry_after(0u8, &required);
        for id in required.elicitation_ids() {
            let _ = watch.on_complete(&ElicitationCompleteNotification::new(id.clone()));
        }
        let _ = serde_json::to_string(&required);
    }
    if let Ok(schema) = RequestedSchema::from_value(value) {
        let content = value.as_object().cloned().unwrap_or_default();
        let _ = accept_form(&schema, content);
    }
    if let Ok(result) = serde_json::from_value::<ElicitResult>(value.clone()) {
        let _ = UrlConsent::from_result(&result);
    }
}

fn exercise_params(
    params: ElicitRequestParams,
    value: &Value,
    declared: Option<&ElicitationCapability>,
) {
    let _ = serde_json::to_string(&params);
    let _ = ElicitRequest::new(RequestId::from(1), params.clone(), declared);
    match params {
        ElicitRequestParams::Form(form) => {
            let _ = links_in_form(&form);
            let content = value.get("content").and_then(Value::as_object).cloned();
            let _ = accept_form(&form.requested_schema, content.unwrap_or_default());
        }
        ElicitRequestParams::Url(url) => {
            if let Ok(review) = UrlReview::of(&url) {
                let _ = review.to_string();
            }
            let mut watch = UrlElicitationWatch::<()>::new();
            let _ = watch.track(&url);
        }
        other => panic!("no exercise for the params {other:?}: add one here"),
    }
}

fn exercise_url(url: &str, subject: &str) {
    if let Ok(review) = UrlReview::new(url) {
        let _ = (
            review.to_string(),
            review.registrable_domain(),
            review.subdomain(),
        );
    }
    let _ = UrlPolicy::production().check(url);
    let _ = UrlPolicy::development().check_for_user(url, &[subject, ""]);
    if let Ok(user) = UserId::from_verified_subject(subject) {
        let initiator = Initiator::new(user.clone(), ConnectionId::new(subject));
        let declared = ElicitationCapability::url();
        RUNTIME.block_on(async {
            let _ = TRACKER
                .start(&initiator, Some(&declared), url, |_| url.to_owned())
                .await;
            let _ = TRACKER.verify(url, &user).await;
            let _ = TRACKER.complete(url, &user).await;
            let _ = TRACKER.discard(subject, &user).await;
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn no_text_makes_a_parser_panic(text in any::<String>()) {
        parse_all_from_str(&text);
    }

    #[test]
    fn no_json_makes_an_entry_point_panic(value in json()) {
        exercise_value(&value);
    }

    #[test]
    fn no_request_shaped_json_makes_an_entry_point_panic(
        mode in proptest::option::of(word()),
        message in json(),
        url in prop_oneof![urlish().prop_map(Value::String), json()],
        id in json(),
        schema in json(),
        content in json(),
    ) {
        let mut params = Map::new();
        if let Some(mode) = mode {
            params.insert("mode".into(), Value::String(mode));
        }
        params.insert("message".into(), message);
        params.insert("url".into(), url);
        params.insert("elicitationId".into(), id);
        params.insert("requestedSchema".into(), schema);
        params.insert("content".into(), content);
        exercise_value(&Value::Object(params));
    }

    #[test]
    fn no_url_makes_a_review_or_check_panic(url in prop_oneof![urlish(), any::<String>()], subject in word()) {
        exercise_url(&url, &subject);
    }

    #[test]
    fn no_id_makes_the_client_watch_panic(ids in proptest::collection::vec(word(), 0..8)) {
        let mut watch = UrlElicitationWatch::new();
        for (i, id) in ids.iter().enumerate() {
            let notification = ElicitationCompleteNotification::new(ElicitationId::new(id.clone()));
            if i % 3 == 0 {
                let _ = watch.abandon(notification.elicitation_id());
            }
            let _ = watch.on_complete(&notification);
            let _ = watch.retry_after(i, &required_for(id));
        }
    }
}

fn required_for(id: &str) -> UrlElicitationRequiredError {
    serde_json::from_value(serde_json::json!({"code": -32042, "message": "m", "data": {
        "elicitations": [{"mode": "url", "elicitationId": id, "url": "https://e.example/", "message": "m"}]
    }}))
    .unwrap_or_else(|e| panic!("a well-formed error did not read: {e}"))
}
