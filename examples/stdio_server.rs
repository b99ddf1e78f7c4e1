//! A hotel's MCP server over stdio, on rmcp, whose `#[tool]` methods ask the user through
//! form-mode elicitation with an [`Ask`], on either protocol revision: by `elicitation/create`
//! on 2025-11-25, by input-required results on 2026-07-28 (what today's clients negotiate by
//! default). The tools are listed the same on both. Each form is a derived type: its schema is
//! a compile-time constant, and the user's answer comes back parsed and validated, or as a
//! list of field errors.
//!
//! - `book_room`: a booking form with a check-in date (today's, pre-filled at run time), a
//!   room type (single-select) and extras (multi-select); an answer with field errors is asked
//!   again, the errors in the message and the right answers kept;
//! - `update_contact`: a contact form (email checked as an email, phone as a pattern); it runs
//!   as a task for a client that declared the tasks extension (the form asked inside the task,
//!   answered through `tasks/update`), and as a plain call for any other;
//! - `cancel_booking`: a yes/no confirmation before anything is cancelled.
//!
//! ```sh
//! cargo run -p elicit-examples --features rmcp --example stdio_server
//! ```
//!
//! It speaks MCP on stdin/stdout, so run it from an MCP client (for example, add
//! `cargo run --quiet -p elicit-examples --features rmcp --example stdio_server` as a stdio server in the client's configuration);
//! it logs to stderr.

use std::error::Error;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError};

use elicit_examples::keys;
use elicit_mcp::rmcp::{Ask, Elicitation, Tasks};
use elicit_mcp::server::UserId;
use elicit_mcp::{Elicit, ElicitOutcome};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorData, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;

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

#[derive(Debug)]
struct Booking {
    number: u32,
    request: BookingRequest,
    cancelled: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct BookingNumber {
    /// The booking number `book_room` gave
    booking: u32,
}

#[derive(Clone)]
pub struct Hotel {
    bookings: Arc<Mutex<Vec<Booking>>>,
    contact: Arc<Mutex<Option<ContactDetails>>>,
    tool_router: ToolRouter<Self>,
}

impl Default for Hotel {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router]
impl Hotel {
    /// The hotel, with no bookings yet. What its asks need (the seal of `requestState`, the
    /// limits of a call, who the user is) is the [`Elicitation`] that serves it.
    pub fn new() -> Self {
        Hotel {
            bookings: Arc::default(),
            contact: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Books a room; asks the user for the dates, the room and extras")]
    async fn book_room(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        // Today is a default known only at run time.
        let today = time::OffsetDateTime::now_utc().date().to_string();
        // A wrong answer is asked again by itself, the errors in the message and the fields
        // the user got right kept (a call asks one form at most `Elicitation::with_max_asks` times).
        let asked = ask
            .form::<BookingRequest>()
            .with_defaults(|d| d.check_in.set(today))
            .await;
        let request = match asked {
            Ok(ElicitOutcome::Accepted(request)) => request,
            Ok(ElicitOutcome::Declined) => {
                return Ok(text("The user declined to book a room."));
            }
            Ok(ElicitOutcome::Cancelled) => {
                return Ok(text("The user closed the booking form."));
            }
            Err(error) => return error.into_call_result(),
        };
        let mut bookings = lock(&self.bookings);
        let number = 1000 + bookings.len() as u32 + 1;
        let summary = describe(number, &request);
        bookings.push(Booking {
            number,
            request,
            cancelled: false,
        });
        Ok(text(format!("Booked. {summary}")))
    }

    #[tool(description = "Updates how the hotel reaches the guest; asks the user for the details")]
    async fn update_contact(&self, ask: Ask) -> Result<CallToolResult, ErrorData> {
        match ask.form::<ContactDetails>().await {
            Ok(ElicitOutcome::Accepted(details)) => {
                let mut reply = format!(
                    "We will write to {} at {}",
                    details.full_name, details.email
                );
                if let Some(phone) = &details.phone {
                    let _ = write!(reply, " and call {phone}");
                }
                reply.push_str(if details.newsletter {
                    ", newsletter on."
                } else {
                    ", no newsletter."
                });
                *lock(&self.contact) = Some(details);
                Ok(text(reply))
            }
            Ok(ElicitOutcome::Declined | ElicitOutcome::Cancelled) => {
                Ok(text("The contact details stay as they were."))
            }
            Err(error) => error.into_call_result(),
        }
    }

    #[tool(description = "Cancels a booking after the user confirms")]
    async fn cancel_booking(
        &self,
        Parameters(BookingNumber { booking }): Parameters<BookingNumber>,
        ask: Ask,
    ) -> Result<CallToolResult, ErrorData> {
        let summary = match lock(&self.bookings)
            .iter()
            .find(|b| b.number == booking && !b.cancelled)
        {
            Some(found) => describe(found.number, &found.request),
            None => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "There is no open booking {booking}."
                ))]));
            }
        };
        let message = format!("Cancel this booking? {summary}");
        // The side effect comes after the last ask: on 2026-07-28 the method runs again from
        // the start with each round's answers.
        match ask.form_with_message::<Confirmation>(message).await {
            Ok(ElicitOutcome::Accepted(Confirmation { confirm: true })) => {
                let mut bookings = lock(&self.bookings);
                match bookings
                    .iter_mut()
                    .find(|b| b.number == booking && !b.cancelled)
                {
                    Some(found) => {
                        found.cancelled = true;
                        Ok(text(format!("Booking {booking} is cancelled.")))
                    }
                    None => Ok(text(format!("Booking {booking} was cancelled meanwhile."))),
                }
            }
            Ok(_) => Ok(text(format!("Booking {booking} is kept."))),
            Err(error) => error.into_call_result(),
        }
    }
}

// Every protocol revision rmcp knows: 2025-11-25 sessions over `initialize`, and 2026-07-28
// requests, found by `server/discover`.
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Hotel {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "elicit-hotel",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Book rooms, update the guest's contact details, cancel bookings.")
    }
}

fn describe(number: u32, request: &BookingRequest) -> String {
    let extras: Vec<String> = request
        .extras
        .iter()
        .map(|extra| format!("{extra:?}"))
        .collect();
    format!(
        "Booking {number}: {:?} room for {} guest(s), {} night(s) from {}{}.",
        request.room,
        request.guests,
        request.nights,
        request.check_in,
        if extras.is_empty() {
            String::new()
        } else {
            format!(", with {}", extras.join(", "))
        }
    )
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    eprintln!("elicit-hotel: MCP over stdio; tools book_room, update_contact, cancel_booking");
    // One process, used by the person who started it: the sealing keys of ELICIT_STATE_KEYS,
    // or a key of its own made at start, and the local user, said once.
    let user = std::env::var("USER").ok().filter(|user| !user.is_empty());
    let user = user.unwrap_or_else(|| "local".to_owned());
    let elicitation = Elicitation::new(keys::state_seal()?)
        .with_local_user(UserId::from_verified_subject(user)?)
        .with_tasks(Tasks::new().optional("update_contact"));
    let running = elicitation
        .serve(Hotel::new(), rmcp::transport::stdio())
        .await?;
    running.waiting().await?;
    Ok(())
}
