//! What a derived form is: [`Elicit`], with [`HasMessage`] for a form that carries its message
//! and [`ClientForm`] for one the client may be shown. The derive implements them; everything
//! that asks for a form, here and in the layers above, is generic over them.

use serde_json::{Map, Value};

use crate::form::defaults::FormDefaults;
use crate::form::error::ContentError;
use crate::form::outcome::ElicitOutcome;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitAction, ElicitRequestFormParams, ElicitResult};

/// A form that can be asked for through form-mode elicitation: implemented by
/// [`#[derive(Elicit)]`](derive@crate::Elicit) on a struct with named fields. The derive's page is
/// the reference of its attributes and of what each field type becomes.
///
/// ```
/// use elicit_mcp::{Elicit, ElicitOutcome};
/// use elicit_mcp::wire::ElicitResult;
///
/// #[derive(Elicit, Debug)]
/// #[elicit(message = "How many guests are coming?")]
/// struct Party {
///     #[elicit(minimum = 1, maximum = 12)]
///     guests: u8,
///     vegetarian: Option<bool>,
/// }
///
/// // What the server sends: the params of `elicitation/create`.
/// assert_eq!(
///     serde_json::to_string(&Party::form_request()).unwrap(),
///     concat!(
///         r#"{"mode":"form","message":"How many guests are coming?","#,
///         r#""requestedSchema":{"type":"object","properties":{"#,
///         r#""guests":{"type":"integer","title":"Guests","minimum":1,"maximum":12},"#,
///         r#""vegetarian":{"type":"boolean","title":"Vegetarian"}},"required":["guests"]}}"#,
///     )
/// );
/// // The same schema, typed and as text, both laid down at compile time.
/// assert!(Party::requested_schema().required().eq(["guests"]));
/// assert!(Party::requested_schema_json().starts_with(r#"{"type":"object""#));
///
/// // What the client answers.
/// let result: ElicitResult =
///     serde_json::from_str(r#"{"action": "accept", "content": {"guests": 4}}"#).unwrap();
/// let party = Party::from_result(&result).unwrap().accepted().unwrap();
/// assert_eq!((party.guests, party.vegetarian), (4, None));
/// assert!(matches!(Party::from_result(&ElicitResult::decline()), Ok(ElicitOutcome::Declined)));
/// ```
///
/// For a non-generic type, [`requested_schema`](Elicit::requested_schema) and
/// [`requested_schema_json`](Elicit::requested_schema_json) return statics laid down by const
/// evaluation: calling them allocates nothing and serializes nothing. A generic type's schema
/// cannot live in a `static`, so it is built from the same constant on first use per
/// instantiation, cached for the life of the process, and returned from the cache afterwards.
// A newtype or a choice enum with the derive is the likeliest type to be asked for as a form by
// mistake: it has `#[derive(Elicit)]` but is a field type, so the error says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an elicitation form",
    label = "not a form: a form is a struct with named fields and #[derive(Elicit)]",
    note = "#[derive(Elicit)] on a tuple struct of one field makes a newtype, and on a unit-only enum a choice: both are field types, asked for as a field of a form, not on their own",
    note = "to ask for one value, ask for a form with one named field of its type, e.g. `struct Answer {{ value: {Self} }}` with #[derive(Elicit)]"
)]
pub trait Elicit: Sized {
    /// The key this form is asked under in a 2026-07-28 round (`inputRequests` and
    /// `inputResponses`): the type's name in snake case (`RoomBooking` is `room_booking`), or
    /// the `#[elicit(key = "..")]` of the form. Computed at compile time from the source, so
    /// it does not change with the compiler or the module the type lives in; name it with
    /// `key` to keep it when the type is renamed, so that states sealed before a deploy still
    /// open after it.
    ///
    /// ```
    /// use elicit_mcp::Elicit;
    ///
    /// #[derive(Elicit)]
    /// struct RoomBooking {
    ///     nights: u8,
    /// }
    ///
    /// #[derive(Elicit)]
    /// #[elicit(key = "room_booking")]
    /// struct BookingV2 {
    ///     nights: u8,
    /// }
    ///
    /// assert_eq!(RoomBooking::INPUT_KEY, "room_booking");
    /// assert_eq!(BookingV2::INPUT_KEY, RoomBooking::INPUT_KEY);
    /// ```
    const INPUT_KEY: &'static str;

