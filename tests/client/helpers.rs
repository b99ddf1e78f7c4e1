//! The client side: answering a bad `elicitation/create` with -32602, preparing a form's
//! answer (defaults, then validation), reviewing a URL before consent, and following
//! completion notifications.

use std::net::TcpListener;

use elicit_mcp::client::{
    Completion, InvalidElicitRequestError, UrlElicitationWatch, UrlReview, UrlReviewError,
    UrlWarning, accept_form, validate_request,
};
use elicit_mcp::schema::RequestedSchema;
use elicit_mcp::wire::{
    ElicitAction, ElicitMode, ElicitRequestParams, ElicitationCapability,
    ElicitationCompleteNotification, ElicitationId, JsonRpcError, UrlElicitationRequiredError,
};
use elicit_test_support::spec::assert_valid;
use serde_json::{Map, Value, json};

fn url_request() -> Value {
    json!({
        "mode": "url",
        "elicitationId": "550e8400-e29b-41d4-a716-446655440000",
        "url": "https://mcp.example.com/ui/set_api_key",
        "message": "Please provide your API key to continue."
    })
}

fn form_request(properties: Value) -> Value {
    json!({
        "message": "Please fill in the form",
        "requestedSchema": {"type": "object", "properties": properties}
    })
}

fn object(value: Value) -> Map<String, Value> {
    value.as_object().cloned().expect("an object")
}

// ---------------------------------------------------------------------------------------------
// Validating incoming requests

#[test]
fn a_mode_the_client_did_not_declare_is_answered_with_32602() {
    let form = form_request(json!({"name": {"type": "string"}}));
    let cases = [
        (
            url_request(),
            Some(ElicitationCapability::form()),
            ElicitMode::Url,
        ),
        (
            url_request(),
            Some(ElicitationCapability::default()),
            ElicitMode::Url,
        ),
        (url_request(), None, ElicitMode::Url),
        (
            form.clone(),
            Some(ElicitationCapability::url()),
            ElicitMode::Form,
        ),
        (form, None, ElicitMode::Form),
    ];
    for (params, declared, mode) in cases {
        let err = validate_request(&params, declared.as_ref()).unwrap_err();
        assert!(
            matches!(&err, InvalidElicitRequestError::ModeNotDeclared(e) if e.mode == mode),
            "{err:?}"
        );
        let rpc = err.to_jsonrpc_error();
        assert_eq!(rpc.code, JsonRpcError::INVALID_PARAMS);
        assert_eq!(rpc.data, Some(json!({"mode": mode.as_str()})));
        assert_valid("Error", &serde_json::to_value(&rpc).unwrap());
    }
}

#[test]
fn declared_modes_are_accepted_and_no_mode_is_form_mode() {
    let both = ElicitationCapability::form_and_url();
    let legacy = ElicitationCapability::default();
    let params = validate_request(&url_request(), Some(&both)).unwrap();
    assert_eq!(params.mode(), ElicitMode::Url);
    let form = form_request(json!({"name": {"type": "string"}}));
    for declared in [&both, &legacy] {
        let params = validate_request(&form, Some(declared)).unwrap();
        let ElicitRequestParams::Form(form) = params else {
            panic!("not form mode")
        };
        assert_eq!(form.requested_schema.properties()[0].name, "name");
    }
    let mut explicit = form_request(json!({}));
    explicit["mode"] = json!("form");
    assert!(validate_request(&explicit, Some(&legacy)).is_ok());
}

