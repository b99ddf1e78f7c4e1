//! The protocol model against the spec: every example message of the elicitation page reads
//! into its type and writes back as the same JSON, and what the types write validates against
//! the official JSON schema. Then the shapes the spec forbids, refused.

use elicit_mcp::wire::{
    ElicitAction, ElicitMode, ElicitRequest, ElicitRequestParams, ElicitRequestUrlParams,
    ElicitResult, ElicitationCapability, ElicitationCompleteNotification, ElicitationId,
    JsonRpcError, NotUrlElicitationRequiredError, RequestId, UrlElicitationRequiredError,
};
use elicit_mcp::{ElicitOutcome, UrlConsent};
use elicit_test_support as support;
use elicit_test_support::spec_page::Example;
use serde_json::{Value, json};

fn method(message: &Value) -> Option<&str> {
    message.get("method").and_then(Value::as_str)
}

/// Reads `T` from the example's text and checks it writes back as the same JSON.
fn assert_round_trips<T: serde::de::DeserializeOwned + serde::Serialize>(example: &Example) -> T {
    let typed: T = example.read();
    assert_eq!(
        serde_json::to_value(&typed).unwrap(),
        example.value,
        "{}",
        example.text
    );
    typed
}

/// The same for the member `key` of the example.
fn assert_member_round_trips<T: serde::de::DeserializeOwned + serde::Serialize>(
    example: &Example,
    key: &str,
) -> T {
    let typed: T = example.read_member(key);
    assert_eq!(
        serde_json::to_value(&typed).unwrap(),
        example.value[key],
        "{}",
        example.text
    );
    typed
}

fn messages_where(pred: impl Fn(&Value) -> bool) -> Vec<Example> {
    support::spec_page::messages()
        .into_iter()
        .filter(|m| pred(&m.value))
        .collect()
}

#[test]
fn the_spec_page_has_the_examples_this_file_checks() {
    // If the page changed, the counts below say which tests lost their material.
    let count = |pred: &dyn Fn(&Value) -> bool| messages_where(pred).len();
    assert_eq!(count(&|m| method(m) == Some("elicitation/create")), 3);
    assert_eq!(count(&|m| m.get("result").is_some()), 4);
    assert_eq!(
        count(&|m| method(m) == Some(ElicitationCompleteNotification::METHOD)),
        1
    );
    assert_eq!(count(&|m| m.get("error").is_some()), 1);
    let capabilities = support::spec_page::examples()
        .into_iter()
        .filter(|e| e.value.get("capabilities").is_some())
        .count();
    assert_eq!(capabilities, 2);
}

#[test]
fn every_elicitation_request_of_the_spec_round_trips_and_validates() {
    for message in messages_where(|m| method(m) == Some(ElicitRequest::METHOD)) {
        support::spec::assert_valid("ElicitRequest", &message.value);
        assert_round_trips::<ElicitRequest>(&message);
        let params: ElicitRequestParams = assert_member_round_trips(&message, "params");
        support::spec::assert_valid("ElicitRequestParams", &message.value["params"]);
        if params.mode() == ElicitMode::Url {
            assert_member_round_trips::<ElicitRequestUrlParams>(&message, "params");
            support::spec::assert_valid("ElicitRequestURLParams", &message.value["params"]);
        }
    }
}

#[test]
fn the_spec_url_request_reads_as_url_mode_with_its_fields() {
    let [message] = &messages_where(|m| m["params"]["mode"] == "url")[..] else {
        panic!("the spec has one URL-mode request")
    };
    let request: ElicitRequest = message.read();
    assert_eq!(request.id(), &RequestId::Number(3));
    let ElicitRequestParams::Url(url) = request.params() else {
        panic!("not URL mode")
    };
    assert_eq!(
        url.elicitation_id().as_str(),
        "550e8400-e29b-41d4-a716-446655440000"
    );
    assert_eq!(url.url(), "https://mcp.example.com/ui/set_api_key");
    assert_eq!(url.message(), "Please provide your API key to continue.");
}

