//! The rules typed values add beyond their format, as [`Beyond`]s for [`check`](super::check):
//! shared by every test binary that holds a form with such a field to jsonschema.

use elicit_mcp::schema::StringFormat;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Value, json};

use super::{Beyond, near_format};

/// A `url::Url` field: the text is what the `url` crate (the WHATWG URL Standard) parses, past
/// format `uri` (RFC 3986): no empty host where the scheme needs one (`http://`), no port past
/// 65535, no host of digits and dots that is not an IPv4 address (`1.2.3.256`), no host IDNA
/// refuses, no IPvFuture literal.
pub fn url(field: &'static str) -> Beyond {
    Beyond {
        field,
        rule: "a url::Url is what the url crate (WHATWG) parses, past RFC 3986",
        refuses: |value| value.as_str().is_some_and(|s| url::Url::parse(s).is_err()),
        probe: || {
            let hosts = select(vec![
                "",
                "example.com",
                "1.2.3.4",
                "1.2.3.256",
                "999999999999",
                "[::1]",
                "[v7.x]",
                "xn--",
                "a_b",
            ]);
            let ports = select(vec!["", ":80", ":65535", ":65536", ":99999"]);
            let schemes = select(vec!["http", "https", "ws", "ftp", "file", "urn", "foo"]);
            let built = (schemes, hosts, ports)
                .prop_map(|(scheme, host, port)| json!(format!("{scheme}://{host}{port}/")));
            prop_oneof![
                3 => built,
                1 => near_format(StringFormat::Uri).prop_map(Value::String),
            ]
            .boxed()
        },
    }
}

/// A `jiff::Timestamp` field: the text is what jiff parses, past format `date-time`: an instant
/// up to 9999-12-30T22:00:00Z (jiff's range), with at most nine fractional digits.
pub fn jiff_timestamp(field: &'static str) -> Beyond {
    Beyond {
        field,
        rule: "a jiff::Timestamp is within jiff's range, to nanoseconds",
        refuses: |value| {
            value
                .as_str()
                .is_some_and(|s| s.parse::<jiff::Timestamp>().is_err())
        },
        probe: || {
            // The last days jiff holds and the first it does not, at any time and offset; and
            // fractions around nine digits.
            let end = (
                select(vec!["9999-12-30", "9999-12-31"]),
                0u32..24,
                0u32..60,
                select(vec!["Z", "+01:00", "-01:00", "+23:59", "-23:59"]),
            )
                .prop_map(|(day, h, m, offset)| json!(format!("{day}T{h:02}:{m:02}:00{offset}")));
            let fraction = "2024-02-29T12:30:00\\.[0-9]{8,11}Z".prop_map(Value::String);
            prop_oneof![
                2 => end,
                1 => fraction,
                1 => near_format(StringFormat::DateTime).prop_map(Value::String),
            ]
            .boxed()
        },
    }
}
