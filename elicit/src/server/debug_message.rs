//! `Debug` that says what `Display` says, for the errors of a server's setup: `main` returning
//! one (`fn main() -> Result<(), Box<dyn Error>>`) prints its `Debug`, and the derived one
//! would show the variant's fields instead of the message that says what to change.

/// Implements `Debug` for each type as its `Display`.
macro_rules! debug_as_message {
    ($($error:ty),+ $(,)?) => {$(
        impl ::std::fmt::Debug for $error {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(self, f)
            }
        }
    )+};
}

pub(crate) use debug_as_message;