#[test]
fn every_result_of_the_spec_round_trips_and_validates() {
    for message in messages_where(|m| m.get("result").is_some()) {
        support::spec::assert_valid("JSONRPCResultResponse", &message.value);
        support::spec::assert_valid("ElicitResult", &message.value["result"]);
        assert_member_round_trips::<ElicitResult>(&message, "result");
    }
}

#[test]
fn the_spec_url_accept_carries_no_content_and_means_consent() {
    let [message] = &messages_where(|m| m["id"] == 3 && m.get("result").is_some())[..] else {
        panic!("the spec has one URL-mode response")
    };
    let result: ElicitResult = message.read_member("result");
    assert_eq!(result, ElicitResult::accept_url());
    assert!(UrlConsent::from_result(&result).unwrap().is_accepted());
}

#[test]
fn the_spec_completion_notification_round_trips_and_validates() {
    let [message] =
        &messages_where(|m| method(m) == Some(ElicitationCompleteNotification::METHOD))[..]
    else {
        panic!("the spec has one completion notification")
    };
    support::spec::assert_valid("ElicitationCompleteNotification", &message.value);
    let notification: ElicitationCompleteNotification = assert_round_trips(message);
    assert_eq!(
        notification.elicitation_id().as_str(),
        "550e8400-e29b-41d4-a716-446655440000"
    );
}

#[test]
fn the_spec_url_elicitation_required_error_round_trips_and_validates() {
    let [message] = &messages_where(|m| m.get("error").is_some())[..] else {
        panic!("the spec has one -32042 error")
    };
    support::spec::assert_valid("URLElicitationRequiredError", &message.value);
    assert_member_round_trips::<UrlElicitationRequiredError>(message, "error");

    // Read back from a generic JSON-RPC error, as a client's SDK hands it over.
    let generic: JsonRpcError = assert_member_round_trips(message, "error");
    let required = UrlElicitationRequiredError::try_from(&generic).unwrap();
    assert_eq!(
        required.message(),
        "This request requires more information."
    );
    let ids: Vec<&str> = required
        .elicitation_ids()
        .map(ElicitationId::as_str)
        .collect();
    assert_eq!(ids, ["550e8400-e29b-41d4-a716-446655440000"]);
    assert_eq!(
        serde_json::to_value(JsonRpcError::from(&required)).unwrap(),
        message.value["error"]
    );
}

#[test]
fn the_spec_capabilities_round_trip_and_validate() {
    for example in support::spec_page::examples()
        .iter()
        .filter(|e| e.value.get("capabilities").is_some())
    {
        let capabilities = &example.value["capabilities"];
        support::spec::assert_valid("ClientCapabilities", capabilities);
        let elicitation = &capabilities["elicitation"];
        let typed: ElicitationCapability = serde_json::from_value(elicitation.clone()).unwrap();
        assert_eq!(&serde_json::to_value(&typed).unwrap(), elicitation);
        let parsed = ElicitationCapability::of_client(capabilities)
            .unwrap()
            .unwrap();
        assert_eq!(parsed, typed);
        assert!(
            parsed.supports(ElicitMode::Form),
            "both examples support form mode"
        );
    }
}

