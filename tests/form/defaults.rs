//! Typed run-time defaults: each derived form's `Defaults`, filled in a closure, becomes the wire
//! map (wire name to the JSON value a client sends) for every kind of field, and that map is
//! what `RequestedSchema::with_defaults` checks and shows. A wrong field name or value type is a
//! compile error (`tests/ui/defaults_*.rs`).

// The forms here are only asked for their defaults, never read.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use elicit_mcp::{Elicit, Email, FormDefault, FormDefaults, defaults_of};
use serde_json::{Value, json};

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[elicit(rename_all = "kebab-case")]
enum Extra {
    Breakfast,
    LateCheckOut,
    #[elicit(rename = "car-park", title = "Parking")]
    Parking,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
enum Room {
    #[elicit(title = "One bed")]
    Single,
    #[elicit(title = "Two beds")]
    Double,
}

#[derive(Elicit, Debug, PartialEq)]
#[elicit(pattern = "^[0-9]{5}$")]
struct Postcode(String);

#[derive(Elicit, Debug, PartialEq)]
#[elicit(minimum = 0, maximum = 100)]
struct Percent(u8);

#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Plain {
    full_name: String,
    vip: bool,
    nights: u8,
    offset: i64,
    huge: u128,
    budget: f64,
    ratio: f32,
    room: Room,
    extra: Extra,
    extras: Vec<Extra>,
    extra_set: BTreeSet<Extra>,
    extra_hash: HashSet<Extra>,
    postcode: Postcode,
    tip: Percent,
    #[elicit(rename = "note")]
    remark: Option<String>,
    #[elicit(skip)]
    _session: u64,
}

/// The map of `fill` on `Plain`, as a JSON object.
fn plain(fill: impl FnOnce(&mut <Plain as Elicit>::Defaults)) -> Value {
    Value::Object(defaults_of::<Plain>(fill))
}

#[test]
fn nothing_set_is_an_empty_map() {
    assert_eq!(plain(|_| {}), json!({}));
    assert!(<Plain as Elicit>::Defaults::default().to_wire().is_empty());
}

#[test]
fn scalars_are_their_json_values_under_their_wire_names() {
    let map = plain(|d| {
        d.full_name.set("Ada Lovelace");
        d.vip.set(true);
        d.nights.set(3);
        d.offset.set(-40);
        d.budget.set(120.5);
        d.ratio.set(0.1);
        d.remark.set(String::from("Late arrival"));
    });
    assert_eq!(
        map,
        json!({
            "fullName": "Ada Lovelace",
            "vip": true,
            "nights": 3,
            "offset": -40,
            "budget": 120.5,
            // The f32's shortest text, not `0.1f32 as f64` (0.10000000149011612).
            "ratio": 0.1,
            "note": "Late arrival",
        })
    );
}

#[test]
fn wide_integers_are_exact_up_to_64_bits_and_past_them_a_double() {
    assert_eq!(
        plain(|d| d.huge.set(u128::from(u64::MAX))),
        json!({"huge": u64::MAX})
    );
    let past = plain(|d| d.huge.set(u128::MAX));
    assert_eq!(past["huge"].as_f64(), Some(u128::MAX as f64));
    // Past every integer field's bounds: refused when checked.
    let errors = Plain::requested_schema()
        .with_defaults(past.as_object().unwrap())
        .unwrap_err();
    assert_eq!(errors.field("huge").unwrap().field(), "huge");
}

