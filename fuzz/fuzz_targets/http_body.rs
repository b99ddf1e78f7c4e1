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
    match &checked.answered {
        None => {
            let message = serde_json::from_slice::<Value>(body)
                .expect("what the guard passes to rmcp is JSON");
            assert_eq!(message.get("jsonrpc"), Some(&Value::from("2.0")));
        }
        Some((code, message, _)) => {
            assert!(!message.is_empty());
            match code {
                -32700 => assert!(!is_json, "valid JSON refused as a parse error: {message}"),
                -32600 | -32602 => assert!(is_json, "invalid JSON refused as {code}: {message}"),
                other => panic!("the guard answered {other}: {message}"),
            }
        }
    }
});
