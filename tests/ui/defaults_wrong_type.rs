use elicit_mcp::{Elicit, defaults_of};

#[derive(Elicit)]
enum Room {
    Single,
    Double,
}

// A run-time default is a value of the field's own type: a number field takes no text, a choice
// no wire value.
#[derive(Elicit)]
struct Stay {
    nights: u8,
    room: Option<Room>,
}

fn main() {
    let _ = defaults_of::<Stay>(|d| {
        d.nights.set("3");
        d.room.set("Double");
    });
}
