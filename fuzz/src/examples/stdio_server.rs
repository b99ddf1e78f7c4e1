//! The forms of `examples/stdio_server.rs`, copied as they are: `.ci/fuzz` checks that each
//! block between the markers is in the example word for word, so a change there shows here.

use elicit_mcp::Elicit;

// copied from examples/stdio_server.rs
/// The booking form of `book_room`. A field without a `title` gets one made from its name
/// (`nights` is "Nights"), which clients show as its label.
#[derive(Debug, Elicit)]
#[elicit(
    message = "Where and when would you like to stay?",
    rename_all = "camelCase"
)]
pub(crate) struct BookingRequest {
    /// The day you arrive
    #[elicit(title = "Check-in date", format = "date")]
    check_in: String,
    /// How many nights you stay
    #[elicit(minimum = 1, maximum = 30, default = 1)]
    nights: u8,
    /// How many people stay in the room
    #[elicit(minimum = 1, maximum = 4, default = 2)]
    guests: u8,
    #[elicit(title = "Room type", default = RoomType::Standard)]
    room: RoomType,
    /// Anything to add to the stay
    #[elicit(max_items = 3, default = [])]
    extras: Vec<Extra>,
}

/// A single-select with titles (`oneOf`).
#[derive(Debug, Clone, Copy, PartialEq, Elicit)]
#[elicit(rename_all = "kebab-case")]
enum RoomType {
    #[elicit(title = "Standard room")]
    Standard,
    #[elicit(title = "Deluxe room with a view")]
    Deluxe,
    Suite,
}

/// The items of a multi-select with titles (`items.anyOf`), "Breakfast" and "Parking" made
/// from the variants' names.
#[derive(Debug, Clone, Copy, PartialEq, Elicit)]
#[elicit(rename_all = "kebab-case")]
enum Extra {
    Breakfast,
    Parking,
    #[elicit(title = "Late check-out")]
    LateCheckOut,
}

/// The contact form of `update_contact`.
#[derive(Debug, Elicit)]
#[elicit(
    message = "How can the front desk reach you?",
    rename_all = "camelCase"
)]
pub(crate) struct ContactDetails {
    /// Your full name
    #[elicit(title = "Name", min_length = 2, max_length = 80)]
    full_name: String,
    #[elicit(format = "email")]
    email: String,
    /// Digits, spaces and dashes, with an optional leading +
    #[elicit(pattern = r"^\+?[0-9][0-9 \-]{5,19}$")]
    phone: Option<String>,
    /// Send me offers by email
    #[elicit(default = false)]
    newsletter: bool,
}

/// The confirmation of `cancel_booking`.
#[derive(Debug, Elicit)]
pub(crate) struct Confirmation {
    /// Tick to cancel the booking; it cannot be undone
    #[elicit(title = "Yes, cancel it")]
    confirm: bool,
}
// end of the copy

/// Does `visitor` with the form numbered `index`: `BookingRequest`, `ContactDetails`,
/// `Confirmation`.
pub(crate) fn on<V: crate::OnForm>(index: usize, visitor: V) -> V::Out {
    match index {
        0 => visitor.on::<BookingRequest>(None),
        1 => visitor.on::<ContactDetails>(None),
        _ => visitor.on::<Confirmation>(None),
    }
}
