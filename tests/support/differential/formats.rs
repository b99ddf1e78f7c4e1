//! Strings of the spec's four string formats: clearly valid ones, on which every reading of the
//! format agrees whatever the field's type, and strings near each format's grammar, valid or
//! not, at the edges where two readings could part (a leap second, a quoted local part, a port
//! past 65535, a year at the end of a crate's range).

use elicit_mcp::schema::StringFormat;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

const EMAILS: &[&str] = &[
    "octocat@github.com",
    "first.last+tag@example.co.uk",
    "a@example.org",
];
const NOT_EMAILS: &[&str] = &[
    "octocat",
    "a@b@example.com",
    "@example.com",
    "octocat@",
    "two words@example.com",
    "",
];
const URIS: &[&str] = &[
    "https://example.com/a?b=c#d",
    "urn:isbn:0451450523",
    "mailto:octocat@github.com",
    "http://localhost:8080/",
];
const NOT_URIS: &[&str] = &[
    "/relative/path",
    "example.com/path",
    "http://exa mple.com",
    "",
    "://missing-scheme",
];
const DATES: &[&str] = &["2024-02-29", "1999-12-31", "2000-01-01"];
const NOT_DATES: &[&str] = &[
    "2023-02-29",
    "2024-13-01",
    "2024-2-29",
    "29/02/2024",
    "2024-02-30",
    "",
];
const DATE_TIMES: &[&str] = &[
    "2024-02-29T12:30:00Z",
    "2024-02-29T12:30:00.123+05:30",
    "1999-12-31T23:59:59-08:00",
];
const NOT_DATE_TIMES: &[&str] = &[
    "2024-02-29",
    "2024-02-29T12:30:00",
    "2023-02-29T12:00:00Z",
    "2024-02-29T25:00:00Z",
    "tomorrow",
];

/// Clearly valid and clearly invalid strings of `format`, on which any two implementations
/// agree.
pub fn fixtures(format: StringFormat) -> (&'static [&'static str], &'static [&'static str]) {
    match format {
        StringFormat::Email => (EMAILS, NOT_EMAILS),
        StringFormat::Uri => (URIS, NOT_URIS),
        StringFormat::Date => (DATES, NOT_DATES),
        StringFormat::DateTime => (DATE_TIMES, NOT_DATE_TIMES),
        other => panic!("no strings for the format {other:?}: add them here"),
    }
}

/// A string of `format` that every reading takes, typed values' included: the fixtures, and
/// plain generated ones.
pub fn valid(format: StringFormat) -> BoxedStrategy<String> {
    let fixture = select(fixtures(format).0).prop_map(str::to_owned);
    let generated = match format {
        StringFormat::Email => "[a-z]{1,8}(\\.[a-z]{1,5})?@[a-z]{1,8}\\.(com|org|io)".boxed(),
        StringFormat::Uri => "https://[a-z]{1,10}\\.(com|org)(/[a-z0-9]{1,8}){0,2}".boxed(),
        StringFormat::Date => real_day(1900..2100).boxed(),
        StringFormat::DateTime => plain_date_time().boxed(),
        other => panic!("no strings for the format {other:?}: add them here"),
    };
    prop_oneof![1 => fixture, 2 => generated].boxed()
}

/// A string near `format`: its grammar with parts missing, doubled or out of range, and the
/// edges where readings of it may differ. Valid or not.
pub fn near(format: StringFormat) -> BoxedStrategy<String> {
    let fixture = select([fixtures(format).0, fixtures(format).1].concat()).prop_map(str::to_owned);
    let near = match format {
        StringFormat::Email => email().boxed(),
        StringFormat::Uri => uri().boxed(),
        StringFormat::Date => date().boxed(),
        StringFormat::DateTime => date_time().boxed(),
        other => panic!("no strings for the format {other:?}: add them here"),
    };
    prop_oneof![1 => fixture, 4 => near].boxed()
}

/// A real day of a year in `years`, `YYYY-MM-DD`.
fn real_day(years: std::ops::Range<i32>) -> impl Strategy<Value = String> {
    (years, 1u32..=12, 1u32..=31).prop_filter_map("a real day", |(y, m, d)| {
        (d <= days_in(y, m)).then(|| format!("{y:04}-{m:02}-{d:02}"))
    })
}

