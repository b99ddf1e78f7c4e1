//! Typed values and newtypes as form fields: each type of the table maps to its format's
//! property (checked against the spec's official schema), and a value goes round the trip
//! "typed value → the client's JSON → typed value" unchanged. Invalid values get the same field
//! error as a string field of the format.

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use elicit_mcp::schema::StringFormat;
use elicit_mcp::{Elicit, Email, Problem};
use elicit_test_support::differential::beyond::{jiff_timestamp, url};
use elicit_test_support::differential::{Beyond, check};
use elicit_test_support::forms::{check_schema, parse};
use elicit_test_support::spec::assert_valid;
use elicit_test_support::spec::validator;
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "camelCase")]
struct Typed {
    chrono_date: NaiveDate,
    chrono_fixed: DateTime<FixedOffset>,
    chrono_utc: DateTime<Utc>,
    time_date: time::Date,
    time_at: time::OffsetDateTime,
    jiff_date: jiff::civil::Date,
    jiff_at: jiff::Timestamp,
    url: url::Url,
    email: Email,
}

/// The wire text each field's type writes for its value, as a client would send it back.
fn wire_of(typed: &Typed) -> Value {
    let rfc3339 = &time::format_description::well_known::Rfc3339;
    json!({
        "chronoDate": typed.chrono_date.to_string(),
        "chronoFixed": typed.chrono_fixed.to_rfc3339(),
        "chronoUtc": typed.chrono_utc.to_rfc3339(),
        "timeDate": typed.time_date.to_string(),
        "timeAt": typed.time_at.format(rfc3339).unwrap(),
        "jiffDate": typed.jiff_date.to_string(),
        "jiffAt": typed.jiff_at.to_string(),
        "url": typed.url.as_str(),
        "email": typed.email.as_str(),
    })
}

fn sample() -> Typed {
    Typed {
        chrono_date: NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
        chrono_fixed: DateTime::parse_from_rfc3339("2024-02-29T12:30:00.5+02:00").unwrap(),
        chrono_utc: DateTime::parse_from_rfc3339("2024-02-29T12:30:00Z")
            .unwrap()
            .with_timezone(&Utc),
        time_date: time::macros::date!(2024 - 02 - 29),
        time_at: time::macros::datetime!(2024-02-29 12:30:00 -05:00),
        jiff_date: jiff::civil::date(2024, 2, 29),
        jiff_at: "2024-02-29T12:30:00Z".parse().unwrap(),
        url: url::Url::parse("https://example.com/a?b=c#d").unwrap(),
        email: "octocat@github.com".parse().unwrap(),
    }
}

#[test]
fn each_type_maps_to_its_format_in_a_valid_schema() {
    let schema = check_schema::<Typed>();
    let format = |name: &str| schema["properties"][name].clone();
    let dates = [
        ("chronoDate", "Chrono date"),
        ("timeDate", "Time date"),
        ("jiffDate", "Jiff date"),
    ];
    for (name, title) in dates {
        assert_eq!(
            format(name),
            json!({"type": "string", "title": title, "format": "date"})
        );
    }
    let date_times = [
        ("chronoFixed", "Chrono fixed"),
        ("chronoUtc", "Chrono utc"),
        ("timeAt", "Time at"),
        ("jiffAt", "Jiff at"),
    ];
    for (name, title) in date_times {
        assert_eq!(
            format(name),
            json!({"type": "string", "title": title, "format": "date-time"})
        );
    }
    assert_eq!(
        format("url"),
        json!({"type": "string", "title": "Url", "format": "uri"})
    );
    assert_eq!(
        format("email"),
        json!({"type": "string", "title": "Email", "format": "email"})
    );
    assert_eq!(schema["required"].as_array().unwrap().len(), 9);
}

#[test]
fn values_round_trip_through_the_clients_json() {
    let value = sample();
    let wire = wire_of(&value);
    assert_valid(
        "ElicitResult",
        &json!({"action": "accept", "content": wire}),
    );
    let back: Typed = parse(wire).unwrap();
    assert_eq!(back, value);
}

