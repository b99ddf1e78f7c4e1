//! A keyring as configuration writes it (`id:HEX` entries separated by commas, the first one
//! sealing), read without ever showing a key: an error names the entry by its position.

use std::fmt;

use zeroize::Zeroizing;

/// A keyring read from configuration text by
/// [`RequestStateSeal::parse_keyring`](super::RequestStateSeal::parse_keyring): the id of the
/// key that seals, and every key by its id, in the order written. Its keys are wiped from
/// memory when it drops, and its `Debug` shows the ids only.
///
/// ```
/// use elicit_mcp::rmcp::RequestStateSeal;
///
/// let text = format!("new:{},old:{}", "6e".repeat(32), "6f".repeat(32));
/// let keyring = RequestStateSeal::parse_keyring(&text).unwrap();
/// assert_eq!(keyring.signing_id(), "new");
/// let ids: Vec<&str> = keyring.keys().map(|(id, _)| id).collect();
/// assert_eq!(ids, ["new", "old"]);
/// let seal = RequestStateSeal::from_keyring(keyring.signing_id(), keyring.keys()).unwrap();
/// # let _ = seal;
/// ```
pub struct ParsedKeyring {
    keys: Vec<(String, Zeroizing<Vec<u8>>)>,
}

impl ParsedKeyring {
    /// The id of the key that seals: the first entry's.
    pub fn signing_id(&self) -> &str {
        // `parse` refuses text without an entry: there is a first.
        self.keys.first().map_or("", |(id, _)| id)
    }

    /// Every key by its id, the signing one first.
    pub fn keys(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.keys
            .iter()
            .map(|(id, key)| (id.as_str(), key.as_slice()))
    }

    /// Reads `text`, or says what is wrong and where without any part of an entry's text.
    pub(super) fn parse(text: &str) -> Result<Self, String> {
        let refused = |problem: String| {
            format!("{problem} (an entry's text is not shown, as it may hold a key)")
        };
        let mut keys: Vec<(String, Zeroizing<Vec<u8>>)> = Vec::new();
        for (position, entry) in text.split(',').map(str::trim).enumerate() {
            let number = position + 1;
            let (id, hex) = entry.split_once(':').ok_or_else(|| {
                refused(format!(
                    "keyring entry {number} is not `id:HEX`: it has no `:`"
                ))
            })?;
            let id = id.trim();
            if id.is_empty() {
                return Err(refused(format!("keyring entry {number} has an empty id")));
            }
            let key = decode_hex(hex.trim())
                .map_err(|problem| refused(format!("keyring entry {number}: its key {problem}")))?;
            if let Some(first) = keys.iter().position(|(known, _)| known == id) {
                return Err(refused(format!(
                    "keyring entries {} and {number} have the same id",
                    first + 1
                )));
            }
            keys.push((id.to_owned(), key));
        }
        Ok(ParsedKeyring { keys })
    }
}

impl fmt::Debug for ParsedKeyring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<&str> = self.keys().map(|(id, _)| id).collect();
        f.debug_struct("ParsedKeyring")
            .field("signing", &self.signing_id())
            .field("ids", &ids)
            .finish()
    }
}

/// The bytes `hex` writes, or what is wrong with it, in words that show none of its digits.
fn decode_hex(hex: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    let digits: Zeroizing<Vec<u8>> = hex
        .chars()
        .enumerate()
        .map(|(position, c)| c.to_digit(16).map(|digit| digit as u8).ok_or(position))
        .collect::<Result<Vec<u8>, usize>>()
        .map_err(|position| {
            format!(
                "has a character that is not a hex digit at position {}",
                position + 1
            )
        })?
        .into();
    if !digits.len().is_multiple_of(2) {
        return Err(format!(
            "has {} hex digits; a key is whole bytes, two digits each",
            digits.len()
        ));
    }
    Ok(Zeroizing::new(
        digits
            .chunks(2)
            .map(|pair| (pair[0] << 4) | pair[1])
            .collect(),
    ))
}
