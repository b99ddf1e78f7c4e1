//! Ids the server makes: drawn from the operating system's random source, so that an id seen by
//! no one cannot be guessed.

use std::fmt;

use super::ElicitationId;

/// The operating system could not supply random bytes for an [`ElicitationId`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomnessUnavailableError {
    reason: String,
}

impl fmt::Display for RandomnessUnavailableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the operating system's random source failed: {}",
            self.reason
        )
    }
}

impl std::error::Error for RandomnessUnavailableError {}

impl ElicitationId {
    /// How many bits of OS randomness [`random`](ElicitationId::random) puts in an id.
    pub const RANDOM_BITS: usize = 128;

    /// A fresh id of [`RANDOM_BITS`](ElicitationId::RANDOM_BITS) bits from the operating
    /// system's random source, as lowercase hex (URL-safe as it is).
    pub fn random() -> Result<Self, RandomnessUnavailableError> {
        let mut bytes = [0u8; Self::RANDOM_BITS / 8];
        getrandom::fill(&mut bytes).map_err(|e| RandomnessUnavailableError {
            reason: e.to_string(),
        })?;
        let mut hex = String::with_capacity(bytes.len() * 2);
        for byte in bytes {
            hex.push(char::from(HEX[usize::from(byte >> 4)]));
            hex.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
        Ok(ElicitationId(hex))
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";