#[test]
fn choices_are_their_wire_values_and_selections_arrays_in_the_enum_order() {
    let map = plain(|d| {
        d.room.set(Room::Double);
        d.extra.set(Extra::LateCheckOut);
        d.extras.set([Extra::Parking, Extra::Breakfast]);
        d.extra_set.set([Extra::Parking, Extra::LateCheckOut]);
        d.extra_hash
            .set([Extra::Parking, Extra::Breakfast, Extra::LateCheckOut]);
    });
    assert_eq!(
        map,
        json!({
            "room": "Double",
            "extra": "late-check-out",
            "extras": ["breakfast", "car-park"],
            "extraSet": ["late-check-out", "car-park"],
            "extraHash": ["breakfast", "late-check-out", "car-park"],
        })
    );
    // A `Vec` may repeat a choice; the map says so, and the form's check refuses it.
    let twice = plain(|d| d.extras.set(vec![Extra::Breakfast, Extra::Breakfast]));
    assert_eq!(twice, json!({"extras": ["breakfast", "breakfast"]}));
    let errors = Plain::requested_schema()
        .with_defaults(twice.as_object().unwrap())
        .unwrap_err();
    assert_eq!(
        errors.to_string(),
        "`extras`: lists \"breakfast\" more than once"
    );
}

#[test]
fn a_newtype_is_its_field_s_value() {
    let map = plain(|d| {
        d.postcode.set(Postcode("75001".to_owned()));
        d.tip.set(Percent(15));
    });
    assert_eq!(map, json!({"postcode": "75001", "tip": 15}));
}

#[test]
fn the_map_is_what_the_schema_checks_and_shows() {
    let map = defaults_of::<Plain>(|d| {
        d.nights.set(2);
        d.room.set(Room::Single);
        d.extras.set([Extra::Breakfast]);
    });
    let schema = Plain::requested_schema().with_defaults(&map).unwrap();
    let shown = |name: &str| schema.property(name).unwrap().schema.default_value();
    assert_eq!(shown("nights"), Some(json!(2)));
    assert_eq!(shown("room"), Some(json!("Single")));
    assert_eq!(shown("extras"), Some(json!(["breakfast"])));

    // The rules of the form still hold at run time: a newtype's bound and pattern.
    let wrong = defaults_of::<Plain>(|d| {
        d.tip.set(Percent(101));
        d.postcode.set(Postcode("7500".to_owned()));
    });
    let errors = Plain::requested_schema().with_defaults(&wrong).unwrap_err();
    let at_fault: Vec<&str> = errors.errors().iter().map(|e| e.field()).collect();
    assert_eq!(at_fault, ["postcode", "tip"]);
}

#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Typed {
    email: Email,
    chrono_date: NaiveDate,
    chrono_fixed: DateTime<FixedOffset>,
    chrono_utc: DateTime<Utc>,
    time_date: time::Date,
    time_at: time::OffsetDateTime,
    jiff_date: jiff::civil::Date,
    jiff_at: jiff::Timestamp,
    link: url::Url,
}

#[test]
fn typed_values_are_their_wire_text() {
    let map = Value::Object(defaults_of::<Typed>(|d| {
        d.email.set("ada@example.com".parse::<Email>().unwrap());
        d.chrono_date
            .set(NaiveDate::from_ymd_opt(2026, 12, 24).unwrap());
        d.chrono_fixed
            .set(DateTime::parse_from_rfc3339("2026-12-24T18:30:00.25+01:00").unwrap());
        d.chrono_utc.set(
            DateTime::parse_from_rfc3339("2026-12-24T18:30:00+01:00")
                .unwrap()
                .with_timezone(&Utc),
        );
        d.time_date
            .set(time::Date::from_calendar_date(987, time::Month::January, 5).unwrap());
        d.time_at
            .set(time::macros::datetime!(2026-12-24 18:30:00.000123 -05:30));
        d.jiff_date.set(jiff::civil::date(2026, 2, 3));
        d.jiff_at
            .set("2026-12-24T17:30:00Z".parse::<jiff::Timestamp>().unwrap());
        d.link
            .set(url::Url::parse("https://example.com/stay?x=1").unwrap());
    }));
    assert_eq!(
        map,
        json!({
            "email": "ada@example.com",
            "chronoDate": "2026-12-24",
            "chronoFixed": "2026-12-24T18:30:00.250+01:00",
            "chronoUtc": "2026-12-24T17:30:00Z",
            "timeDate": "0987-01-05",
            "timeAt": "2026-12-24T18:30:00.000123-05:30",
            "jiffDate": "2026-02-03",
            "jiffAt": "2026-12-24T17:30:00Z",
            "link": "https://example.com/stay?x=1",
        })
    );
    // Each is a text its field takes: the form's check passes all of them.
    Typed::requested_schema()
        .with_defaults(map.as_object().unwrap())
        .unwrap();
}

