//! What a server reads back from Redis, without Redis: a pending URL-mode elicitation's hash
//! (`entry`, `state`, `renewed`), a completion routed over pub/sub, and a form the secure page
//! holds. What the store holds was written by another replica, or by anyone who reached Redis:
//! each is read, or refused with an error, never a panic. (The sealed records, credentials and
//! held answers, are `sealed_open` and `sealed_decode`.)
//!
//! Input: one byte choosing the record (by its value modulo 3: an entry, a completion, a form),
//! then its text; for an entry, its three fields separated by a record separator (0x1E), a
//! field left out read as absent (nil).

#![no_main]

use elicit_fuzz::{parts, selector};
use elicit_mcp::__fuzz::{pending_entry, routed_completion, stored_form};
use elicit_mcp::schema::RequestedSchema;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (choice, rest) = selector(data);
    match choice % 3 {
        0 => {
            let fields: Vec<Option<String>> = parts(rest)
                .into_iter()
                .map(|field| std::str::from_utf8(field).ok().map(str::to_owned))
                .collect();
            match pending_entry("e-1", fields) {
                Ok(Some(entry)) => {
                    assert_eq!(entry.id.as_str(), "e-1");
                    assert!(!entry.user.as_str().trim().is_empty());
                }
                Ok(None) => {}
                Err(error) => assert!(!error.is_empty()),
            }
        }
        1 => {
            let Ok(payload) = std::str::from_utf8(rest) else {
                return;
            };
            if let Err(error) = routed_completion(payload) {
                assert!(!error.is_empty());
            }
        }
        _ => {
            let Ok(stored) = std::str::from_utf8(rest) else {
                return;
            };
            if let Ok((_, schema, secret_fields)) = stored_form(stored) {
                // A form read back is one the page can show: its schema writes and reads again.
                let written = serde_json::to_string(&schema).unwrap();
                let again = serde_json::from_str::<RequestedSchema>(&written)
                    .unwrap_or_else(|e| panic!("a stored form's schema does not read: {e}"));
                assert_eq!(again, schema);
                let _ = secret_fields;
            }
        }
    }
});
