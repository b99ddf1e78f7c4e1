use elicit_mcp::Elicit;

// Types of the user's own that have the names of typed values (`Url`, `Date`, `NaiveDate`,
// `Timestamp`) but a mapping of their own compile without any feature: the feature hint is
// only for a type of that name without a mapping.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(format = "uri")]
struct Url(String);

#[derive(Elicit, Debug, PartialEq)]
enum Date {
    Today,
    Tomorrow,
}

#[derive(Elicit, Debug, PartialEq)]
#[elicit(format = "date")]
struct NaiveDate(String);

#[derive(Elicit, Debug, PartialEq)]
#[elicit(minimum = 0)]
struct Timestamp(i64);

mod time {
    #[derive(elicit_mcp::Elicit, Debug, PartialEq)]
    #[elicit(format = "date-time")]
    pub struct OffsetDateTime(pub String);
}

#[derive(Elicit, Debug)]
struct Visit {
    page: Url,
    when: Option<Date>,
    day: NaiveDate,
    at: Timestamp,
    since: time::OffsetDateTime,
}

fn main() {
    let content = serde_json::json!({
        "page": "https://example.com/",
        "when": "Today",
        "day": "2026-12-03",
        "at": 1764720000,
        "since": "2026-12-03T09:00:00Z",
    });
    let visit = Visit::from_content(content.as_object().unwrap()).unwrap();
    assert_eq!(visit.page, Url("https://example.com/".into()));
    assert_eq!(visit.when, Some(Date::Today));
    assert_eq!(visit.day, NaiveDate("2026-12-03".into()));
    assert_eq!(visit.at, Timestamp(1764720000));
    assert_eq!(visit.since, time::OffsetDateTime("2026-12-03T09:00:00Z".into()));
}