#[test]
fn capability_modes_follow_the_spec() {
    let read = |v: Value| serde_json::from_value::<ElicitationCapability>(v).unwrap();
    assert_eq!(read(json!({})).modes(), [ElicitMode::Form]);
    assert_eq!(read(json!({"form": {}})).modes(), [ElicitMode::Form]);
    assert_eq!(read(json!({"url": {}})).modes(), [ElicitMode::Url]);
    assert_eq!(
        read(json!({"form": {}, "url": {}})).modes(),
        [ElicitMode::Form, ElicitMode::Url]
    );
    // Whatever is declared supports at least one mode.
    assert_eq!(read(json!({"future": {}})).modes(), [ElicitMode::Form]);
    assert_eq!(
        read(json!({"form": null, "url": null})).modes(),
        [ElicitMode::Form]
    );
    // Sub-objects and unknown members are kept.
    let rich = json!({"form": {"x": 1}, "url": {}, "future": {"y": true}});
    assert_eq!(serde_json::to_value(read(rich.clone())).unwrap(), rich);
    // Built ones validate.
    for built in [
        ElicitationCapability::default(),
        ElicitationCapability::form(),
        ElicitationCapability::url(),
        ElicitationCapability::form_and_url(),
    ] {
        let capabilities = json!({"elicitation": built});
        support::spec::assert_valid("ClientCapabilities", &capabilities);
        assert!(!built.modes().is_empty());
    }
}

#[test]
fn a_capability_that_is_not_an_object_is_refused() {
    for bad in [
        json!({"form": true}),
        json!({"url": "yes"}),
        json!([]),
        json!("form"),
    ] {
        assert!(
            serde_json::from_value::<ElicitationCapability>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    assert_eq!(
        ElicitationCapability::of_client(&json!({"roots": {}})).unwrap(),
        None
    );
    assert!(ElicitationCapability::of_client(&json!({"elicitation": 1})).is_err());
    assert!(ElicitationCapability::of_client(&json!([])).is_err());
}

#[test]
fn a_server_cannot_build_a_request_for_an_undeclared_mode() {
    let url: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "url", "elicitationId": "e", "url": "https://example.com/", "message": "m"
    }))
    .unwrap();
    let form: ElicitRequestParams = serde_json::from_value(json!({
        "message": "m", "requestedSchema": {"type": "object", "properties": {}}
    }))
    .unwrap();
    let id = || RequestId::from(1);
    let legacy = ElicitationCapability::default();
    let url_only = ElicitationCapability::url();

    let err = ElicitRequest::new(id(), url.clone(), Some(&legacy)).unwrap_err();
    assert_eq!(err.mode, ElicitMode::Url);
    let err = ElicitRequest::new(id(), form.clone(), Some(&url_only)).unwrap_err();
    assert_eq!(err.mode, ElicitMode::Form);
    let err = ElicitRequest::new(id(), form.clone(), None).unwrap_err();
    assert!(!err.elicitation_declared);
    assert_eq!(
        err.to_string(),
        "the client did not declare the elicitation capability"
    );

    assert!(ElicitRequest::new(id(), form, Some(&legacy)).is_ok());
    let request = ElicitRequest::new(id(), url, Some(&url_only)).unwrap();
    support::spec::assert_valid("ElicitRequest", &serde_json::to_value(&request).unwrap());
}

#[test]
fn a_request_without_mode_is_form_mode_and_keeps_its_property_order() {
    let text = r#"{"message": "m", "requestedSchema": {"type": "object", "properties": {
        "zeta": {"type": "string"}, "alpha": {"type": "boolean"}}}}"#;
    let params: ElicitRequestParams = serde_json::from_str(text).unwrap();
    let ElicitRequestParams::Form(form) = &params else {
        panic!("not form mode")
    };
    let names: Vec<&str> = form
        .requested_schema
        .properties()
        .iter()
        .map(|p| &*p.name)
        .collect();
    assert_eq!(names, ["zeta", "alpha"]);
    // It is written back with the explicit mode, which is also valid.
    let written = serde_json::to_value(&params).unwrap();
    assert_eq!(written["mode"], "form");
    support::spec::assert_valid("ElicitRequestParams", &written);
}

