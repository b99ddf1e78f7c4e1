//! Sealed tokens: encrypted and authenticated with XChaCha20-Poly1305, under one key of a
//! keyring (rotation), with their expiry inside and what they belong to as associated data.
//! `requestState` travels as one (the client carries it and reads nothing of it), and a stored
//! credential rests in Redis as one.
//!
//! `e1.KEY_ID.NONCE_AND_CIPHERTEXT`, both parts in unpadded URL-safe base64: the key's id
//! (any text a keyring accepts), then a random 24-byte nonce followed by the ciphertext and
//! its tag. The plaintext is the expiry (Unix seconds, 8 bytes big-endian) followed by the
//! state's JSON. The associated data names the token's version and key, then the binding.
//!
//! The AEAD is RustCrypto's `chacha20poly1305` (`XChaCha20Poly1305`), called as it is: the
//! crate NCC Group reviewed in 2020 without a significant finding (the review predates the
//! AVX2 backend `poly1305` picks at run time on a CPU that has AVX2; the portable backend, used
//! elsewhere, was reviewed). No `--cfg` changes the tag it computes: `poly1305_backend` and
//! `chacha20_backend` choose among backends that give the same bytes, and `--cfg fuzzing` (set
//! by `cargo fuzz`) adds a helper function only. The composition this module made before, of
//! RustCrypto's `XChaCha20` stream and rust-bitcoin's portable Poly1305, opened a short token
//! sooner (0.9 µs on an Intel Xeon, 3 µs on an AMD EPYC: the cost of the AVX2 backend on short
//! messages, `benches/README.md`), but a build-wide `--cfg chacha20_poly1305_fuzz` turned that
//! Poly1305 into a constant tag: not worth a second, less reviewed primitive on the path every
//! token takes. A server that wants the speed builds with `--cfg poly1305_backend="soft"`, the
//! portable backend the review covered. The tokens are the same bytes (golden tokens of that
//! build open).
//!
//! Wiped from memory: each key when its keyring is dropped (the crate's `zeroize`), and, per
//! message, the stream's state, its leftover keystream and the one-time Poly1305 key and state
//! (the `zeroize` features of `chacha20`, `cipher` and `poly1305`, which `elicit/Cargo.toml`
//! turns on).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::XChaCha20Poly1305;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use sha2::{Digest, Sha256};
use zeroize::{Zeroize, Zeroizing};

use super::{TtlTooLarge, ends_at};

/// The cipher key's length.
const KEY_BYTES: usize = 32;
/// The nonce's length: XChaCha20's, long enough to be drawn at random for every token.
const NONCE_BYTES: usize = 24;
/// The tag's length.
const TAG_BYTES: usize = 16;

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

/// Why a plaintext was not sealed.
#[derive(Debug)]
pub(crate) enum Unsealed {
    /// Its time to live ends past what the clock can hold.
    Ttl(TtlTooLarge),
    /// The value could not be written as JSON: serde_json's reason.
    #[cfg_attr(not(any(feature = "rmcp", test)), allow(dead_code))]
    Json(serde_json::Error),
    /// Longer than XChaCha20's keystream (256 GiB).
    TooLong,
}

impl std::fmt::Display for Unsealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsealed::Ttl(e) => e.fmt(f),
            Unsealed::Json(e) => e.fmt(f),
            Unsealed::TooLong => f.write_str("the plaintext is too long to encrypt"),
        }
    }
}

