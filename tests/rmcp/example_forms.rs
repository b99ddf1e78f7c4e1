//! Every form the examples derive, held to an independent JSON Schema validator
//! (`elicit_test_support::differential`): on answers generated from each form's schema,
//! `from_content` accepts a field exactly when `jsonschema` does against the emitted schema.

use elicit_test_support::agree_with_jsonschema;
use elicit_test_support::differential::beyond::url;
use elicit_test_support::differential::check;

use crate::{authorized_server, conformance_server, contact, http_server, stdio_server};

#[test]
fn every_form_of_the_examples_agrees_with_jsonschema() {
    agree_with_jsonschema!(
        contact::Contact,
        http_server::Stay,
        http_server::Scope,
        authorized_server::Stay,
        stdio_server::BookingRequest,
        stdio_server::ContactDetails,
        stdio_server::Confirmation,
        conformance_server::UserResponse,
        conformance_server::DefaultsForm,
        conformance_server::EnumsForm,
        conformance_server::UserName,
        conformance_server::Confirmation,
        conformance_server::StepName,
        conformance_server::StepColor,
        conformance_server::PromptContext,
        conformance_server::ContinueConfirmation,
        conformance_server::tasks::DeleteConfirmation,
        conformance_server::tasks::Recipient,
        conformance_server::tasks::Proceed,
    );
    // Its `url::Url` is what the url crate parses, past the schema's `uri`.
    check::<elicit_examples::calendar::CalendarKey>(&[url("server")]);
}
