//! Secret fields (`elicit_mcp::Secret<String>`): a plain string property in the schema, parsed
//! and checked as a `String` is, read only through `expose_secret`, never shown by `Debug` or
//! `Display`, never written out as a default, and listed in `SECRET_FIELDS` by wire name. That
//! such a form is never sent to the client, and takes no `default`, is in
//! `tests/ui/secret_*`.

// Forms that only exist to be parsed or listed are never read field by field.
#![allow(dead_code)]

use elicit_mcp::{ClientForm, Elicit, Problem, Secret, defaults_of};
use elicit_test_support::forms::{check_schema, parse};
use serde_json::json;

/// The secret every test sends, and looks for where it must not be.
const KEY: &str = "sk-live-4f9c2a7e1b";

#[derive(Elicit, Debug)]
#[elicit(message = "Connect your calendar", rename_all = "camelCase")]
struct CalendarKey {
    // A name that looks like a secret is the point of the type: no `not_sensitive` needed.
    #[elicit(min_length = 12, pattern = "^sk-(live|test)-")]
    api_key: Secret<String>,
    calendar: String,
    #[elicit(rename = "otp")]
    one_time_code: Option<Secret<String>>,
}

#[derive(Elicit, Debug)]
struct Calendar {
    calendar: String,
}

#[test]
fn parses_from_content_and_exposes_only_on_request() {
    let form = parse::<CalendarKey>(json!({"apiKey": KEY, "calendar": "Work", "otp": "493021"}))
        .expect("a valid answer parses");
    assert_eq!(form.api_key.expose_secret(), KEY);
    assert_eq!(form.calendar, "Work");
    let code = form.one_time_code.as_ref().expect("the code was given");
    assert_eq!(code.expose_secret(), "493021");

    // Owned content: the text moves into the secret.
    let content = json!({"apiKey": KEY, "calendar": "Work"});
    let owned = CalendarKey::from_content_owned(content.as_object().unwrap().clone()).unwrap();
    assert_eq!(owned.api_key.expose_secret(), KEY);
    assert!(
        owned.one_time_code.is_none(),
        "an absent optional secret is None"
    );
}

#[test]
fn debug_and_display_never_show_the_value() {
    let form =
        parse::<CalendarKey>(json!({"apiKey": KEY, "calendar": "Work", "otp": "493021"})).unwrap();
    for shown in [
        format!("{form:?}"),
        format!("{form:#?}"),
        format!("{:?}", form.api_key),
        format!("{}", form.api_key),
    ] {
        assert!(!shown.contains(KEY), "{shown} shows the secret");
        assert!(!shown.contains("493021"), "{shown} shows the code");
    }
    assert_eq!(
        format!("{form:?}"),
        r#"CalendarKey { api_key: Secret([REDACTED]), calendar: "Work", one_time_code: Some(Secret([REDACTED])) }"#
    );
    assert_eq!(format!("{:?}", form.api_key), "Secret([REDACTED])");
    assert_eq!(form.api_key.to_string(), "[redacted]");
}

#[test]
fn lengths_and_patterns_hold_as_on_a_string() {
    let short = parse::<CalendarKey>(json!({"apiKey": "sk-live-1", "calendar": "Work"}))
        .expect_err("shorter than min_length");
    assert!(matches!(
        short.field("apiKey").unwrap().problem(),
        Problem::TooShort {
            length: 9,
            min_length: 12
        }
    ));
    let foreign = "pk-live-4f9c2a7e1b";
    let mismatch = parse::<CalendarKey>(json!({"apiKey": foreign, "calendar": "Work"}))
        .expect_err("does not match the pattern");
    assert!(matches!(
        mismatch.field("apiKey").unwrap().problem(),
        Problem::PatternMismatch { .. }
    ));
    // The errors say what is wrong, never the value.
    assert!(!mismatch.to_string().contains(foreign), "{mismatch}");
    let wrong = parse::<CalendarKey>(json!({"apiKey": 42, "calendar": "Work"})).unwrap_err();
    assert!(matches!(
        wrong.field("apiKey").unwrap().problem(),
        Problem::WrongType {
            expected: "a string",
            ..
        }
    ));
    let missing = parse::<CalendarKey>(json!({"calendar": "Work"})).unwrap_err();
    assert_eq!(
        missing.field("apiKey").unwrap().problem(),
        &Problem::Missing
    );
}

#[test]
fn the_schema_marks_nothing_unusual() {
    let schema = check_schema::<CalendarKey>();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "apiKey": {
                    "type": "string",
                    "title": "Api key",
                    "minLength": 12,
                    "pattern": "^sk-(live|test)-"
                },
                "calendar": {"type": "string", "title": "Calendar"},
                "otp": {"type": "string", "title": "One time code"}
            },
            "required": ["apiKey", "calendar"]
        })
    );
}

#[test]
fn secret_fields_are_listed_by_wire_name_in_schema_order() {
    assert_eq!(CalendarKey::SECRET_FIELDS, ["apiKey", "otp"]);
    assert!(Calendar::SECRET_FIELDS.is_empty());

    #[derive(Elicit)]
    #[elicit(rename_all = "SCREAMING_SNAKE_CASE")]
    struct Bank {
        holder: String,
        online_password: Option<Secret<String>>,
        #[elicit(skip)]
        note: String,
        card_pin: elicit_mcp::Secret<String>,
    }
    assert_eq!(Bank::SECRET_FIELDS, ["ONLINE_PASSWORD", "CARD_PIN"]);
    elicit_test_support::agree_with_jsonschema!(Bank);
}

#[test]
fn a_form_without_a_secret_is_a_client_form() {
    fn shown_to_the_client<T: ClientForm>() -> &'static str {
        T::INPUT_KEY
    }
    assert_eq!(shown_to_the_client::<Calendar>(), "calendar");
}

#[test]
fn a_secret_is_never_written_out_as_a_default() {
    let defaults = defaults_of::<CalendarKey>(|d| {
        d.api_key.set(Secret::new(KEY.to_owned()));
        d.calendar.set("Work");
    });
    assert_eq!(defaults.get("apiKey"), Some(&serde_json::Value::Null));
    let refused = CalendarKey::requested_schema()
        .with_defaults(&defaults)
        .expect_err("a secret's default is refused");
    assert!(refused.field("apiKey").is_some(), "{refused}");
    assert!(!refused.to_string().contains(KEY), "{refused}");
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`): a secret is checked as a string.
#[test]
fn every_form_here_agrees_with_jsonschema() {
    elicit_test_support::agree_with_jsonschema!(CalendarKey, Calendar);
}