    /// The form's defaults known only at run time, typed: a type of the derive's own with one
    /// public field per asked field, named as the Rust field, each a
    /// [`FormDefault`](crate::FormDefault) of the field's type, set with a value of the field's
    /// values (the `T` of an `Option<T>` field). Fill it in a closure given to
    /// [`defaults_of`](crate::defaults_of), which gives the wire map that
    /// [`RequestedSchema::with_defaults`](crate::schema::RequestedSchema::with_defaults) checks and
    /// shows; a field the form does not have, or a value of another type, does not compile.
    ///
    /// ```
    /// use elicit_mcp::{Elicit, defaults_of};
    ///
    /// #[derive(Elicit)]
    /// #[elicit(rename_all = "camelCase")]
    /// struct Stay {
    ///     #[elicit(format = "date")]
    ///     check_in: String,
    ///     #[elicit(minimum = 1, maximum = 30)]
    ///     nights: u8,
    /// }
    ///
    /// let today = "2026-12-24";
    /// let defaults = defaults_of::<Stay>(|d| d.check_in.set(today));
    /// assert_eq!(
    ///     serde_json::Value::Object(defaults),
    ///     serde_json::json!({"checkIn": "2026-12-24"})
    /// );
    /// ```
    type Defaults: FormDefaults;

    /// The wire names of the form's secret fields (those of type [`Secret`](crate::Secret) or
    /// `Option<Secret<..>>`), in the order of the schema's properties; empty for a form without
    /// one, which is then a [`ClientForm`]. The derive lists them; the schema itself marks
    /// nothing (a secret is a plain string property), so this is how the code that asks the
    /// form on the server's own page knows which answers to keep out of reach.
    ///
    /// ```
    /// use elicit_mcp::{Elicit, Secret};
    ///
    /// #[derive(Elicit)]
    /// #[elicit(rename_all = "camelCase")]
    /// struct BankLink {
    ///     account_holder: String,
    ///     online_password: Secret<String>,
    ///     one_time_code: Option<Secret<String>>,
    /// }
    ///
    /// assert_eq!(BankLink::SECRET_FIELDS, ["onlinePassword", "oneTimeCode"]);
    /// ```
    const SECRET_FIELDS: &'static [&'static str] = &[];

    /// The `requestedSchema` of this form.
    fn requested_schema() -> &'static RequestedSchema;

    /// The same schema as JSON text, exactly what `serde_json::to_string` gives for it.
    fn requested_schema_json() -> &'static str;

    /// Parses and validates accepted form content: every rule of the schema is checked, missing
    /// fields with a default take it, unknown keys are ignored, and every field at fault is
    /// reported at once.
    fn from_content(
        content: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self, ContentError>;

    /// [`from_content`](Elicit::from_content) on content the caller gives away, as
    /// `serde_json::from_value` is to deserializing from `&Value`: the same checks and the
    /// same errors, and the strings the form keeps are moved out of the content rather than
    /// copied. The derive implements it; the default borrows.
    ///
    /// ```
    /// use elicit_mcp::Elicit;
    ///
    /// #[derive(Elicit)]
    /// struct Rsvp {
    ///     #[elicit(min_length = 1)]
    ///     name: String,
    ///     guests: u8,
    /// }
    ///
    /// let content = serde_json::from_str(r#"{"name": "Ada", "guests": 2}"#).unwrap();
    /// let rsvp = Rsvp::from_content_owned(content).unwrap();
    /// assert_eq!((rsvp.name.as_str(), rsvp.guests), ("Ada", 2));
    /// ```
    fn from_content_owned(
        content: serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self, ContentError> {
        Self::from_content(&content)
    }

    /// The typed outcome of a client's result. An accept without content is parsed as empty
    /// content, so required fields are reported missing rather than anything crashing.
    fn from_result(result: &ElicitResult) -> Result<ElicitOutcome<Self>, ContentError> {
        match result.action {
            ElicitAction::Accept => {
                let empty = serde_json::Map::new();
                let content = result.content.as_ref().unwrap_or(&empty);
                Self::from_content(content).map(ElicitOutcome::Accepted)
            }
            ElicitAction::Decline => Ok(ElicitOutcome::Declined),
            ElicitAction::Cancel => Ok(ElicitOutcome::Cancelled),
        }
    }

    /// The params of a form-mode `elicitation/create` for this form, with the message of
    /// `#[elicit(message = "..")]`. Without that attribute this does not compile; use
    /// [`form_request_with_message`](Elicit::form_request_with_message).
    ///
    /// A form with a [`Secret`](crate::Secret) field does not compile here either (it is not a
    /// [`ClientForm`]): the client would see the secret.
    fn form_request() -> ElicitRequestFormParams
    where
        Self: HasMessage + ClientForm,
    {
        Self::form_request_with_message(<Self as HasMessage>::MESSAGE)
    }

    /// The params of a form-mode `elicitation/create` for this form, with `message`. Only for a
    /// [`ClientForm`], one without a [`Secret`](crate::Secret) field.
    fn form_request_with_message(message: impl Into<String>) -> ElicitRequestFormParams
    where
        Self: ClientForm,
    {
        ElicitRequestFormParams::new(message, Self::requested_schema())
    }
}

/// A form with `#[elicit(message = "..")]`: implemented by the derive when the attribute is given.
///
/// It is what [`Elicit::form_request`] (and the typed calls of the `rmcp` integration) need; a
/// form without a message is asked for with [`Elicit::form_request_with_message`] instead.
///
/// ```
/// use elicit_mcp::{Elicit, HasMessage};
///
/// #[derive(Elicit)]
/// #[elicit(message = "Pick a nickname")]
/// struct Nickname {
///     nickname: String,
/// }
///
/// assert_eq!(<Nickname as HasMessage>::MESSAGE, "Pick a nickname");
/// ```
// A newtype or a choice enum lands here too when asked for with a message; its derive refuses
// `#[elicit(message)]` with what the type is, so the note need not speak of it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no message of its own: no `#[elicit(message = \"..\")]`",
    label = "no `#[elicit(message = \"..\")]` on `{Self}`",
    note = "add `#[elicit(message = \"..\")]` to the struct `{Self}`, or give the message where you ask: `{Self}::form_request_with_message(\"..\")`"
)]
pub trait HasMessage: Elicit {
    /// The message.
    const MESSAGE: &'static str;
}

