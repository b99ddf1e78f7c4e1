//! The forms of `examples/http_server.rs`, copied as they are: `.ci/fuzz` checks that each
//! block between the markers is in the example word for word, so a change there shows here.

use elicit_mcp::Elicit;

// copied from examples/http_server.rs
#[derive(Elicit, Debug)]
#[elicit(
    message = "Where and when would you like to stay?",
    rename_all = "camelCase"
)]
pub(crate) struct Stay {
    #[elicit(format = "date")]
    check_in: String,
    #[elicit(minimum = 1, maximum = 30, default = 1)]
    nights: u8,
}

#[derive(Elicit, Debug)]
#[elicit(message = "Archive the old bookings too?")]
pub(crate) struct Scope {
    archive: bool,
    #[elicit(minimum = 1, maximum = 10, default = 3)]
    years: u8,
}
// end of the copy

/// Does `visitor` with the form numbered `index`: `Stay`, `Scope`.
pub(crate) fn on<V: crate::OnForm>(index: usize, visitor: V) -> V::Out {
    match index {
        0 => visitor.on::<Stay>(None),
        _ => visitor.on::<Scope>(None),
    }
}
