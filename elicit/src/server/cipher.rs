//! Sealed tokens: encrypted and authenticated with XChaCha20-Poly1305, under one key of a
//! keyring (rotation), with their expiry inside and what they belong to as associated data.
//! `requestState` travels as one (the client carries it and reads nothing of it), and a stored
//! credential rests in Redis as one.
//!
//! `e1.KEY_ID.NONCE_AND_CIPHERTEXT`, both parts in unpadded URL-safe base64: the key's id
//! (any text a keyring accepts), then a random 24-byte nonce followed by the ciphertext and
//! its tag. The plaintext is the expiry (Unix seconds, 8 bytes big-endian) followed by the
//! state's JSON. The associated data names the token's version and key, then the binding.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use zeroize::{Zeroize, Zeroizing};

use super::xchacha::{KEY_BYTES, NONCE_BYTES, TAG_BYTES, XChaCha20Poly1305};

/// What a token starts with: its format's version.
const VERSION: &str = "e1";

/// The expiry before the plaintext: Unix seconds, big-endian.
const EXPIRY_BYTES: usize = 8;

/// The fewest bytes a configured key may have.
pub(crate) const MIN_KEY_BYTES: usize = 32;

/// Sets the cipher key apart from any other use of the same configured secret; each use adds
/// its own purpose ([`Keyring::new`]).
const KEY_PURPOSE: &[u8] = b"elicit XChaCha20-Poly1305 v1\0";

/// One key of the keyring: its id, as given and as tokens write it, and the cipher made
/// from it.
#[derive(Clone)]
struct Key {
    id: String,
    /// The id in the token's base64, so that opening finds the key without decoding the
    /// token's id (the encoding is canonical: one text for each id).
    encoded_id: String,
    cipher: XChaCha20Poly1305,
}

/// The keys that open tokens, the first of which seals.
#[derive(Clone)]
pub(crate) struct Keyring {
    keys: Vec<Key>,
}

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The ids only: never a key.
        let ids: Vec<&str> = self.keys.iter().map(|key| key.id.as_str()).collect();
        f.debug_struct("Keyring").field("ids", &ids).finish()
    }
}

/// Why a token did not open. One kind for every cause: the caller refuses them all alike.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unopened;