#[test]
fn a_date_no_date_field_takes_is_refused_when_checked() {
    let far = defaults_of::<Typed>(|d| {
        d.chrono_date
            .set(NaiveDate::from_ymd_opt(12026, 1, 1).unwrap())
    });
    assert_eq!(
        Value::Object(far.clone()),
        json!({"chronoDate": "+12026-01-01"})
    );
    let errors = Typed::requested_schema().with_defaults(&far).unwrap_err();
    assert_eq!(errors.errors()[0].field(), "chronoDate");
}

#[derive(Elicit)]
struct Answer<T, U> {
    value: T,
    comment: Option<String>,
    #[elicit(skip)]
    _unused: std::marker::PhantomData<U>,
}

#[test]
fn a_generic_form_s_defaults_are_of_its_instantiation() {
    let number = defaults_of::<Answer<u8, ()>>(|d| d.value.set(7));
    assert_eq!(Value::Object(number), json!({"value": 7}));
    let room = defaults_of::<Answer<Room, String>>(|d| {
        d.value.set(Room::Single);
        d.comment.set("by the window");
    });
    assert_eq!(
        Value::Object(room),
        json!({"value": "Single", "comment": "by the window"})
    );
}

#[test]
fn a_field_default_can_be_read_cleared_and_set_again() {
    let mut defaults = <Plain as Elicit>::Defaults::default();
    defaults.nights.set(4);
    assert_eq!(defaults.nights.to_wire(), Some(json!(4)));
    defaults.nights.clear();
    assert!(!defaults.nights.is_set());
    defaults.full_name.set(&"Ada".to_owned());
    assert_eq!(
        Value::Object(defaults.to_wire()),
        json!({"fullName": "Ada"})
    );
    assert_eq!(format!("{:?}", defaults.nights), "FormDefault(unset)");
    assert_eq!(
        format!("{:?}", FormDefault::<u8>::new()),
        "FormDefault(unset)"
    );
    defaults.nights.set(2);
    assert_eq!(format!("{:?}", defaults.nights), "FormDefault(2)");
    defaults.full_name.set("Ada");
    assert_eq!(format!("{:?}", defaults.full_name), r#"FormDefault("Ada")"#);
}

mod private_types {
    //! A form and field types private to their module: the defaults type (public within the
    //! form's `const _`) names them without a privacy error or warning.
    use elicit_mcp::{Elicit, defaults_of};

    #[derive(Elicit)]
    enum Hidden {
        A,
    }

    #[derive(Elicit)]
    struct Form {
        hidden: Hidden,
    }

    #[test]
    fn private_forms_have_defaults_too() {
        let map = defaults_of::<Form>(|d| d.hidden.set(Hidden::A));
        assert_eq!(map["hidden"], "A");
    }

    #[test]
    fn a_private_form_agrees_with_jsonschema() {
        elicit_test_support::agree_with_jsonschema!(Form);
    }
}

/// Each form of this file, on answers generated from its schema, accepts a field exactly when
/// `jsonschema` does (`elicit_test_support::differential`), but for the rules its typed values
/// add beyond their format.
#[test]
fn every_form_here_agrees_with_jsonschema() {
    use elicit_test_support::differential::beyond::{jiff_timestamp, url};
    use elicit_test_support::differential::check;

    elicit_test_support::agree_with_jsonschema!(
        Plain,
        Answer<u8, ()>,
        Answer<Room, String>
    );
    check::<Typed>(&[jiff_timestamp("jiffAt"), url("link")]);
}
