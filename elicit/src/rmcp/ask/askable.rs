//! [`AskableForm`]: what [`Ask::form`](crate::rmcp::Ask::form) asks for, so that asking for a
//! form without a message of its own is an error that names the ask's way to give one.

use crate::HasMessage;

/// A form that [`Ask::form`](crate::rmcp::Ask::form) and [`Ask::forms`](crate::rmcp::Ask::forms)
/// can ask for as it is: one with `#[elicit(message = "..")]`. Implemented for every
/// [`HasMessage`] type, and for nothing else.
///
/// It is [`HasMessage`] under the name of the ask, so that the compile error of a form without a
/// message says how to give it one where it is asked:
/// [`Ask::form_with_message`](crate::rmcp::Ask::form_with_message).
///
/// ```
/// use elicit_mcp::rmcp::Ask;
///
/// #[derive(elicit_mcp::Elicit)]
/// #[elicit(message = "How many nights?")]
/// struct Stay {
///     nights: u8,
/// }
///
/// #[derive(elicit_mcp::Elicit)]
/// struct Party {
///     guests: u8,
/// }
///
/// async fn book(ask: &Ask) {
///     let _stay = ask.form::<Stay>().await;
///     // `Party` has no message of its own: give it where it is asked.
///     let _party = ask.form_with_message::<Party>("How many guests?").await;
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no message of its own, which `ask.form::<{Self}>()` sends",
    label = "no `#[elicit(message = \"..\")]` on `{Self}`",
    note = "give the message where you ask: `ask.form_with_message::<{Self}>(\"..\")`, or add `#[elicit(message = \"..\")]` to the struct `{Self}`"
)]
pub trait AskableForm: HasMessage {}

#[diagnostic::do_not_recommend]
impl<T: HasMessage> AskableForm for T {}