#[test]
fn a_form_schema_outside_the_subset_is_answered_with_32602_naming_the_property() {
    let declared = ElicitationCapability::form();
    let cases = [
        (
            json!({"address": {"type": "object", "properties": {}}}),
            "address",
        ),
        (
            json!({"items": {"type": "array", "items": {"type": "object"}}}),
            "items",
        ),
        (json!({"ok": {"type": "boolean", "minLength": 1}}), "ok"),
        (
            json!({"when": {"type": "string", "format": "time"}}),
            "when",
        ),
        (
            json!({"tags": {"type": "array", "items": {"type": "string"}}}),
            "tags",
        ),
        (json!({"n": {"type": "null"}}), "n"),
        (json!({"x": {}}), "x"),
    ];
    for (properties, property) in cases {
        let err = validate_request(&form_request(properties.clone()), Some(&declared)).unwrap_err();
        let InvalidElicitRequestError::InvalidSchema(schema_error) = &err else {
            panic!("{properties}: {err:?}")
        };
        assert_eq!(schema_error.property(), Some(property));
        let rpc = err.to_jsonrpc_error();
        assert_eq!(rpc.code, -32602);
        assert!(
            rpc.message.contains(&format!("property `{property}`")),
            "{}",
            rpc.message
        );
        assert_eq!(rpc.data.as_ref().unwrap()["property"], property);
    }
    // Faults in the outer object have no property, but still say where.
    let mut required = form_request(json!({"a": {"type": "string"}}));
    required["requestedSchema"]["required"] = json!(["b"]);
    let err = validate_request(&required, Some(&declared)).unwrap_err();
    assert!(err.to_string().contains("property `b`"), "{err}");
    let mut not_object = form_request(json!({}));
    not_object["requestedSchema"]["type"] = json!("array");
    let err = validate_request(&not_object, Some(&declared)).unwrap_err();
    assert!(err.to_string().contains("keyword `type`"), "{err}");
}

#[test]
fn malformed_requests_are_answered_with_32602_saying_what_is_missing() {
    let both = ElicitationCapability::form_and_url();
    let mut cases: Vec<(Value, &str)> = Vec::new();
    for missing in ["elicitationId", "url", "message"] {
        let mut params = url_request();
        params.as_object_mut().unwrap().remove(missing);
        cases.push((params, missing));
    }
    let mut no_schema = form_request(json!({}));
    no_schema.as_object_mut().unwrap().remove("requestedSchema");
    cases.push((no_schema, "requestedSchema"));
    let mut numeric_url = url_request();
    numeric_url["url"] = json!(42);
    cases.push((numeric_url, "integer"));
    for (params, needle) in cases {
        let err = validate_request(&params, Some(&both)).unwrap_err();
        assert!(
            matches!(err, InvalidElicitRequestError::Malformed { .. }),
            "{params}: {err:?}"
        );
        let rpc = JsonRpcError::from(err);
        assert_eq!(rpc.code, -32602);
        assert!(rpc.message.contains(needle), "{needle}: {}", rpc.message);
    }
    let err = validate_request(&json!({"mode": "voice", "message": "m"}), Some(&both)).unwrap_err();
    assert_eq!(
        err,
        InvalidElicitRequestError::UnknownMode {
            mode: "voice".into()
        }
    );
    assert_eq!(err.to_jsonrpc_error().code, -32602);
    let err = validate_request(&json!({"mode": 1, "message": "m"}), Some(&both)).unwrap_err();
    assert!(matches!(err, InvalidElicitRequestError::Malformed { .. }));
    let err = validate_request(&json!(["not", "an", "object"]), Some(&both)).unwrap_err();
    assert_eq!(err, InvalidElicitRequestError::NotAnObject);
}

#[test]
fn a_url_request_whose_url_cannot_be_opened_is_answered_with_32602() {
    let both = ElicitationCapability::form_and_url();
    for url in [
        "not a url",
        "/relative/path",
        "javascript:alert(1)",
        "file:///etc/passwd",
    ] {
        let mut params = url_request();
        params["url"] = json!(url);
        let err = validate_request(&params, Some(&both)).unwrap_err();
        assert!(
            matches!(err, InvalidElicitRequestError::InvalidUrl(_)),
            "{url}: {err:?}"
        );
        let rpc = err.to_jsonrpc_error();
        assert_eq!(rpc.code, -32602);
        assert!(rpc.message.starts_with("`url`: "), "{}", rpc.message);
    }
}

// ---------------------------------------------------------------------------------------------
// Answering forms

/// The form of conformance scenario `elicitation-sep1034-client-defaults`: every primitive
/// type with a default. A client that accepts without the user touching a field sends the
/// defaults.
fn defaults_form() -> RequestedSchema {
    serde_json::from_value(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "default": true},
            "plan": {"type": "string", "oneOf": [{"const": "free", "title": "Free"}, {"const": "pro", "title": "Pro"}], "default": "pro"},
            "colors": {"type": "array", "items": {"type": "string", "enum": ["red", "green"]}, "default": ["green"]}
        }
    }))
    .unwrap()
}