#[test]
fn url_requests_need_message_url_and_elicitation_id() {
    let full =
        json!({"mode": "url", "elicitationId": "e", "url": "https://example.com/", "message": "m"});
    for missing in ["elicitationId", "url", "message"] {
        let mut params = full.clone();
        params.as_object_mut().unwrap().remove(missing);
        let err = serde_json::from_value::<ElicitRequestParams>(params.clone()).unwrap_err();
        assert!(err.to_string().contains(missing), "{missing}: {err}");
        let err = serde_json::from_value::<ElicitRequestUrlParams>(params).unwrap_err();
        assert!(err.to_string().contains(missing), "{missing}: {err}");
    }
    // URL mode is never implied.
    let mut no_mode = full.clone();
    no_mode.as_object_mut().unwrap().remove("mode");
    assert!(serde_json::from_value::<ElicitRequestUrlParams>(no_mode).is_err());
    let mut form_mode = full;
    form_mode["mode"] = json!("form");
    assert!(serde_json::from_value::<ElicitRequestUrlParams>(form_mode).is_err());
}

#[test]
fn unknown_modes_and_envelopes_are_refused() {
    let err =
        serde_json::from_value::<ElicitRequestParams>(json!({"mode": "voice", "message": "m"}))
            .unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown elicitation mode \"voice\""),
        "{err}"
    );

    let url =
        json!({"mode": "url", "elicitationId": "e", "url": "https://example.com/", "message": "m"});
    let wrong_method =
        json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": url});
    assert!(serde_json::from_value::<ElicitRequest>(wrong_method).is_err());
    let wrong_version =
        json!({"jsonrpc": "1.0", "id": 1, "method": "elicitation/create", "params": url});
    assert!(serde_json::from_value::<ElicitRequest>(wrong_version).is_err());
    let wrong_notification = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"elicitationId": "e"}});
    assert!(serde_json::from_value::<ElicitationCompleteNotification>(wrong_notification).is_err());
    let no_id =
        json!({"jsonrpc": "2.0", "method": ElicitationCompleteNotification::METHOD, "params": {}});
    assert!(serde_json::from_value::<ElicitationCompleteNotification>(no_id).is_err());
}

#[test]
fn results_tolerate_null_content_on_decline_and_cancel() {
    for action in ["decline", "cancel"] {
        let result: ElicitResult =
            serde_json::from_value(json!({"action": action, "content": null})).unwrap();
        assert_eq!(result.content, None);
        assert_ne!(result.action, ElicitAction::Accept);
        // Written back without the null, which the schema requires (`content` is an object).
        let written = serde_json::to_value(&result).unwrap();
        assert_eq!(written, json!({"action": action}));
        support::spec::assert_valid("ElicitResult", &written);
    }
    let declined: ElicitResult =
        serde_json::from_value(json!({"action": "decline", "content": null})).unwrap();
    assert_eq!(
        UrlConsent::from_result(&declined),
        Ok(ElicitOutcome::Declined)
    );
}

#[test]
fn a_url_mode_result_with_content_is_refused() {
    let result = ElicitResult::accept(json!({"apiKey": "sk-123"}).as_object().unwrap().clone());
    let err = UrlConsent::from_result(&result).unwrap_err();
    assert_eq!(err.keys, ["apiKey"]);
    // An empty object is as good as none.
    let empty = ElicitResult::accept(serde_json::Map::new());
    assert!(UrlConsent::from_result(&empty).unwrap().is_accepted());
}

#[test]
fn every_outcome_names_the_action_the_user_took() {
    for action in [
        ElicitAction::Accept,
        ElicitAction::Decline,
        ElicitAction::Cancel,
    ] {
        let (result, form) = match action {
            ElicitAction::Accept => (ElicitResult::accept_url(), ElicitOutcome::Accepted(())),
            ElicitAction::Decline => (ElicitResult::decline(), ElicitOutcome::Declined),
            ElicitAction::Cancel => (ElicitResult::cancel(), ElicitOutcome::Cancelled),
        };
        let which = [
            action == ElicitAction::Accept,
            action == ElicitAction::Decline,
            action == ElicitAction::Cancel,
        ];
        let url = UrlConsent::from_result(&result).unwrap();
        assert_eq!(url.action(), action);
        assert_eq!(
            [url.is_accepted(), url.is_declined(), url.is_cancelled()],
            which
        );
        assert_eq!(form.action(), action);
        assert_eq!(
            [form.is_accepted(), form.is_declined(), form.is_cancelled()],
            which
        );
    }
}