#[test]
fn invalid_values_get_the_string_formats_field_errors() {
    let mut wire = wire_of(&sample());
    let bad = [
        ("chronoDate", "2023-02-29", StringFormat::Date),
        ("timeDate", "2024-2-29", StringFormat::Date),
        ("jiffDate", "2024-13-01", StringFormat::Date),
        ("chronoFixed", "2024-02-29 12:30", StringFormat::DateTime),
        ("chronoUtc", "2024-02-29T12:30:00", StringFormat::DateTime),
        ("timeAt", "yesterday", StringFormat::DateTime),
        ("jiffAt", "2024-02-29T25:00:00Z", StringFormat::DateTime),
        ("url", "/relative/path", StringFormat::Uri),
        ("email", "not-an-email", StringFormat::Email),
    ];
    for (name, text, _) in bad {
        wire[name] = json!(text);
    }
    let errors = parse::<Typed>(wire).unwrap_err();
    assert_eq!(errors.errors().len(), bad.len(), "{errors}");
    for (name, _, format) in bad {
        let error = errors.errors().iter().find(|e| e.field() == name).unwrap();
        assert!(
            matches!(error.problem(), Problem::InvalidFormat { format: f, .. } if *f == format),
            "{name}: {error}"
        );
    }
}

#[derive(Elicit, Debug)]
struct Optional {
    #[elicit(default = "2024-01-31")]
    check_in: NaiveDate,
    #[elicit(format = "date")]
    check_out: Option<jiff::civil::Date>,
    #[elicit(default = "https://example.com/")]
    home: url::Url,
    contact: Option<Email>,
}

#[test]
fn optional_typed_values_and_defaults_written_as_wire_text() {
    let schema = check_schema::<Optional>();
    assert_eq!(
        schema["properties"]["check_in"],
        json!({"type": "string", "title": "Check in", "format": "date", "default": "2024-01-31"})
    );
    assert_eq!(
        schema["required"],
        Value::Null,
        "every field has a default or is optional"
    );
    let empty: Optional = parse(json!({})).unwrap();
    assert_eq!(
        empty.check_in,
        NaiveDate::from_ymd_opt(2024, 1, 31).unwrap()
    );
    assert_eq!(empty.check_out, None);
    assert_eq!(empty.home.as_str(), "https://example.com/");
    assert_eq!(empty.contact, None);
    let full: Optional = parse(json!({
        "check_in": "2024-02-01", "check_out": "2024-02-03", "contact": "a@b.example"
    }))
    .unwrap();
    assert_eq!(full.check_out, Some(jiff::civil::date(2024, 2, 3)));
    assert_eq!(full.contact.unwrap().as_str(), "a@b.example");
}

/// A postcode declares its pattern once; every form using it inherits it.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(pattern = "^[0-9]{5}$")]
struct Postcode(String);

/// A percentage declares its bounds once.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(minimum = 0, maximum = 100)]
struct Percent(u8);

/// A newtype of a typed value keeps its format.
#[derive(Elicit, Debug, PartialEq)]
struct CheckIn(NaiveDate);

#[derive(Elicit, Debug)]
struct Shipping {
    postcode: Postcode,
    #[elicit(default = 10)]
    tip: Percent,
    #[elicit(maximum = 50)]
    discount: Option<Percent>,
    day: CheckIn,
}

#[derive(Elicit, Debug)]
struct Billing {
    #[elicit(title = "Billing postcode")]
    postcode: Postcode,
}

