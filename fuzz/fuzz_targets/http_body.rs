//! The HTTP guard's check of a POST body, before rmcp reads it: its one read of the common
//! case agrees with the full check, and each answer fits the body (-32700 only for what is not
//! JSON, nothing refused that is a JSON-RPC object rmcp takes as it is).
//!
//! Input: the body.

#![no_main]

use elicit_mcp::__fuzz::check_body;
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use serde_json::Value;

fuzz_target!(|body: &[u8]| {
    let checked = check_body(body);
    // The fast read passes only what the full check passes, and the guard answers with the
    // full check's refusal once the fast read does not pass.
    if checked.well_formed {
        assert_eq!(
            checked.refused, None,
            "the fast read passed what the check refuses"
        );
    }
    let expected = if checked.well_formed {
        None
    } else {
        checked.refused.clone()
    };
    assert_eq!(checked.answered, expected);
    // JSON text is UTF-8 (RFC 8259, 8.1), whatever serde_json skips without reading.
    let is_json = std::str::from_utf8(body)
        .is_ok_and(|text| serde_json::from_str::<IgnoredAny>(text).is_ok());
    let value = serde_json::from_slice::<Value>(body);
    match &checked.answered {
        // What the guard passes, rmcp reads into values: JSON that serde_json cannot (a lone
        // surrogate escape, a number beyond f64) is the guard's -32700, not rmcp's 415.
        None => match value {
            Ok(message) => assert_eq!(message.get("jsonrpc"), Some(&Value::from("2.0"))),
            Err(error) => panic!("the guard passed to rmcp what is no JSON value: {error}"),
        },
        Some((code, message, _)) => {
            assert!(!message.is_empty());
            match code {
                // Not JSON, or JSON serde_json cannot read into values (in a member the
                // guard reads: a key, the method).
                -32700 => assert!(
                    value.is_err(),
                    "valid JSON refused as a parse error: {message}"
                ),
                -32600 | -32602 => assert!(is_json, "invalid JSON refused as {code}: {message}"),
                other => panic!("the guard answered {other}: {message}"),
            }
        }
    }
});
