//! The forms of `examples/conformance_server.rs`, copied as they are: `.ci/fuzz` checks that each
//! block between the markers is in the example word for word, so a change there shows here.

use elicit_mcp::Elicit;
use serde::Serialize;

// copied from examples/conformance_server.rs
/// `test_elicitation`: the user's name and email, both required.
#[derive(Debug, Elicit, Serialize)]
pub(crate) struct UserResponse {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// `test_elicitation_sep1034_defaults` (SEP-1034): a default for every primitive type.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please review your profile; every field has a default")]
pub(crate) struct DefaultsForm {
    /// User name
    #[elicit(default = "John Doe")]
    name: String,
    /// User age
    #[elicit(default = 30)]
    age: u32,
    /// User score
    #[elicit(default = 95.5)]
    score: f64,
    /// User status
    #[elicit(default = AccountStatus::Active)]
    status: AccountStatus,
    /// Verification status
    #[elicit(default = true)]
    verified: bool,
}

/// An untitled single-select: `{"type": "string", "enum": ["active", "inactive", "pending"]}`
/// (`untitled`: the titles the derive would make, "Active" .., would make it a titled one).
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
#[elicit(untitled)]
enum AccountStatus {
    Active,
    Inactive,
    Pending,
}

/// `test_elicitation_sep1330_enums` (SEP-1330): every enum shape of the spec.
///
/// `legacy_enum` is derived as a titled single-select like `titled_single`; the tool sends it in
/// the deprecated `enum` + `enumNames` shape instead (see [`with_legacy_enum_names`]), which
/// offers the same values, so the derived parser reads the answer as it is.
#[derive(Debug, Elicit, Serialize)]
#[elicit(
    message = "Please pick from each kind of list",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EnumsForm {
    /// Untitled single-select
    untitled_single: PlainOption,
    /// Titled single-select
    titled_single: TitledOption,
    /// Legacy titled single-select (enumNames)
    legacy_enum: LegacyOption,
    /// Untitled multi-select
    untitled_multi: Vec<PlainOption>,
    /// Titled multi-select
    titled_multi: Vec<TitledChoice>,
}

/// `option1` .. `option3`, without titles: `enum` / `items.enum` (`untitled`, as for
/// [`AccountStatus`]).
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
#[elicit(untitled)]
enum PlainOption {
    Option1,
    Option2,
    Option3,
}

/// `value1` .. `value3` with titles: `oneOf`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum TitledOption {
    #[elicit(title = "First Option")]
    Value1,
    #[elicit(title = "Second Option")]
    Value2,
    #[elicit(title = "Third Option")]
    Value3,
}

/// `opt1` .. `opt3` with titles, sent as `enumNames`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum LegacyOption {
    #[elicit(title = "Option One")]
    Opt1,
    #[elicit(title = "Option Two")]
    Opt2,
    #[elicit(title = "Option Three")]
    Opt3,
}

/// `value1` .. `value3` with titles, as the items of a multi-select: `items.anyOf`.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    #[elicit(title = "First Choice")]
    Value1,
    #[elicit(title = "Second Choice")]
    Value2,
    #[elicit(title = "Third Choice")]
    Value3,
}
// end of the copy

// copied from examples/conformance_server.rs
/// `test_mrtr_echo_state` and `test_mrtr_no_state`, under `confirm`: one optional boolean, as
/// the suite's mock server asks.
#[derive(Debug, Elicit, Serialize)]
#[elicit(message = "Please confirm to continue", key = "confirm")]
pub(crate) struct ContinueConfirmation {
    /// Confirm?
    confirmed: Option<bool>,
}
// end of the copy

/// Does `visitor` with the form numbered `index`: `UserResponse`, `DefaultsForm`,
/// `EnumsForm`, `ContinueConfirmation`; each derives `Serialize` with its wire names.
pub(crate) fn on<V: crate::OnForm>(index: usize, visitor: V) -> V::Out {
    use crate::written;
    match index {
        0 => visitor.on::<UserResponse>(Some(written)),
        1 => visitor.on::<DefaultsForm>(Some(written)),
        2 => visitor.on::<EnumsForm>(Some(written)),
        _ => visitor.on::<ContinueConfirmation>(Some(written)),
    }
}