#[test]
fn newtypes_declare_their_constraints_once_and_every_form_inherits_them() {
    let shipping = check_schema::<Shipping>();
    let billing = check_schema::<Billing>();
    // The title is the field's, made from its name; the newtype gives none.
    assert_eq!(
        shipping["properties"]["postcode"],
        json!({"type": "string", "title": "Postcode", "pattern": "^[0-9]{5}$"})
    );
    assert_eq!(
        billing["properties"]["postcode"],
        json!({"type": "string", "title": "Billing postcode", "pattern": "^[0-9]{5}$"})
    );
    assert_eq!(
        shipping["properties"]["tip"],
        json!({"type": "integer", "title": "Tip", "minimum": 0, "maximum": 100, "default": 10})
    );
    // A field narrows what its newtype allows.
    assert_eq!(
        shipping["properties"]["discount"],
        json!({"type": "integer", "title": "Discount", "minimum": 0, "maximum": 50})
    );
    assert_eq!(
        shipping["properties"]["day"],
        json!({"type": "string", "title": "Day", "format": "date"})
    );

    let ok: Shipping =
        parse(json!({"postcode": "75001", "discount": 5, "day": "2024-02-29"})).unwrap();
    assert_eq!(ok.postcode, Postcode("75001".into()));
    assert_eq!(ok.tip, Percent(10));
    assert_eq!(ok.discount, Some(Percent(5)));
    assert_eq!(
        ok.day,
        CheckIn(NaiveDate::from_ymd_opt(2024, 2, 29).unwrap())
    );

    let errors = parse::<Shipping>(
        json!({"postcode": "7500", "tip": 101, "discount": 60, "day": "2024-02-30"}),
    )
    .unwrap_err();
    let problem = |name: &str| {
        errors
            .errors()
            .iter()
            .find(|e| e.field() == name)
            .map(|e| e.problem().clone())
    };
    assert!(matches!(
        problem("postcode"),
        Some(Problem::PatternMismatch { .. })
    ));
    assert!(matches!(problem("tip"), Some(Problem::OutOfRange { .. })));
    assert!(matches!(
        problem("discount"),
        Some(Problem::OutOfRange { .. })
    ));
    assert!(matches!(
        problem("day"),
        Some(Problem::InvalidFormat {
            format: StringFormat::Date,
            ..
        })
    ));
    let billing: Billing = parse(json!({"postcode": "12345"})).unwrap();
    assert_eq!(billing.postcode, Postcode("12345".into()));
    let billing_errors = parse::<Billing>(json!({"postcode": "abcde"})).unwrap_err();
    assert_eq!(billing_errors.errors().len(), 1);
}

/// A form whose default breaks the pattern its field's newtype declares: lengths and bounds
/// are refused at compile time, but a regex can only run when the default is used.
#[derive(Elicit, Debug)]
struct Delivery {
    #[elicit(default = "ABCDE")]
    postcode: Postcode,
    #[elicit(default = "10115")]
    fallback: Postcode,
}

#[test]
fn a_default_keeps_the_pattern_of_its_fields_newtype() {
    // Both answered: the defaults play no part.
    let delivery: Delivery = parse(json!({"postcode": "75001", "fallback": "13001"})).unwrap();
    assert_eq!(delivery.postcode, Postcode("75001".into()));
    assert_eq!(delivery.fallback, Postcode("13001".into()));

    // Both absent: the good default fills its field, the bad one is the form's own mistake,
    // reported as such and never turned into a Postcode that breaks its pattern.
    let errors = parse::<Delivery>(json!({})).unwrap_err();
    assert_eq!(errors.errors().len(), 1, "{errors}");
    let error = errors.field("postcode").unwrap();
    assert_eq!(
        error.problem(),
        &Problem::InvalidDefault {
            default: "ABCDE".into(),
            problem: Box::new(Problem::PatternMismatch {
                pattern: "^[0-9]{5}$".into()
            }),
        }
    );
    assert_eq!(
        error.to_string(),
        "`postcode`: was absent, and the form's default \"ABCDE\" must match the pattern ^[0-9]{5}$ (fix the default in the server's form)"
    );
}