impl std::error::Error for Unsealed {}

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
                cipher: XChaCha20Poly1305::new((&*derived).into()),
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
    /// `noun` ("a sealing key"), and names an entry by its position: it shows no id and no key
    /// (a key given in an id's place would be shown).
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
            return Err(format!(
                "the {noun} is not in the keyring: none of its {} entries has that id (ids are \
                 not shown, as a key given in an id's place would be)",
                keyring.len()
            ));
        };
        for (position, (_, key)) in keyring.iter().enumerate() {
            let length = key.as_ref().len();
            if length < MIN_KEY_BYTES {
                return Err(format!(
                    "keyring entry {} has {length} bytes; a {noun} needs at least \
                     {MIN_KEY_BYTES}",
                    position + 1
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
    ) -> Result<String, Unsealed> {
        let mut body = body_for(plaintext.len(), ttl, nonce)?;
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
    ) -> Result<String, Unsealed> {
        let mut body = body_for(JSON_CAPACITY, ttl, nonce)?;
        if let Err(e) = serde_json::to_writer(WipedGrowth(&mut body), value) {
            body.zeroize();
            return Err(Unsealed::Json(e));
        }
        self.seal_body(body, nonce, bound_to)
    }

    /// `NONCE | EXPIRES PLAINTEXT` encrypted where it is laid out, its tag appended: the token.
    fn seal_body(
        &self,
        mut body: Vec<u8>,
        nonce: [u8; NONCE_BYTES],
        bound_to: &[u8],
    ) -> Result<String, Unsealed> {
        let key = &self.keys[0];
        let aad = associated_data(&key.id, bound_to);
        let sealed = (&mut body[NONCE_BYTES..]).into();
        let Ok(tag) = key
            .cipher
            .encrypt_inout_detached((&nonce).into(), &aad, sealed)
        else {
            body.zeroize();
            return Err(Unsealed::TooLong);
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
            .decrypt_inout_detached(nonce.into(), &aad, (&mut *sealed).into(), tag.into())
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
fn body_for(
    plaintext: usize,
    ttl: Duration,
    nonce: [u8; NONCE_BYTES],
) -> Result<Vec<u8>, Unsealed> {
    let expires = ends_at(SystemTime::now(), ttl, "the time to live of a sealed token")
        .map_err(Unsealed::Ttl)?;
    let mut body = Vec::with_capacity(NONCE_BYTES + EXPIRY_BYTES + plaintext + TAG_BYTES);
    body.extend_from_slice(&nonce);
    body.extend_from_slice(&unix_seconds(expires).to_be_bytes());
    Ok(body)
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
            .unwrap_err()
            .to_string();
        assert!(refused.contains("key must be a string"), "{refused}");
    }

    /// A time to live past what the clock can hold (`Duration::MAX` meant as "never") is
    /// refused with an error that says so, not a panic, whichever way the token is sealed.
    #[test]
    fn a_time_to_live_past_the_clock_is_refused_not_sealed() {
        for huge in [Duration::MAX, Duration::from_secs(u64::MAX)] {
            let refused = [
                ring().seal(b"{}", b"book", huge, [7; 24]).unwrap_err(),
                ring().seal_json(&"x", b"book", huge, [7; 24]).unwrap_err(),
            ];
            for refused in refused {
                assert!(matches!(refused, Unsealed::Ttl(_)), "{refused:?}");
                assert!(
                    refused.to_string().starts_with(
                        "the time to live of a sealed token (18446744073709551615 s) is too large"
                    ),
                    "{refused}"
                );
            }
        }
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

    /// Tokens of 300 bytes (several blocks of the stream and of the authenticator) sealed by
    /// the build before the AEAD became RustCrypto's `chacha20poly1305` (`f829cc7`, the stream
    /// and the authenticator composed by hand), for each purpose a keyring serves: the state of
    /// a round, a credential and a held answer at rest, each bound as its users bind it. They
    /// open on this build, until their expiry a century off and not after, and a keyring of
    /// another purpose (the same secret) does not open them.
    #[test]
    fn tokens_of_every_purpose_sealed_before_the_aead_changed_open() {
        const SECRET: &[u8] = b"a-configured-secret-of-32-bytes!";
        let sealed_before = [
            (
                "requestState",
                &b"a-binding-digest-of-32-bytes-...."[..],
                "e1.MjAyNi0xMg.WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaKb9uUo30SQD5FZuh0Oj1fQ8akbtA_H8PH_t-ENQFcRj6_XBWPjUT5g2SolYp5YkkRBtuVyLEZ1OkqDxhyXPj92RB9yy-hOkMLg0kGJClBa4HhVZVRFkq0UPDzkc9A97yCEiXavntVZIp31QMo1590pMwWpLjMjSBingxWWkIqWhhk0pZyApIiXjAZ4tqHJyfzvVrKjkA3DsPNWbqx4h7Qh0PeevWB5qt92-lA8ZdNu_GC1nz0XtmuKkFUXsBn1pu4SnKQPxTZAnD-zXs_2aW80IKAQpv3MFvGcUbloCcTLsZIn2LtoBuNfRDXBSM_cg3BqLaxm9KiIpr6xuYpFWPZPRyBqJsgnGS4zlnZ3IHj-54EhR_0S1xGoMe2iKKU7pOc6LBOcOt4b8FtTf6x3ITsmxSfSWSpwk24-zVvesFw7wxp203",
            ),
            (
                "credential",
                &b"\0\0\0\0\0\0\0\x07user-42\0\0\0\0\0\0\0\x08calendar"[..],
                "e1.MjAyNi0xMg.WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaBwpmrCdgGq2ByZSVTtSmFLBQ7usXgHp0htv3ASGgGktckBfbW5mEb__tLS7it5EeWLz_sJdQ8h-BQxj4iS9AfYkjng9yiMmYsS0Gjur8r1AZ30gSGdTqJh6bSqn5aB_kjzW15ber2RtMF61gmWP9mh6JS6obRi1SSDys0ByPEsNQ7CErKDlbvnaKg8SiKQ7UAOi59ZME0Ku7K_w2he8mOsTbQ48nB-7IyIRzNfhFAyozysJwsSVqKlEzd-XtXg8Y6GIEBR3yUxxzIb82GALCNv7fYmkOu9U_ktyTOYr03hwy1iIrfvVYRkC6pVIhMfdOr5aXsKSAZ_l4OO-dKO-HV-WbIjmamVli3kwT8WBxanT9_LomihJezN_YnFyrM4_wE58mVnrihzikW5A1VsJVvstWunUo4M3RZ5dj0Lx62687fuHh",
            ),
            (
                "held answer",
                &b"\0\0\0\0\0\0\0\x05abcde\0\0\0\0\0\0\0\x07user-42"[..],
                "e1.MjAyNi0xMg.WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaguDvmOqWH54DE0nbU-e-ebObzWZCxkZcJHMzjvjq3EJJaEXLBwYP8gWyInXzDA24SNwW6TGabRpN6zKSSlB9Vhtle4M9qBlGHBftjUTJfEWP5-y_Ou7kte82sZPBcGgo9gg1nTKrlGECQVjnuQ4oLUfVgs7BRCpYa_WHTSHHzsNWKEg3O_YIyKQUzJ6h5DFG_9uHTo6JZDJiFH8nUQEtPrntOFAZaxMfKZWJnYxxNjy1S_2azDAYOmFI0N8357UdSp-VAPFU9hDOnSRraaufM3B6WaCZmLYmkZ8EQ99p8MAmJ78IxajJuF10XGmeiMO4jufHzSWuf-0Acvkj4mBmGW3qQGjFaLA2HYFys4MUG3zywAvDC02v792pUoL0SftMyi6VvW2nXmKaLOi1VxjerObSrVRtJUa80uqaDOq8GY0tf-tp",
            ),
        ];
        let plaintext: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        let expires = UNIX_EPOCH + Duration::from_secs(4950218395);
        let before = expires - Duration::from_secs(1);
        for (purpose, bound_to, token) in sealed_before {
            let ring = Keyring::new(purpose, ("2026-12", SECRET), []);
            assert_eq!(
                ring.open(token, bound_to, before).as_deref(),
                Ok(&plaintext),
                "{purpose}"
            );
            assert_eq!(
                ring.open(token, bound_to, expires),
                Err(Unopened),
                "{purpose}"
            );
            let other = Keyring::new("another purpose", ("2026-12", SECRET), []);
            assert_eq!(
                other.open(token, bound_to, before),
                Err(Unopened),
                "{purpose}"
            );
        }
    }

    /// The review's tamper test: a token with any one byte of its nonce, its ciphertext (the
    /// expiry and the plaintext) or its tag changed (each of its bits flipped, and all of them)
    /// does not open, nor does the token for associated data with any one byte changed (the
    /// binding the caller gives, and at the AEAD itself the version and the key id before it);
    /// the message refused is left as it came.
    #[test]
    fn any_byte_changed_in_the_nonce_ciphertext_tag_or_associated_data_refuses() {
        let ring = ring();
        let bound_to = b"a binding of some length";
        let plaintext = br#"{"name":"Ada Lovelace","guests":12}"#;
        let token = sealed(&ring, plaintext, bound_to);
        let now = SystemTime::now();
        const CHANGES: [u8; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 0xff];
        assert_eq!(ring.open(&token, bound_to, now).unwrap()[..], plaintext[..]);
        let body = URL_SAFE_NO_PAD
            .decode(token.rsplit('.').next().unwrap())
            .unwrap();
        assert_eq!(
            body.len(),
            NONCE_BYTES + EXPIRY_BYTES + plaintext.len() + TAG_BYTES
        );
        let mut tampered = body.clone();
        for byte in 0..body.len() {
            for change in CHANGES {
                tampered[byte] ^= change;
                let token = format!("e1.azE.{}", URL_SAFE_NO_PAD.encode(&tampered));
                assert_eq!(
                    ring.open(&token, bound_to, now),
                    Err(Unopened),
                    "byte {byte} ^ {change:#04x}"
                );
                tampered[byte] ^= change;
            }
        }
        let mut other = bound_to.to_vec();
        for byte in 0..other.len() {
            for change in CHANGES {
                other[byte] ^= change;
                assert_eq!(
                    ring.open(&token, &other, now),
                    Err(Unopened),
                    "binding byte {byte} ^ {change:#04x}"
                );
                other[byte] ^= change;
            }
        }

        // The whole associated data, at the AEAD: the version and the key id are written into
        // it by this module, not taken from the token, so only here can a byte of them change.
        let key = &ring.keys[0];
        let nonce: &[u8; NONCE_BYTES] = body[..NONCE_BYTES].try_into().unwrap();
        let (sealed, tag) = body[NONCE_BYTES..].split_at(body.len() - NONCE_BYTES - TAG_BYTES);
        let tag: &[u8; TAG_BYTES] = tag.try_into().unwrap();
        let mut aad = associated_data(&key.id, bound_to);
        let open = |aad: &[u8], message: &mut [u8]| {
            key.cipher
                .decrypt_inout_detached(nonce.into(), aad, message.into(), tag.into())
        };
        let mut message = sealed.to_vec();
        assert!(open(&aad, &mut message).is_ok());
        for byte in 0..aad.len() {
            for change in CHANGES {
                aad[byte] ^= change;
                let mut message = sealed.to_vec();
                assert!(
                    open(&aad, &mut message).is_err(),
                    "associated data byte {byte} ^ {change:#04x}"
                );
                assert_eq!(message, sealed, "a refused message is left as it came");
                aad[byte] ^= change;
            }
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
