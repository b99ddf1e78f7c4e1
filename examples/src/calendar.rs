//! The calendar a user connects on the server's secure page, shared by `secure_page` and
//! `authorized_server`: the form that asks for its key ([`CalendarKey`], a secret, so asked on
//! the page only), and the tool's body ([`connect_calendar`]), which keeps the key for the user
//! and finds it on the next call.

use std::time::Duration;

use elicit_mcp::rmcp::Ask;
use elicit_mcp::server::{CredentialStore, UserId};
use elicit_mcp::{Elicit, ElicitOutcome, Secret};
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};

/// What `connect_calendar` needs: a secret, so it is asked on the page only.
#[derive(Elicit)]
#[elicit(message = "Connect your calendar")]
pub struct CalendarKey {
    /// The API key from your calendar's settings
    #[elicit(min_length = 8)]
    pub api_key: Secret<String>,
    /// Which of your calendars to read
    #[elicit(min_length = 1, max_length = 60)]
    pub calendar: String,
    /// Your calendar server's address, if it is not the provider's own
    pub server: Option<url::Url>,
}

/// The name the calendar's key is kept under, per user.
pub const CREDENTIAL: &str = "calendar";

/// How long a kept key is used before the user is asked again.
pub const KEEP_FOR: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The tool `connect_calendar`: the key kept for the asking user in `credentials` when there
/// is one, else asked on the page (URL mode) and kept. Its answer names the user and the key's
/// length, never the key.
pub async fn connect_calendar(
    ask: Ask,
    credentials: &impl CredentialStore,
) -> Result<CallToolResult, ErrorData> {
    let user = signed_in(&ask)?.clone();
    let name = user.as_str();
    if let Some(key) = kept_key(credentials, &user).await? {
        let reply = format!(
            "{name}'s calendar is connected already, with a key of {} characters.",
            key.expose_secret().chars().count()
        );
        return Ok(CallToolResult::success(vec![ContentBlock::text(reply)]));
    }
    let reply = match ask.secure::<CalendarKey>().await {
        Ok(ElicitOutcome::Accepted(key)) => {
            credentials
                .keep(&user, CREDENTIAL, &key.api_key, KEEP_FOR)
                .await
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            let at = key
                .server
                .map(|server| format!(" on {server}"))
                .unwrap_or_default();
            format!(
                "Connected {name}'s calendar \"{}\"{at} with a key of {} characters.",
                key.calendar,
                key.api_key.expose_secret().chars().count()
            )
        }
        Ok(ElicitOutcome::Declined) => format!("{name} declined to connect a calendar."),
        Ok(_) => format!("{name} closed the calendar form."),
        Err(error) => return error.into_call_result(),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(reply)]))
}

/// The user the request stands for, or the error of a tool that needs one.
pub fn signed_in(ask: &Ask) -> Result<&UserId, ErrorData> {
    ask.user()
        .ok_or_else(|| ErrorData::invalid_request("this tool needs a signed-in user", None))
}

/// The key kept for `user`, if any.
async fn kept_key(
    credentials: &impl CredentialStore,
    user: &UserId,
) -> Result<Option<Secret<String>>, ErrorData> {
    credentials
        .find(user, CREDENTIAL)
        .await
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
}