impl Keyring {
    /// A keyring for `purpose` (what its tokens are, so that one configured secret used for
    /// two purposes makes two keys) whose `sealing` key seals and every key opens. Each key is
    /// a configured secret, hashed with the purpose into the cipher's 32-byte key.
    pub fn new<'a>(
        purpose: &str,
        sealing: (&str, &[u8]),
        others: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    ) -> Keyring {
        let key = |(id, secret): (&str, &[u8])| {
            let mut derived = Zeroizing::new([0u8; KEY_BYTES]);
            Sha256::new()
                .chain_update(KEY_PURPOSE)
                .chain_update((purpose.len() as u64).to_be_bytes())
                .chain_update(purpose)
                .chain_update(secret)
                .finalize_into((&mut *derived).into());
            Key {
                id: id.to_owned(),
                encoded_id: URL_SAFE_NO_PAD.encode(id),
                cipher: XChaCha20Poly1305::new(derived),
            }
        };
        let mut keys = vec![key(sealing)];
        keys.extend(
            others
                .into_iter()
                .filter(|(id, _)| *id != sealing.0)
                .map(key),
        );
        Keyring { keys }
    }

    /// The keyring of configured keys, checked: `sealing` must be one of `keyring`'s ids, and
    /// every key at least [`MIN_KEY_BYTES`] long. The refusal says which, calling the keys
    /// `noun` ("a sealing key"), and never shows a key.
    pub fn configured<K, V>(
        purpose: &str,
        noun: &str,
        sealing: &str,
        keyring: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Keyring, String>
    where
        K: AsRef<str>,
        V: AsRef<[u8]>,
    {
        let keyring: Vec<(K, V)> = keyring.into_iter().collect();
        let Some((_, key)) = keyring.iter().find(|(id, _)| id.as_ref() == sealing) else {
            return Err(format!("the {noun} `{sealing}` is not in the keyring"));
        };
        for (id, key) in &keyring {
            let length = key.as_ref().len();
            if length < MIN_KEY_BYTES {
                return Err(format!(
                    "key `{}` has {length} bytes; a {noun} needs at least {MIN_KEY_BYTES}",
                    id.as_ref()
                ));
            }
        }
        let others = keyring.iter().map(|(id, key)| (id.as_ref(), key.as_ref()));
        Ok(Keyring::new(purpose, (sealing, key.as_ref()), others))
    }

    /// The ids of the keys, the sealing one first.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|key| key.id.as_str())
    }

    /// `plaintext` sealed for `ttl` from now, bound to `bound_to`; `nonce` must be random and
    /// never used before.
    #[cfg(any(feature = "redis", test, fuzzing))]
    pub fn seal(
        &self,
        plaintext: &[u8],
        bound_to: &[u8],
        ttl: Duration,
        nonce: [u8; NONCE_BYTES],
    ) -> Result<String, &'static str> {
        let mut body = body_for(plaintext.len(), ttl, nonce);
        body.extend_from_slice(plaintext);
        self.seal_body(body, nonce, bound_to)
    }

    /// `value`'s JSON sealed as [`seal`](Self::seal) seals a plaintext, written straight into
    /// the buffer it is encrypted in: no copy of the plaintext outlives the sealing, not even
    /// one left behind as the buffer grew.
    #[cfg(any(feature = "rmcp", test))]
    pub fn seal_json(
        &self,
        value: &impl serde::Serialize,
        bound_to: &[u8],
        ttl: Duration,
        nonce: [u8; NONCE_BYTES],
    ) -> Result<String, String> {
        let mut body = body_for(JSON_CAPACITY, ttl, nonce);
        if let Err(e) = serde_json::to_writer(WipedGrowth(&mut body), value) {
            body.zeroize();
            return Err(e.to_string());
        }
        self.seal_body(body, nonce, bound_to).map_err(str::to_owned)
    }

    /// `NONCE | EXPIRES PLAINTEXT` encrypted where it is laid out, its tag appended: the token.
    fn seal_body(
        &self,
        mut body: Vec<u8>,
        nonce: [u8; NONCE_BYTES],
        bound_to: &[u8],
    ) -> Result<String, &'static str> {
        let key = &self.keys[0];
        let aad = associated_data(&key.id, bound_to);
        let Ok(tag) = key.cipher.encrypt(&nonce, &aad, &mut body[NONCE_BYTES..]) else {
            body.zeroize();
            return Err("the state is too large to encrypt");
        };
        body.extend_from_slice(&tag);
        Ok(format!(
            "{VERSION}.{}.{}",
            key.encoded_id,
            URL_SAFE_NO_PAD.encode(&body)
        ))
    }

    /// The plaintext of `token`, if a key of the ring sealed it for `bound_to` and it has not
    /// expired at `now`.
    ///
    /// The plaintext is wiped when dropped: the caller reads it, or takes it out with
    /// `std::mem::take` to keep it in a type that wipes itself.
    pub fn open(
        &self,
        token: &str,
        bound_to: &[u8],
        now: SystemTime,
    ) -> Result<Zeroizing<Vec<u8>>, Unopened> {
        let mut parts = token.split('.');
        let (Some(VERSION), Some(id), Some(body), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(Unopened);
        };
        let key = self
            .keys
            .iter()
            .find(|key| key.encoded_id == id)
            .ok_or(Unopened)?;
        // Decrypted where it was decoded: `NONCE | EXPIRES STATE | TAG` becomes the state alone
        // in the same buffer.
        let mut body = Zeroizing::new(URL_SAFE_NO_PAD.decode(body).map_err(|_| Unopened)?);
        let sealed_end = body
            .len()
            .checked_sub(TAG_BYTES)
            .filter(|&end| end >= NONCE_BYTES + EXPIRY_BYTES)
            .ok_or(Unopened)?;
        let (head, tag) = body.split_at_mut(sealed_end);
        let (nonce, sealed) = head.split_at_mut(NONCE_BYTES);
        let nonce: &[u8; NONCE_BYTES] = (&*nonce).try_into().map_err(|_| Unopened)?;
        let tag: &[u8; TAG_BYTES] = (&*tag).try_into().map_err(|_| Unopened)?;
        let aad = associated_data(&key.id, bound_to);
        key.cipher
            .decrypt(nonce, &aad, sealed, tag)
            .map_err(|_| Unopened)?;
        let (expires, _) = sealed.split_first_chunk::<EXPIRY_BYTES>().ok_or(Unopened)?;
        if u64::from_be_bytes(*expires) <= unix_seconds(now) {
            return Err(Unopened);
        }
        body.truncate(sealed_end);
        body.drain(..NONCE_BYTES + EXPIRY_BYTES);
        Ok(body)
    }
}