#[test]
fn accepting_a_form_fills_in_the_defaults_the_user_left_out() {
    let result = accept_form(&defaults_form(), Map::new()).unwrap();
    assert_eq!(result.action, ElicitAction::Accept);
    assert_eq!(
        Value::Object(result.content.clone().unwrap()),
        json!({
            "name": "John Doe", "age": 30, "score": 95.5, "status": "active",
            "verified": true, "plan": "pro", "colors": ["green"]
        })
    );
    assert_valid("ElicitResult", &serde_json::to_value(&result).unwrap());

    // What the user gave wins over the default.
    let given = object(json!({"name": "Ada", "verified": false}));
    let content = accept_form(&defaults_form(), given)
        .unwrap()
        .content
        .unwrap();
    assert_eq!(content["name"], "Ada");
    assert_eq!(content["verified"], false);
    assert_eq!(content["age"], 30);
}

#[test]
fn a_form_answer_is_validated_against_the_schema_before_sending() {
    // From text, so the properties keep the sender's order whatever serde_json's map does.
    let schema: RequestedSchema = serde_json::from_str(
        r#"{
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 3},
            "email": {"type": "string", "format": "email"},
            "age": {"type": "number", "minimum": 18}
        },
        "required": ["name", "email"]
    }"#,
    )
    .unwrap();
    let err = accept_form(&schema, object(json!({"name": "Al", "age": 12}))).unwrap_err();
    let fields: Vec<&str> = err.errors().iter().map(|e| e.field()).collect();
    assert_eq!(fields, ["name", "email", "age"]);
    // The same checks as the shared validator, not a copy of them.
    let content = object(json!({"name": "Al", "age": 12}));
    assert_eq!(schema.validate_content(&content).unwrap_err(), err);

    let good =
        object(json!({"name": "Monalisa Octocat", "email": "octocat@github.com", "age": 30}));
    assert!(accept_form(&schema, good).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Reviewing URLs

fn warnings(url: &str) -> Vec<UrlWarning> {
    UrlReview::new(url).unwrap().warnings().to_vec()
}

#[test]
fn the_spec_url_reviews_clean_with_its_domain_picked_out() {
    let review = UrlReview::new("https://mcp.example.com/ui/set_api_key").unwrap();
    assert_eq!(review.url(), "https://mcp.example.com/ui/set_api_key");
    assert_eq!(review.host(), "mcp.example.com");
    assert_eq!(review.registrable_domain(), Some("example.com"));
    assert_eq!(review.subdomain(), Some("mcp"));
    assert_eq!(review.scheme(), "https");
    assert_eq!(review.port(), None);
    assert!(review.warnings().is_empty());
    assert_eq!(
        review.to_string(),
        "https://mcp.example.com/ui/set_api_key\nsite: example.com (address mcp.example.com)"
    );
}

#[test]
fn a_subdomain_spoof_shows_the_real_registrable_domain() {
    let review = UrlReview::new("https://accounts.google.com.sign-in.net/oauth").unwrap();
    assert_eq!(review.registrable_domain(), Some("sign-in.net"));
    assert_eq!(review.subdomain(), Some("accounts.google.com"));
    assert!(review.to_string().contains("site: sign-in.net"));
    let review = UrlReview::new("https://login.bank.co.uk.attacker.co.uk/").unwrap();
    assert_eq!(review.registrable_domain(), Some("attacker.co.uk"));
    assert_eq!(review.subdomain(), Some("login.bank.co.uk"));
}

#[test]
fn a_punycode_look_alike_domain_is_flagged() {
    // "аpple.com" with a Cyrillic "а", as sent (Punycode) and as typed (Unicode).
    for url in [
        "https://xn--pple-43d.com/login",
        "https://\u{430}pple.com/login",
    ] {
        let review = UrlReview::new(url).unwrap();
        assert_eq!(review.host(), "xn--pple-43d.com");
        assert_eq!(review.host_unicode(), "\u{430}pple.com");
        assert_eq!(review.registrable_domain(), Some("\u{430}pple.com"));
        let warnings = review.warnings();
        assert!(warnings.contains(&UrlWarning::Punycode {
            ascii: "xn--pple-43d.com".into(),
            unicode: "\u{430}pple.com".into()
        }));
        assert!(warnings.contains(&UrlWarning::MixedScripts {
            label: "\u{430}pple".into()
        }));
        assert!(warnings.contains(&UrlWarning::LooksLike {
            host: "apple.com".into()
        }));
        assert!(review.to_string().contains("imitates \"apple.com\""));
    }
    // Every letter Cyrillic: one script, but still a look-alike.
    let whole_script = warnings("https://\u{430}\u{440}\u{440}\u{4cf}\u{435}.com/");
    assert!(
        whole_script.contains(&UrlWarning::LooksLike {
            host: "apple.com".into()
        }),
        "{whole_script:?}"
    );
    assert!(
        !whole_script
            .iter()
            .any(|w| matches!(w, UrlWarning::MixedScripts { .. }))
    );
}

#[test]
fn a_genuine_idn_is_flagged_as_idn_only() {
    let review = UrlReview::new("https://bücher.de/").unwrap();
    assert_eq!(review.host(), "xn--bcher-kva.de");
    assert_eq!(review.registrable_domain(), Some("bücher.de"));
    assert_eq!(
        review.warnings(),
        [UrlWarning::Punycode {
            ascii: "xn--bcher-kva.de".into(),
            unicode: "bücher.de".into()
        }]
    );
}

#[test]
fn http_ip_hosts_and_userinfo_are_flagged() {
    assert_eq!(
        warnings("http://mcp.example.com/connect"),
        [UrlWarning::NotHttps]
    );
    let ip = UrlReview::new("https://192.0.2.1:8443/connect").unwrap();
    assert_eq!(ip.registrable_domain(), None);
    assert_eq!(ip.port(), Some(8443));
    assert!(matches!(ip.warnings(), [UrlWarning::IpAddressHost { .. }]));
    assert!(matches!(
        warnings("https://[2001:db8::1]/")[..],
        [UrlWarning::IpAddressHost { .. }]
    ));

    let review = UrlReview::new("https://github.com@evil.example.net/").unwrap();
    assert_eq!(review.registrable_domain(), Some("example.net"));
    assert_eq!(
        review.warnings(),
        [UrlWarning::Userinfo {
            userinfo: "github.com".into()
        }]
    );
}

#[test]
fn hidden_characters_and_bare_suffixes_are_flagged() {
    assert!(
        warnings("https://example.com/\u{202e}gpj.exe").contains(&UrlWarning::HiddenCharacters)
    );
    assert!(warnings("https://exa\tmple.com/").contains(&UrlWarning::HiddenCharacters));
    assert!(warnings("https://example.com/a\u{200b}b").contains(&UrlWarning::HiddenCharacters));
    assert_eq!(
        warnings("https://github.io/"),
        [UrlWarning::NoRegistrableDomain]
    );
    assert_eq!(
        warnings("https://localhost/"),
        [UrlWarning::NoRegistrableDomain]
    );
}

#[test]
fn only_web_urls_can_be_reviewed_for_opening() {
    for url in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,hi",
        "vscode://x/y",
    ] {
        assert!(
            matches!(
                UrlReview::new(url),
                Err(UrlReviewError::UnsupportedScheme { .. })
            ),
            "{url}"
        );
    }
    for url in ["/relative", "example.com/path", ""] {
        assert!(
            matches!(UrlReview::new(url), Err(UrlReviewError::NotAbsolute { .. })),
            "{url}"
        );
    }
}