/// With the `schemars` feature, a newtype and `Email` carry their own `JsonSchema`: the property
/// a field of theirs has in a form, so they can sit in a tool's arguments too.
#[test]
fn newtypes_and_email_have_the_schemars_schema_of_their_property() {
    let postcode = serde_json::to_value(schemars::schema_for!(Postcode)).unwrap();
    assert_eq!(postcode["type"], "string");
    assert_eq!(postcode["pattern"], "^[0-9]{5}$");
    assert_eq!(postcode["title"], "Postcode");
    let percent = serde_json::to_value(schemars::schema_for!(Percent)).unwrap();
    assert_eq!(percent["type"], "integer");
    assert_eq!(
        (&percent["minimum"], &percent["maximum"]),
        (&json!(0), &json!(100))
    );
    let email = serde_json::to_value(schemars::schema_for!(Email)).unwrap();
    assert_eq!(
        (&email["type"], &email["format"]),
        (&json!("string"), &json!("email"))
    );

    // In a struct that derives schemars' own `JsonSchema`, such as a tool's arguments.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Arguments {
        postcode: Postcode,
        contact: Option<Email>,
    }
    let arguments = serde_json::to_value(schemars::schema_for!(Arguments)).unwrap();
    assert_eq!(
        arguments["properties"]["postcode"]["$ref"],
        "#/$defs/Postcode"
    );
    assert_eq!(arguments["$defs"]["Postcode"]["pattern"], "^[0-9]{5}$");
    assert_eq!(arguments["required"], json!(["postcode"]));
}

// ---------------------------------------------------------------------------------------------
// The rules typed values add beyond their format, held to jsonschema.

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`), but for the rules its field types
/// add beyond the schema, where `from_content` refuses what the schema accepts.
#[test]
fn every_form_here_agrees_with_jsonschema() {
    check::<Typed>(&[jiff_timestamp("jiffAt"), url("url")]);
    check::<Optional>(&[url("home")]);
    check::<Shipping>(&[]);
    check::<Billing>(&[]);
    // The form's own mistake (a default breaking its field's pattern) is a refusal the schema
    // cannot state either: every answer that leaves `postcode` out.
    check::<Delivery>(&[Beyond {
        field: "postcode",
        rule: "a default that breaks its newtype's pattern is refused when used",
        refuses: Value::is_null,
        probe: || prop_oneof![Just(Value::Null), "[0-9A-Z]{4,6}".prop_map(Value::String)].boxed(),
    }]);
}

#[test]
fn the_rules_typed_values_add_refuse_what_their_format_accepts() {
    let independent = validator(&serde_json::from_str(Typed::requested_schema_json()).unwrap());
    let with = |field: &str, text: &str| {
        let mut wire = wire_of(&sample());
        wire[field] = json!(text);
        wire
    };
    let beyond = [
        ("url", "http://"),
        ("url", "http://example.com:65536/"),
        ("url", "http://1.2.3.256/"),
        ("url", "foo://[v7.x]/"),
        ("jiffAt", "9999-12-31T23:59:59Z"),
        ("jiffAt", "2024-01-01T00:00:00.1234567891Z"),
    ];
    for (field, text) in beyond {
        let wire = with(field, text);
        assert!(
            independent.is_valid(&wire),
            "jsonschema takes {field} {text}"
        );
        assert_eq!(
            Typed::requested_schema().validate_content(wire.as_object().unwrap()),
            Ok(()),
            "the schema's reading takes {field} {text}"
        );
        let refused = parse::<Typed>(wire).unwrap_err();
        assert_eq!(refused.errors().len(), 1, "{refused}");
        assert!(
            matches!(
                refused.field(field).unwrap().problem(),
                Problem::InvalidFormat { .. }
            ),
            "{refused}"
        );
    }
    // The other typed values hold every value of their format: chrono and time keep the first
    // nine fractional digits, and every `YYYY-MM-DD` is a day of theirs.
    for (field, text) in [
        ("chronoFixed", "9999-12-31T23:59:59.1234567891-01:00"),
        ("chronoUtc", "0000-01-01T00:00:00+01:00"),
        ("timeAt", "9999-12-31T23:59:59.1234567891-01:00"),
        ("chronoDate", "0000-01-01"),
        ("timeDate", "9999-12-31"),
        ("jiffDate", "0000-02-29"),
        ("url", "https://example.com/a?b=c#d"),
    ] {
        let wire = with(field, text);
        assert!(independent.is_valid(&wire), "{field} {text}");
        assert!(parse::<Typed>(wire).is_ok(), "{field} {text}");
    }
}
