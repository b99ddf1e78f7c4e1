//! The client's reading of any server's `requestedSchema`: the schema parser (from text, from a
//! JSON value, through rmcp's model), `validate_request` on `elicitation/create` params that
//! carry it, and `accept_form` on a user's content against it.
//!
//! Input: the schema's JSON text, then optionally a record separator (0x1E) and the content's.

#![no_main]

use elicit_fuzz::SEPARATOR;
use elicit_mcp::client::{accept_form, validate_request};
use elicit_mcp::schema::RequestedSchema;
use elicit_mcp::wire::ElicitationCapability;
use libfuzzer_sys::fuzz_target;
use rmcp::model::ElicitationSchema;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |byte| *byte == SEPARATOR);
    let schema_text = parts.next().unwrap_or_default();
    let content_text = parts.next();

    let parsed = serde_json::from_slice::<RequestedSchema>(schema_text);
    let value = serde_json::from_slice::<Value>(schema_text);
    if let Ok(schema) = &parsed {
        // Written back, it reads as the same schema and writes the same text again.
        let written = serde_json::to_string(schema).expect("a schema writes as JSON");
        let again = serde_json::from_str::<RequestedSchema>(&written)
            .unwrap_or_else(|e| panic!("a schema written back does not read: {e}: {written}"));
        assert_eq!(&again, schema, "{written}");
        assert_eq!(serde_json::to_string(&again).unwrap(), written);
        // The same schema as rmcp's model (when it holds it) and back.
        if let Ok(sdk) = ElicitationSchema::try_from(schema) {
            let back = RequestedSchema::try_from(&sdk)
                .unwrap_or_else(|e| panic!("rmcp's copy of a schema does not read: {e}"));
            assert_eq!(&back, schema, "{written}");
        }
        let value = value.as_ref().expect("a schema's text is JSON");
        // Read from a value (a map keeps one of a key given twice), it reads alike.
        let from_value = RequestedSchema::from_value(value)
            .unwrap_or_else(|e| panic!("the schema does not read from a value: {e}"));
        assert_eq!(&from_value, schema, "{written}");
    }
    if let Ok(value) = &value {
        let from_value = RequestedSchema::from_value(value);
        // As the params of an `elicitation/create`: refused exactly when the schema is.
        let params = json!({"message": "Fill this in", "requestedSchema": value});
        let declared = ElicitationCapability::form_and_url();
        let checked = validate_request(&params, Some(&declared));
        assert_eq!(
            checked.is_ok(),
            from_value.is_ok(),
            "{checked:?} against {from_value:?}"
        );
        if let Err(refused) = checked {
            let error = refused.to_jsonrpc_error();
            assert_eq!(error.code, -32602);
        }
        // rmcp's reading of the same text, then ours of rmcp's model.
        if let Ok(sdk) = serde_json::from_value::<ElicitationSchema>(value.clone()) {
            let _ = RequestedSchema::try_from(&sdk);
        }
    }
    let (Ok(schema), Some(content_text)) = (&parsed, content_text) else {
        return;
    };
    let Ok(Value::Object(content)) = serde_json::from_slice::<Value>(content_text) else {
        return;
    };
    let validated = schema.validate_content(&content);
    if let Err(errors) = &validated {
        assert!(!errors.errors().is_empty());
        let _ = errors.to_string();
    }
    match accept_form(schema, content.clone()) {
        Ok(result) => {
            let filled = result.content.expect("an accept carries content");
            // What a client sends passes the check a server runs on it.
            if let Err(errors) = schema.validate_content(&filled) {
                panic!("accept_form sent content its schema refuses: {errors}");
            }
            // Defaults fill what was left out, and change nothing that was given.
            for (name, value) in &content {
                if !value.is_null() {
                    assert_eq!(filled.get(name), Some(value), "`{name}`");
                }
            }
        }
        Err(errors) => assert!(!errors.errors().is_empty()),
    }
    if let Ok(with_defaults) = schema.with_defaults(&content) {
        let written = serde_json::to_string(&with_defaults).unwrap();
        let again = serde_json::from_str::<RequestedSchema>(&written)
            .unwrap_or_else(|e| panic!("a schema with defaults does not read: {e}: {written}"));
        assert_eq!(again, with_defaults);
    }
});