fn days_in(year: i32, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` of a real day and time.
fn plain_date_time() -> impl Strategy<Value = String> {
    (
        real_day(1900..2100),
        0u32..24,
        0u32..60,
        0u32..60,
        proptest::option::of("\\.[0-9]{1,6}"),
        prop_oneof![
            Just("Z".to_owned()),
            (0u32..14, 0u32..60, any::<bool>())
                .prop_map(|(h, m, east)| format!("{}{h:02}:{m:02}", if east { '+' } else { '-' })),
        ],
    )
        .prop_map(|(day, h, m, s, fraction, offset)| {
            format!(
                "{day}T{h:02}:{m:02}:{s:02}{}{offset}",
                fraction.unwrap_or_default()
            )
        })
}

/// `YYYY-MM-DD` with each number at or past its edges, and other shapes of a date.
fn date() -> impl Strategy<Value = String> {
    let year = prop_oneof![
        3 => 1900i32..2100,
        1 => select(vec![0, 1, 1900, 2000, 2023, 2024, 9999]),
    ];
    let month = prop_oneof![3 => 1u32..=12, 1 => select(vec![0, 2, 12, 13])];
    let day = prop_oneof![3 => 1u32..=28, 1 => select(vec![0, 28, 29, 30, 31, 32])];
    let numbered = (year, month, day).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    prop_oneof![
        8 => numbered,
        1 => select(vec![
            "2024-2-29",
            "2024/02/29",
            "24-02-29",
            "２０２４-02-29",
            "2024-02-29 ",
            " 2024-02-29",
            "20240229",
            "+2024-02-29",
            "2024-02-29T00:00:00Z",
        ])
        .prop_map(str::to_owned),
    ]
}

/// A date and a time with each part at or past its edges: the separator, a leap second,
/// fractions longer than nanoseconds, offsets, and the ends of the typed values' ranges.
fn date_time() -> impl Strategy<Value = String> {
    let separator = prop_oneof![8 => Just("T"), 2 => Just("t"), 1 => Just(" "), 1 => Just("_")];
    let hour = prop_oneof![6 => 0u32..24, 1 => select(vec![23, 24, 25])];
    let minute = prop_oneof![6 => 0u32..60, 1 => select(vec![59, 60, 61])];
    let second = prop_oneof![6 => 0u32..60, 1 => select(vec![59, 60, 61])];
    let fraction = prop_oneof![
        4 => Just(String::new()),
        2 => "\\.[0-9]{1,9}",
        1 => "\\.[0-9]{10,12}",
        1 => Just(".".to_owned()),
    ];
    let offset = prop_oneof![
        4 => Just("Z".to_owned()),
        1 => Just("z".to_owned()),
        4 => "[+-](0[0-9]|1[0-9]|2[0-5]):[0-5][0-9]",
        1 => select(vec!["", "+0100", "+01", "-00:00", "+23:59", "+24:00", "+01:60"])
            .prop_map(str::to_owned),
    ];
    let assembled = (
        prop_oneof![4 => real_day(1900..2100), 1 => date()],
        separator,
        hour,
        minute,
        second,
        fraction,
        offset,
    )
        .prop_map(|(day, separator, h, m, s, fraction, offset)| {
            format!("{day}{separator}{h:02}:{m:02}:{s:02}{fraction}{offset}")
        });
    prop_oneof![
        6 => assembled,
        1 => select(vec![
            // Leap seconds: at the end of a month in UTC, and not.
            "2016-12-31T23:59:60Z",
            "2016-12-31T22:59:60-01:00",
            "2017-01-01T00:59:60+01:00",
            "2024-02-15T23:59:60Z",
            "2024-02-29T23:59:60.5Z",
            "2024-02-29T12:00:60Z",
            // The ends of the years a date-time writes, and of jiff's timestamps.
            "0000-01-01T00:00:00Z",
            "0000-01-01T00:00:00+01:00",
            "0000-01-01T00:00:00-23:59",
            "9999-12-31T23:59:59Z",
            "9999-12-31T23:59:59-01:00",
            "9999-12-30T22:00:00Z",
            "9999-12-30T22:00:01Z",
            // A fraction finer than a nanosecond.
            "2024-01-01T00:00:00.1234567891Z",
            "2024-01-01T00:00:00.000000000001+02:00",
        ])
        .prop_map(str::to_owned),
    ]
}

/// `local@domain` with each part near its rules: dots, quotes, non-ASCII, lengths, labels with
/// underscores, hyphens and `--`, address literals, a display name, no `@` or two.
fn email() -> impl Strategy<Value = String> {
    let atom = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]{1,6}";
    let local = prop_oneof![
        8 => vec(atom, 1..3).prop_map(|atoms| atoms.join(".")),
        1 => Just(String::new()),
        1 => "\\.?[a-z]{0,3}\\.\\.?[a-z]{0,3}\\.?",
        2 => "\"[a-z @.]{0,5}\"",
        1 => "[a-zé ]{1,5}",
        1 => select(vec![64, 65]).prop_map(|n| "a".repeat(n)),
    ];
    let label = prop_oneof![
        10 => "[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?",
        2 => "[a-z0-9_-]{0,5}",
        1 => "[a-z0-9]{2}--[a-z0-9]{1,3}",
        1 => Just("xn--e9a".to_owned()),
        1 => Just("é".to_owned()),
        1 => select(vec![63, 64]).prop_map(|n| "b".repeat(n)),
    ];
    let domain = prop_oneof![
        10 => vec(label, 1..4).prop_map(|labels| labels.join(".")),
        2 => select(vec![
            "[127.0.0.1]",
            "[IPv6:::1]",
            "[ipv6:2001:db8::1]",
            "[127.0.0.256]",
            "[8]",
            "[]",
            "[_.]",
            "[IPv6:zz]",
            "[tag:content]",
        ])
        .prop_map(str::to_owned),
        1 => select(vec![253usize, 254]).prop_map(long_domain),
        1 => Just("example.com.".to_owned()),
    ];
    let address = (local, domain).prop_map(|(local, domain)| format!("{local}@{domain}"));
    prop_oneof![
        10 => address.clone(),
        1 => address.clone().prop_map(|a| format!("Ada <{a}>")),
        1 => address.clone().prop_map(|a| a.replacen('@', "", 1)),
        1 => address.prop_map(|a| format!("x@{a}")),
    ]
}

/// A host name of exactly `length` characters (at least 1), in labels of at most 63.
fn long_domain(length: usize) -> String {
    let mut labels = Vec::new();
    let mut left = length;
    while left > 63 {
        // Leave at least one character for the label after the dot.
        let label = 63.min(left - 2);
        labels.push("c".repeat(label));
        left -= label + 1;
    }
    labels.push("c".repeat(left));
    labels.join(".")
}

/// An absolute URI and its near misses: a scheme or none, an authority with user, host and
/// port (IP literals, numbers past an IPv4 address, a port past 65535, an empty host), a path,
/// a query and a fragment, with a space, a broken escape or a non-ASCII letter here and there.
fn uri() -> impl Strategy<Value = String> {
    let scheme = prop_oneof![
        6 => select(vec!["http", "https", "urn", "mailto", "ws", "ftp", "file", "a+b.c-d"]),
        1 => select(vec!["", "1http", "h_p", "HTTP"]),
    ];
    let colon = prop_oneof![12 => Just(":"), 1 => Just("")];
    let user = proptest::option::weighted(0.2, "[a-z]{1,3}(:[a-z0-9]{0,3})?@");
    let host = prop_oneof![
        6 => "[a-z][a-z0-9-]{0,6}(\\.[a-z]{2,3}){0,2}",
        4 => select(vec![
            "",
            "[::1]",
            "[v7.x]",
            "[::1",
            "1.2.3.4",
            "1.2.3.256",
            "999999999999",
            "0x7f.1",
            "exa mple",
            "ex%41mple",
            "ex%zzmple",
            "xn--",
            "a_b",
            "-a",
        ])
        .prop_map(str::to_owned),
    ];
    let port = proptest::option::weighted(
        0.25,
        prop_oneof![4 => "[0-9]{0,5}", 1 => select(vec!["65535", "65536", "99999", "8a"]).prop_map(str::to_owned)],
    );
    let authority = proptest::option::weighted(0.8, (user, host, port)).prop_map(|authority| {
        authority.map_or_else(String::new, |(user, host, port)| {
            let port = port.map(|p| format!(":{p}")).unwrap_or_default();
            format!("//{}{host}{port}", user.unwrap_or_default())
        })
    });
    let path = prop_oneof![
        6 => "(/[a-z0-9._~-]{0,5}){0,3}",
        1 => select(vec!["/a b", "/%zz", "/%4", "/é", "a/b", "//x", "/%20"]).prop_map(str::to_owned),
    ];
    let query = proptest::option::weighted(0.3, "\\?[a-z=&/?%]{0,6}");
    let fragment = proptest::option::weighted(0.2, "#[a-z/?#]{0,4}");
    (scheme, colon, authority, path, query, fragment).prop_map(
        |(scheme, colon, authority, path, query, fragment)| {
            format!(
                "{scheme}{colon}{authority}{path}{}{}",
                query.unwrap_or_default(),
                fragment.unwrap_or_default()
            )
        },
    )
}