#[test]
fn reviewing_never_fetches_the_url() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!(
        "http://127.0.0.1:{}/connect",
        listener.local_addr().unwrap().port()
    );
    let params = json!({"mode": "url", "elicitationId": "e", "url": url, "message": "m"});
    let ElicitRequestParams::Url(request) =
        validate_request(&params, Some(&ElicitationCapability::url())).unwrap()
    else {
        panic!("not URL mode")
    };
    let review = UrlReview::of(&request).unwrap();
    assert_eq!(review.url(), url);
    let _ = review.to_string();
    let err = listener.accept().unwrap_err();
    assert_eq!(
        err.kind(),
        std::io::ErrorKind::WouldBlock,
        "something connected to the URL"
    );
}

// ---------------------------------------------------------------------------------------------
// Completion notifications

fn completion(id: &str) -> ElicitationCompleteNotification {
    ElicitationCompleteNotification::new(ElicitationId::new(id))
}

fn required(ids: &[&str]) -> UrlElicitationRequiredError {
    let entries: Vec<Value> = ids
        .iter()
        .map(|id| json!({"mode": "url", "elicitationId": id, "url": "https://mcp.example.com/connect", "message": "m"}))
        .collect();
    serde_json::from_value(
        json!({"code": -32042, "message": "m", "data": {"elicitations": entries}}),
    )
    .unwrap()
}

