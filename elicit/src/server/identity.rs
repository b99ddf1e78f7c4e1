//! Who a request stands for: the authenticated user, and the client connection they use.
//! Form and URL mode both bind state to them, so they need no URL-mode crate.

use crate::server::debug_as_message;
use std::error::Error;
use std::fmt;

/// The user an elicitation belongs to: the subject (`sub`) from the server's own verification
/// of the user's credentials (MCP authorization), never something the client claims and never
/// the session id.
///
/// If the server accepts tokens from several authorization servers, build it with
/// [`from_issuer_and_subject`](Self::from_issuer_and_subject), since a subject is unique only
/// per issuer. Either way the subject stays known on its own, and the tracker refuses a URL
/// that mentions it or the whole id anywhere.
///
/// ```
/// use elicit_mcp::server::UserId;
/// let alice = UserId::from_issuer_and_subject("https://auth.example.com", "alice-sub").unwrap();
/// assert_eq!(alice.subject(), "alice-sub");
/// assert_eq!(alice.as_str(), "https://auth.example.com alice-sub");
/// assert_eq!(alice.to_string(), "https://auth.example.com alice-sub");
/// assert_eq!(format!("{alice:?}"), r#"UserId("https://auth.example.com alice-sub")"#);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UserId {
    /// The whole id: the subject, or the issuer, a space, and the subject.
    id: String,
    /// Where the subject starts in `id`.
    subject_at: usize,
}

/// The whole id, as [`as_str`](UserId::as_str) gives it: what a log or a tool's answer shows.
impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}

/// The whole id, quoted; where the subject starts is how the id is kept, not what it says.
impl fmt::Debug for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UserId").field(&self.id).finish()
    }
}

/// A [`UserId`] cannot be empty: every anonymous caller would share its elicitations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct EmptyUserIdError;

impl fmt::Display for EmptyUserIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a user id cannot be empty: elicitations must be bound to an authenticated subject",
        )
    }
}

impl Error for EmptyUserIdError {}

debug_as_message!(EmptyUserIdError);

impl UserId {
    /// The user with this verified subject, from the one authorization server the server
    /// trusts.
    pub fn from_verified_subject(subject: impl Into<String>) -> Result<Self, EmptyUserIdError> {
        let subject = subject.into();
        if subject.trim().is_empty() {
            return Err(EmptyUserIdError);
        }
        Ok(UserId {
            id: subject,
            subject_at: 0,
        })
    }

    /// The user with this verified subject from this issuer (`iss`), for a server that trusts
    /// several authorization servers. Neither may be empty.
    pub fn from_issuer_and_subject(
        issuer: impl AsRef<str>,
        subject: impl AsRef<str>,
    ) -> Result<Self, EmptyUserIdError> {
        let (issuer, subject) = (issuer.as_ref(), subject.as_ref());
        if issuer.trim().is_empty() || subject.trim().is_empty() {
            return Err(EmptyUserIdError);
        }
        Ok(UserId {
            id: format!("{issuer} {subject}"),
            subject_at: issuer.len() + 1,
        })
    }

    /// The whole id: the subject, or for an issuer-qualified id the issuer, a space and the
    /// subject. Two users are the same when their whole ids are.
    pub fn as_str(&self) -> &str {
        &self.id
    }

    /// The subject alone.
    pub fn subject(&self) -> &str {
        &self.id[self.subject_at..]
    }

    /// The issuer, for an id made with [`from_issuer_and_subject`](Self::from_issuer_and_subject).
    pub fn issuer(&self) -> Option<&str> {
        self.subject_at
            .checked_sub(1)
            .map(|space| &self.id[..space])
    }

    /// What must not appear in a URL sent for this user: the whole id and the subject.
    #[cfg(feature = "url-mode")]
    pub(crate) fn identifiers(&self) -> [&str; 2] {
        [self.as_str(), self.subject()]
    }
}

/// The client connection (MCP session) an elicitation was started from. It says where to send
/// the completion notification and nothing else: who the user is comes from [`UserId`] only.
///
/// A server running as several replicas names the replica too
/// ([`on_replica`](Self::on_replica)), so that a completion on another replica is routed to the
/// one holding the connection.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ConnectionId {
    id: String,
    replica: Option<String>,
}

impl ConnectionId {
    /// The connection with this id, as the transport names it.
    pub fn new(id: impl Into<String>) -> Self {
        ConnectionId {
            id: id.into(),
            replica: None,
        }
    }

    /// The connection with this id on the server replica named `replica`.
    pub fn on_replica(replica: impl Into<String>, id: impl Into<String>) -> Self {
        ConnectionId {
            id: id.into(),
            replica: Some(replica.into()),
        }
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.id
    }

    /// The replica holding the connection, if named.
    pub fn replica(&self) -> Option<&str> {
        self.replica.as_deref()
    }
}

/// Who starts an elicitation: the authenticated user, and the client connection they use.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Initiator {
    /// The user, from the server's verification of their credentials.
    pub user: UserId,
    /// The connection the request came in on.
    pub connection: ConnectionId,
}

impl Initiator {
    /// The user on this connection.
    pub fn new(user: UserId, connection: ConnectionId) -> Self {
        Initiator { user, connection }
    }
}