fn required_error(elicitations: Value) -> JsonRpcError {
    serde_json::from_value(json!({
        "code": -32042, "message": "needs more", "data": {"elicitations": elicitations}
    }))
    .unwrap()
}

#[test]
fn url_elicitation_required_entries_must_be_url_mode_with_an_id() {
    let form_entry = json!([{"mode": "form", "message": "m",
        "requestedSchema": {"type": "object", "properties": {}}}]);
    let no_mode = json!([{"elicitationId": "e", "url": "https://example.com/", "message": "m"}]);
    let no_id = json!([{"mode": "url", "url": "https://example.com/", "message": "m"}]);
    let second_bad = json!([
        {"mode": "url", "elicitationId": "e", "url": "https://example.com/", "message": "m"},
        {"mode": "url", "url": "https://example.com/", "message": "m"}
    ]);
    for (entries, index) in [(form_entry, 0), (no_mode, 0), (no_id, 0), (second_bad, 1)] {
        let error = required_error(entries.clone());
        match UrlElicitationRequiredError::try_from(&error) {
            Err(NotUrlElicitationRequiredError::InvalidEntry { index: at, .. }) => {
                assert_eq!(at, index, "{entries}")
            }
            other => panic!("{entries}: {other:?}"),
        }
        // The spec's schema agrees these are not the error.
        let message = json!({"jsonrpc": "2.0", "id": 1, "error": error});
        assert!(
            !support::forms::is_valid("URLElicitationRequiredError", &message),
            "{entries}"
        );
    }
}

#[test]
fn url_elicitation_required_needs_the_code_and_a_non_empty_list() {
    let entry =
        json!({"mode": "url", "elicitationId": "e", "url": "https://example.com/", "message": "m"});
    let mut wrong_code = required_error(json!([entry]));
    wrong_code.code = -32602;
    assert_eq!(
        UrlElicitationRequiredError::try_from(&wrong_code),
        Err(NotUrlElicitationRequiredError::WrongCode { code: -32602 })
    );
    assert_eq!(
        UrlElicitationRequiredError::try_from(&required_error(json!([]))),
        Err(NotUrlElicitationRequiredError::NoElicitations)
    );
    let no_data = JsonRpcError {
        code: -32042,
        message: "m".into(),
        data: None,
    };
    assert_eq!(
        UrlElicitationRequiredError::try_from(&no_data),
        Err(NotUrlElicitationRequiredError::MissingData)
    );
    let no_list = JsonRpcError {
        code: -32042,
        message: "m".into(),
        data: Some(json!({})),
    };
    assert_eq!(
        UrlElicitationRequiredError::try_from(&no_list),
        Err(NotUrlElicitationRequiredError::MissingElicitations)
    );
    assert_eq!(
        UrlElicitationRequiredError::new("m", Vec::<ElicitRequestUrlParams>::new()),
        Err(NotUrlElicitationRequiredError::NoElicitations)
    );
    // Other members of `data` survive a round trip.
    let extra =
        json!({"code": -32042, "message": "m", "data": {"elicitations": [entry], "hint": 1}});
    let read: UrlElicitationRequiredError = serde_json::from_value(extra.clone()).unwrap();
    assert_eq!(serde_json::to_value(read).unwrap(), extra);
}

#[test]
fn request_ids_are_strings_or_integers() {
    assert_eq!(
        serde_json::from_value::<RequestId>(json!(7)).unwrap(),
        RequestId::Number(7)
    );
    assert_eq!(
        serde_json::from_value::<RequestId>(json!("a")).unwrap(),
        RequestId::from("a")
    );
    assert!(serde_json::from_value::<RequestId>(json!(1.5)).is_err());
    assert!(serde_json::from_value::<RequestId>(json!(null)).is_err());
}