#[test]
fn notifications_for_unknown_or_completed_ids_are_ignored() {
    let mut watch: UrlElicitationWatch<u32> = UrlElicitationWatch::new();
    assert_eq!(
        watch.on_complete(&completion("never-seen")),
        Completion::Ignored
    );

    let ElicitRequestParams::Url(params) = serde_json::from_value(url_request()).unwrap() else {
        panic!("not URL mode")
    };
    assert_eq!(watch.track(&params), Ok(true));
    assert_eq!(watch.track(&params), Ok(false), "already pending");
    let id = params.elicitation_id().as_str();
    assert!(watch.is_pending(params.elicitation_id()));
    assert_eq!(
        watch.on_complete(&completion(id)),
        Completion::Completed {
            ready_to_retry: vec![]
        }
    );
    assert_eq!(watch.on_complete(&completion(id)), Completion::Ignored);
    assert_eq!(watch.track(&params), Ok(false), "already completed");
    assert_eq!(watch.pending().count(), 0);
}

#[test]
fn a_request_is_retried_once_all_its_elicitations_completed() {
    let mut watch = UrlElicitationWatch::new();
    assert_eq!(watch.retry_after(1, &required(&["a", "b"])), Ok(None));
    assert_eq!(watch.retry_after(2, &required(&["b"])), Ok(None));
    assert_eq!(
        watch.on_complete(&completion("b")),
        Completion::Completed {
            ready_to_retry: vec![2]
        }
    );
    assert_eq!(watch.on_complete(&completion("x")), Completion::Ignored);
    assert_eq!(
        watch.on_complete(&completion("a")),
        Completion::Completed {
            ready_to_retry: vec![1]
        }
    );
    // A -32042 listing only completed elicitations can be retried at once.
    assert_eq!(watch.retry_after(3, &required(&["a", "b"])), Ok(Some(3)));
}

#[test]
fn abandoning_an_elicitation_gives_back_the_requests_that_waited_on_it() {
    let mut watch = UrlElicitationWatch::new();
    assert_eq!(
        watch.retry_after("call-1", &required(&["a", "b"])),
        Ok(None)
    );
    assert_eq!(watch.retry_after("call-2", &required(&["c"])), Ok(None));
    assert_eq!(watch.abandon(&ElicitationId::new("a")), ["call-1"]);
    assert_eq!(watch.on_complete(&completion("a")), Completion::Ignored);
    // `b` is still news, with nothing left to retry.
    assert_eq!(
        watch.on_complete(&completion("b")),
        Completion::Completed {
            ready_to_retry: vec![]
        }
    );
    assert_eq!(
        watch.on_complete(&completion("c")),
        Completion::Completed {
            ready_to_retry: vec!["call-2"]
        }
    );
}

#[test]
fn a_watch_is_bounded_and_says_so_when_full() {
    let mut watch: UrlElicitationWatch<u32> = UrlElicitationWatch::with_capacity(2);
    assert_eq!(UrlElicitationWatch::<u32>::new().capacity(), 64);
    assert_eq!(watch.capacity(), 2);
    assert_eq!(watch.retry_after(1, &required(&["a", "b"])), Ok(None));
    // A third elicitation would pass the bound: the request comes back, nothing is dropped.
    let full = watch.retry_after(2, &required(&["c"])).unwrap_err();
    assert_eq!(full.capacity(), 2);
    assert!(full.to_string().contains('2'), "{full}");
    assert_eq!(full.into_request(), 2);
    assert!(!watch.is_pending(&ElicitationId::new("c")));
    // Ids already waited on need no room.
    assert_eq!(watch.retry_after(3, &required(&["b"])), Ok(None));
    let ElicitRequestParams::Url(params) = serde_json::from_value(url_request()).unwrap() else {
        panic!("not URL mode")
    };
    assert!(watch.track(&params).is_err());
    // Once one completes, there is room again.
    assert_eq!(
        watch.on_complete(&completion("b")),
        Completion::Completed {
            ready_to_retry: vec![3]
        }
    );
    assert_eq!(watch.track(&params), Ok(true));
}