/// A form the client may be shown: one without a [`Secret`](crate::Secret) field.
/// `#[derive(Elicit)]` implements it for every form without one, and never for a form with one.
///
/// Form mode shows every field to the client, and the spec forbids asking for secrets there, so
/// whatever sends a typed form to the client requires it: [`Elicit::form_request`],
/// [`Elicit::form_request_with_message`], and with the feature `rmcp` `Ask::form`,
/// `Ask::form_with_message` and `Ask::forms`. A form with a secret field is asked on the
/// server's own page, through URL mode (`ask.secure::<T>()`), where the client sees only a URL.
///
/// ```
/// use elicit_mcp::{ClientForm, Elicit};
///
/// #[derive(Elicit)]
/// #[elicit(message = "Which calendar?")]
/// struct Calendar {
///     name: String,
/// }
///
/// fn shown_to_the_client<T: ClientForm>() {}
/// shown_to_the_client::<Calendar>();
/// ```
///
/// ```compile_fail,E0277
/// # use elicit_mcp::{ClientForm, Elicit, Secret};
/// #[derive(Elicit)]
/// #[elicit(message = "Connect your calendar")]
/// struct CalendarKey {
///     api_key: Secret<String>,
///     calendar: String,
/// }
///
/// fn shown_to_the_client<T: ClientForm>() {}
/// shown_to_the_client::<CalendarKey>();
/// // error[E0277]: `CalendarKey` has a secret field, which the spec forbids asking for in
/// //               form mode
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has a secret field, which the spec forbids asking for in form mode",
    label = "a form with a secret field, asked through the client",
    note = "the client sees every answer of a form it is sent; ask this one on the server's own page, through URL mode: `ask.secure::<{Self}>()`",
    note = "#[derive(Elicit)] implements `ClientForm` for every form without an `elicit_mcp::Secret` field"
)]
pub trait ClientForm: Elicit {}

/// The run-time defaults of form `T`, filled in by `fill`, as the wire map that
/// [`RequestedSchema::with_defaults`](crate::schema::RequestedSchema::with_defaults) takes: a
/// typed way to name the fields and give their values, the map the rest of the crate speaks.
///
/// ```
/// use elicit_mcp::{Elicit, defaults_of};
///
/// #[derive(Elicit, Debug, PartialEq)]
/// #[elicit(rename_all = "lowercase")]
/// enum Room { Single, Double }
///
/// #[derive(Elicit)]
/// #[elicit(rename_all = "camelCase")]
/// struct Stay {
///     #[elicit(format = "date")]
///     check_in: String,
///     room: Room,
/// }
///
/// let defaults = defaults_of::<Stay>(|d| {
///     d.check_in.set("2026-12-24");
///     d.room.set(Room::Double);
/// });
/// assert_eq!(
///     serde_json::Value::Object(defaults.clone()),
///     serde_json::json!({"checkIn": "2026-12-24", "room": "double"})
/// );
///
/// // Checked against the form's rules and shown, as a run-time default is.
/// let schema = Stay::requested_schema().with_defaults(&defaults).unwrap();
/// assert_eq!(schema.property("room").unwrap().schema.default_value(), Some("double".into()));
/// ```
///
/// A field the form does not have, or a value of another type, does not compile:
///
/// ```compile_fail,E0609
/// # use elicit_mcp::{Elicit, defaults_of};
/// # #[derive(Elicit)]
/// # struct Stay { check_in: String }
/// defaults_of::<Stay>(|d| d.chek_in.set("2026-12-24"));
/// // error[E0609]: no field `chek_in` on type `&mut StayDefaults`
/// //   = note: available fields are: `check_in`
/// ```
pub fn defaults_of<T: Elicit>(fill: impl FnOnce(&mut T::Defaults)) -> Map<String, Value> {
    let mut defaults = T::Defaults::default();
    fill(&mut defaults);
    defaults.to_wire()
}