/// Room for most states' JSON, so that sealing one seldom grows its buffer.
#[cfg(any(feature = "rmcp", test))]
const JSON_CAPACITY: usize = 512;

/// A token's body up to its plaintext (`NONCE | EXPIRES`), with room for `plaintext` bytes
/// and the tag.
fn body_for(plaintext: usize, ttl: Duration, nonce: [u8; NONCE_BYTES]) -> Vec<u8> {
    let expires = unix_seconds(SystemTime::now() + ttl);
    let mut body = Vec::with_capacity(NONCE_BYTES + EXPIRY_BYTES + plaintext + TAG_BYTES);
    body.extend_from_slice(&nonce);
    body.extend_from_slice(&expires.to_be_bytes());
    body
}

/// Writes into a buffer that, when it must grow, moves to a larger one and wipes the one it
/// leaves (a `Vec` growing by itself frees its old buffer as it was, plaintext and all).
#[cfg(any(feature = "rmcp", test))]
struct WipedGrowth<'a>(&'a mut Vec<u8>);

#[cfg(any(feature = "rmcp", test))]
impl std::io::Write for WipedGrowth<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let buffer = &mut *self.0;
        if buffer.capacity() - buffer.len() < bytes.len() {
            let needed = buffer.len() + bytes.len() + TAG_BYTES;
            let mut larger = Vec::with_capacity(needed.max(2 * buffer.capacity()));
            larger.extend_from_slice(buffer);
            buffer.zeroize();
            *buffer = larger;
        }
        buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a token is bound to, from its parts (a user and a name, say), each with its length, so
/// that no two lists of parts give the same bytes.
#[cfg(feature = "redis")]
pub(crate) fn bound_to(parts: &[&str]) -> Vec<u8> {
    let mut bound = Vec::new();
    for part in parts {
        bound.extend_from_slice(&(part.len() as u64).to_be_bytes());
        bound.extend_from_slice(part.as_bytes());
    }
    bound
}

/// The version and the key id, then the binding: a token moved to another key id, format or
/// request does not open.
fn associated_data(key_id: &str, bound_to: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(VERSION.len() + key_id.len() + bound_to.len() + 24);
    for part in [VERSION.as_bytes(), key_id.as_bytes()] {
        aad.extend_from_slice(&(part.len() as u64).to_be_bytes());
        aad.extend_from_slice(part);
    }
    aad.extend_from_slice(bound_to);
    aad
}

fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"a-configured-secret-of-32-bytes!";
    const OTHER: &[u8] = b"another-secret-of-at-least-32-b!";

    fn ring() -> Keyring {
        Keyring::new("test", ("k1", SECRET), [])
    }

    fn sealed(ring: &Keyring, plaintext: &[u8], bound_to: &[u8]) -> String {
        ring.seal(plaintext, bound_to, Duration::from_secs(60), [7; 24])
            .unwrap()
    }

    #[test]
    fn a_token_opens_for_its_request_and_reads_as_nothing_without_the_key() {
        let token = sealed(&ring(), br#"{"name":"Ada Lovelace"}"#, b"book");
        assert!(token.starts_with("e1.azE."), "{token}");
        assert_eq!(
            ring().open(&token, b"book", SystemTime::now()).unwrap()[..],
            br#"{"name":"Ada Lovelace"}"#[..]
        );
        let body = URL_SAFE_NO_PAD
            .decode(token.rsplit('.').next().unwrap())
            .unwrap();
        assert!(
            !body.windows(3).any(|window| window == b"Ada"),
            "the plaintext shows in the token"
        );
    }

    /// JSON sealed straight into its buffer opens to the same bytes `serde_json` writes, the
    /// small and the large (which grows the buffer, moving to a larger one each time).
    #[test]
    fn json_sealed_in_place_opens_as_serde_json_writes_it() {
        let long = "x".repeat(5 * JSON_CAPACITY);
        for value in [
            serde_json::json!({"name": "Ada Lovelace"}),
            serde_json::json!({"name": long, "more": [long, long]}),
        ] {
            let token = ring()
                .seal_json(&value, b"book", Duration::from_secs(60), [7; 24])
                .unwrap();
            let opened = ring().open(&token, b"book", SystemTime::now()).unwrap();
            assert_eq!(opened[..], serde_json::to_vec(&value).unwrap()[..]);
        }
    }

    /// A value JSON cannot write is refused with serde_json's reason, nothing sealed.
    #[test]
    fn a_value_json_cannot_write_is_refused_with_the_reason() {
        let keyed_by_pairs = std::collections::BTreeMap::from([((1, 2), "pair")]);
        let refused = ring()
            .seal_json(&keyed_by_pairs, b"book", Duration::from_secs(60), [7; 24])
            .unwrap_err();
        assert!(refused.contains("key must be a string"), "{refused}");
    }

    /// Growing moves the bytes written so far whole, and leaves room for the tag.
    #[test]
    fn growth_keeps_what_was_written() {
        use std::io::Write as _;
        let mut buffer = Vec::with_capacity(4);
        let mut writer = WipedGrowth(&mut buffer);
        writer.write_all(b"abc").unwrap();
        writer.write_all(b"defghij").unwrap();
        writer.write_all(&[b'k'; 40]).unwrap();
        let mut expected = b"abcdefghij".to_vec();
        expected.extend([b'k'; 40]);
        assert_eq!(buffer, expected);
        assert!(buffer.capacity() >= buffer.len() + TAG_BYTES);
    }

    #[test]
    fn another_request_key_tampering_or_expiry_does_not_open() {
        let ring = ring();
        let token = sealed(&ring, b"{}", b"book");
        let now = SystemTime::now();
        assert_eq!(ring.open(&token, b"cancel", now), Err(Unopened));
        let stranger = Keyring::new("test", ("k1", OTHER), []);
        assert_eq!(stranger.open(&token, b"book", now), Err(Unopened));
        let mut tampered = token.clone().into_bytes();
        let last = tampered.len() - 1;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        assert_eq!(ring.open(&tampered, b"book", now), Err(Unopened));
        let later = now + Duration::from_secs(61);
        assert_eq!(ring.open(&token, b"book", later), Err(Unopened));
        for garbage in [
            "",
            "e1",
            "e1.azE",
            "e2.azE.AAAA",
            "e1.azE.AAAA",
            "e1.!.AAAA.x",
        ] {
            assert_eq!(ring.open(garbage, b"book", now), Err(Unopened), "{garbage}");
        }
    }

    /// A token sealed by an earlier build opens on this one (replicas of two builds serve one
    /// call during a rolling deploy): sealed by the build before opening decrypted in place,
    /// with its expiry a century off.
    #[test]
    fn a_token_sealed_by_an_earlier_build_opens() {
        const SEALED_BEFORE: &str = "e1.azE.BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHDS2XVUgpp9AqfWV2s-Nb0gzt2lnQcRTa7w5nuLNAokrQ4E8EKgc";
        let expires = UNIX_EPOCH + Duration::from_secs(4_950_171_193);
        let before = expires - Duration::from_secs(1);
        assert_eq!(
            ring().open(SEALED_BEFORE, b"book", before).unwrap()[..],
            br#"{"name":"Ada"}"#[..]
        );
        assert_eq!(ring().open(SEALED_BEFORE, b"book", expires), Err(Unopened));
        // A body too short to hold a nonce, an expiry and a tag is refused, not sliced.
        for cut in [1, 16, 24, 40, 47] {
            let body = URL_SAFE_NO_PAD.encode(&[7u8; 64][..cut]);
            assert_eq!(
                ring().open(&format!("e1.azE.{body}"), b"book", before),
                Err(Unopened),
                "{cut} bytes"
            );
        }
    }

    #[test]
    fn a_rotated_keyring_opens_what_the_old_key_sealed_until_it_is_retired() {
        let old = Keyring::new("test", ("old", OTHER), []);
        let token = sealed(&old, b"{}", b"book");
        let rotated = Keyring::new("test", ("new", SECRET), [("old", OTHER)]);
        assert_eq!(rotated.ids().collect::<Vec<_>>(), ["new", "old"]);
        assert!(rotated.open(&token, b"book", SystemTime::now()).is_ok());
        let retired = Keyring::new("test", ("new", SECRET), []);
        assert_eq!(
            retired.open(&token, b"book", SystemTime::now()),
            Err(Unopened)
        );
        // A key renamed is another key: its id is in the associated data.
        let renamed = Keyring::new("test", ("old2", OTHER), []);
        let moved = token.replacen("b2xk", "b2xkMg", 1);
        assert_eq!(
            renamed.open(&moved, b"book", SystemTime::now()),
            Err(Unopened)
        );
    }

    #[test]
    fn the_keyring_debugs_as_its_ids_only() {
        let ring = Keyring::new("test", ("k1", SECRET), [("k0", OTHER)]);
        assert_eq!(format!("{ring:?}"), r#"Keyring { ids: ["k1", "k0"] }"#);
    }
}
